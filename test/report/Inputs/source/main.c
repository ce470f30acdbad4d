/* The live source test's program: loops in two files and code inlined
   from a header at -O0 (always_inline), so callgrind writes fi=/fe=. */
#include "util.h"
#include <stdio.h>

static int square(int x) { return x * x; }

int main(void) {
  long sum = 0;
  for (int i = 0; i < 1000; ++i)
    sum += square(i);
  for (int i = 0; i < 100; ++i)
    sum += triangle(i);
  sum += mix(sum) + far_away(3);
  printf("%ld\n", sum);
  return 0;
}
