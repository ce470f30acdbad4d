/* A small program for callgrind: a non-recursive call tree (main -> work ->
   leaf, main -> leaf), direct recursion (fact) and mutual recursion
   (is_even / is_odd). noinline keeps every function in the profile. */
#define NOINLINE __attribute__((noinline))

volatile unsigned Sink;

NOINLINE unsigned leaf(unsigned N) {
  unsigned S = 0;
  for (unsigned I = 0; I < N; ++I)
    S += I * I;
  return S;
}

NOINLINE unsigned work(unsigned N) {
  unsigned S = 0;
  for (unsigned I = 0; I < N; ++I)
    S += leaf(100);
  return S;
}

NOINLINE unsigned fact(unsigned N) { return N <= 1 ? 1 : N * fact(N - 1); }

NOINLINE int is_odd(unsigned N);
NOINLINE int is_even(unsigned N) { return N == 0 ? 1 : is_odd(N - 1); }
NOINLINE int is_odd(unsigned N) { return N == 0 ? 0 : is_even(N - 1); }

int main(void) {
  Sink = work(20);
  Sink = leaf(1000);
  Sink = fact(12);
  Sink = is_even(30);
  return 0;
}
