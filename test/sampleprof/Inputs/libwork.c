// A shared library for test/sampleprof/objects.test.
static inline int square(int X) { return X * X; }

int libwork(int N) {
  int S = 0;
  for (int I = 0; I < N; ++I)
    S += square(I) % 7;
  return S;
}
