// A small program for the sample-profile tests: inlined helpers, a loop the
// compiler unrolls (duplication factors), calls the compiler tail-merges
// (line-0 code), code that never runs, and a callback libc calls (qsort).
#include <stdio.h>
#include <stdlib.h>

static unsigned Seed = 12345;

static inline unsigned next(void) {
  Seed = Seed * 1103515245u + 12345u;
  return Seed >> 16;
}

__attribute__((noinline)) static long report(const char *What, long V) {
  printf("%s %ld\n", What, V);
  return V;
}

__attribute__((noinline)) long dot(const int *A, const int *B, int N) {
  long S = 0;
  for (int I = 0; I < N; ++I)
    S += (long)A[I] * B[I];
  return S;
}

static int compare(const void *X, const void *Y) {
  int A = *(const int *)X, B = *(const int *)Y;
  return (A > B) - (A < B);
}

__attribute__((noinline)) long classify(int V) {
  if (V % 3 == 0)
    return report("three", V);
  if (V % 5 == 0)
    return report("five", V);
  if (V < 0)
    return report("negative", V); // Never runs.
  return V;
}

int main(int Argc, char **Argv) {
  int N = Argc > 1 ? atoi(Argv[1]) : 2000;
  int *A = malloc(N * sizeof(int)), *B = malloc(N * sizeof(int));
  for (int I = 0; I < N; ++I) {
    A[I] = next() % 100;
    B[I] = next() % 100;
  }
  long Total = 0;
  for (int R = 0; R < 20; ++R)
    Total += dot(A, B, N);
  qsort(A, N, sizeof(int), compare);
  for (int I = 0; I < 40; ++I)
    Total += classify(A[I * (N / 40)]);
  printf("%ld\n", Total);
  free(A);
  free(B);
  return 0;
}
