// For test/sampleprof/profgen-agree.test: see twice-a.cpp.
inline __attribute__((noinline)) int twice(int X) {
  int S = 0;
  for (int I = 0; I < X; ++I)
    S += I * 2;
  return S;
}
