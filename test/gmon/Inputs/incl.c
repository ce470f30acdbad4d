/* For the inclusive-cost test: a leaf called from several callers and call
   sites, a 2-cycle and a directly recursive function that take time of their
   own (spin) and call out. The argument scales the work. */
#include "burn.h"
#include <stdlib.h>

/* Time of the caller's own, inlined into it. */
#define spin(N)                                                                \
  for (unsigned long I_ = 0; I_ < (N); ++I_)                                   \
  Sink += I_

void leaf(int I) { burn(30000 + I); }

int cyc_b(int N);
int cyc_a(int N) {
  spin(30000);
  burn(20000);
  return N > 0 ? cyc_b(N - 1) : 0;
}
int cyc_b(int N) {
  leaf(N);
  return N > 0 ? cyc_a(N - 1) + 1 : 0;
}

int rec(int N) {
  spin(20000);
  burn(10000);
  return N > 0 ? rec(N - 1) : 0;
}

void mid(int I) {
  leaf(I);
  leaf(I + 1);
  spin(10000);
}

int main(int argc, char **argv) {
  int Scale = argc > 1 ? atoi(argv[1]) : 1;
  for (int I = 0; I < 20 * Scale; ++I)
    leaf(I);
  for (int I = 0; I < 10 * Scale; ++I)
    mid(I);
  for (int I = 0; I < 2 * Scale; ++I)
    cyc_a(6);
  rec(10 * Scale);
  return 0;
}
