#include "a.h"

long one() {
  Table<std::string, long> T;
  T.add("x", Fib<18>::Value);
  Table<int, double> U;
  U.add(1, 2.5);
  return T.total() + long(U.total());
}
