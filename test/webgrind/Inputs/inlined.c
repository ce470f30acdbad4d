/* worker() has sq() from the same file inlined into it, at lines above its
   own: its webgrind line must be its entry's, not sq's line 4. */
static inline __attribute__((always_inline)) int sq(int X) {
  return X * X + 1;
}

__attribute__((noinline)) int
worker(int N) {
  int S = 0;
  for (int I = 0; I < N; ++I)
    S += sq(I);
  return S;
}

int main(void) { return worker(100) & 1; }
