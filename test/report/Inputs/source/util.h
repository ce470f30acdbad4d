int triangle(int n);
int far_away(int n);

static inline __attribute__((always_inline)) long mix(long x) {
  long r = 0;
  for (int i = 0; i < 50; ++i)
    r += x ^ i;
  return r;
}
