/* The CPU-bound leaf of the gmon.out test programs (prog.c, incl.c). */
#ifndef BURN_H
#define BURN_H

volatile unsigned long Sink;

void burn(unsigned long N) {
  unsigned long X = 0;
  for (unsigned long I = 0; I < N; ++I)
    X += I * I ^ (X >> 3);
  Sink += X;
}

#endif
