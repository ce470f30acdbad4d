#ifndef B_H
#define B_H
#include "unguarded.h"
#include <vector>

template <int N> struct Fib {
  static const int Value = Fib<N - 1>::Value + Fib<N - 2>::Value;
};
template <> struct Fib<1> { static const int Value = 1; };
template <> struct Fib<0> { static const int Value = 0; };

template <typename T> T sumAll(const std::vector<T> &V) {
  T S = T();
  for (const T &X : V)
    S += X;
  return S;
}
#endif
