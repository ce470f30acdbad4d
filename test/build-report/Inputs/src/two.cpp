#include "b.h"
#include "unguarded.h"
#include <string>

int two(int N) {
  std::vector<int> V(N, Fib<12>::Value);
  std::vector<std::string> W(N, "w");
  return sumAll(V) + int(W.size());
}
