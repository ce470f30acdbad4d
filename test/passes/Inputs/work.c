/* A small deterministic program for merge tests: argv[1] picks how much of
   each function runs, so two runs have different costs. */
#include <stdlib.h>

static volatile long Sink;

__attribute__((noinline)) static long square_sum(long N) {
  long S = 0;
  for (long I = 0; I < N; ++I)
    S += I * I;
  return S;
}

__attribute__((noinline)) static long fill(long N) {
  long *A = malloc(N * sizeof(long));
  for (long I = 0; I < N; ++I)
    A[I] = I;
  long S = 0;
  for (long I = 0; I < N; ++I)
    S += A[I];
  free(A);
  return S;
}

int main(int argc, char **argv) {
  long N = argc > 1 ? atol(argv[1]) : 1000;
  Sink = square_sum(N) + fill(N / 2);
  if (N > 1500)
    Sink += fill(N);
  return 0;
}
