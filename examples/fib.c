// The program behind examples/callgrind.out.fib: direct recursion (fib) and
// mutual recursion (is_even/is_odd). Regenerate the profile with
//   gcc -g -O1 fib.c -o fib && valgrind --tool=callgrind \
//     --callgrind-out-file=callgrind.out.fib ./fib
#include <stdio.h>

static int fib(int N) { return N < 2 ? N : fib(N - 1) + fib(N - 2); }

static int isOdd(int N);
static int isEven(int N) { return N == 0 ? 1 : isOdd(N - 1); }
static int isOdd(int N) { return N == 0 ? 0 : isEven(N - 1); }

int main(void) {
  printf("%d %d\n", fib(20), isEven(41));
  return 0;
}
