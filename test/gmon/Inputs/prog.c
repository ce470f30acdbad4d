/* A small program for the gmon.out tests: a CPU-bound leaf, direct
   recursion, a 2-cycle and a static function. The argument scales the work. */
#include "burn.h"
#include <stdlib.h>

static void helper(int I) { burn(20000 + I); }

int fib(int N) { return N < 2 ? N : fib(N - 1) + fib(N - 2); }

int cyc_b(int N);
int cyc_a(int N) {
  burn(5000);
  return N > 0 ? cyc_b(N - 1) : 0;
}
int cyc_b(int N) { return N > 0 ? cyc_a(N - 1) + 1 : 0; }

void work(int Scale) {
  for (int I = 0; I < 30 * Scale; ++I)
    helper(I);
  for (int I = 0; I < 7; ++I)
    cyc_a(6);
  Sink += fib(18);
}

int main(int argc, char **argv) {
  work(argc > 1 ? atoi(argv[1]) : 1);
  return 0;
}
