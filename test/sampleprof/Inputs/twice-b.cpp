#include "twice.h"
int fromA(int N);
int main() {
  int S = 0;
  for (int I = 0; I < 100; ++I)
    S += fromA(I) + twice(I);
  return S & 1;
}
