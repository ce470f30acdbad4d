// A translation unit with heavy headers and nested templates, for the
// time-trace tests.
#include <map>
#include <string>
#include <vector>

template <int N> struct Fib {
  static const int Value = Fib<N - 1>::Value + Fib<N - 2>::Value;
};
template <> struct Fib<1> { static const int Value = 1; };
template <> struct Fib<0> { static const int Value = 0; };

int use() {
  std::map<std::string, std::vector<int>> M;
  M["a"].push_back(Fib<20>::Value);
  return int(M.size());
}
