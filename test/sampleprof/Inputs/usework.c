// Calls into libwork.so, for test/sampleprof/objects.test.
#include <stdio.h>

int libwork(int N);

__attribute__((noinline)) int local(int N) { return libwork(N) + 1; }

int main(void) {
  int S = 0;
  for (int I = 0; I < 30; ++I)
    S += local(100);
  printf("%d\n", S);
  return 0;
}
