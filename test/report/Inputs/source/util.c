#include "util.h"

/* Far from the other lines with cost, so that the annotation elides the
   lines between; both inline mix() from util.h. */
int triangle(int n) {
  int t = 0;
  for (int i = 1; i <= n; ++i)
    t += i;
  return t;
}

















int far_away(int n) { return n + (int)mix(n); }
