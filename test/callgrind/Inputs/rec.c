// The recursive and called-through-a-pointer functions of prog.c, compiled
// at -O0 so that every compiler keeps each call (at -O2 gcc turns part of
// fib's recursion into a loop), which makes the call counts the tests check
// the same everywhere:
//   fib(10): 177 calls; is_even(7): 8 calls alternating with is_odd.
int fib(int N) { return N < 2 ? N : fib(N - 1) + fib(N - 2); }

int is_odd(int N);
int is_even(int N) { return N == 0 ? 1 : is_odd(N - 1); }
int is_odd(int N) { return N == 0 ? 0 : is_even(N - 1); }

int op_add(int A, int B) { return A + B; }
int op_mul(int A, int B) { return A * B; }
