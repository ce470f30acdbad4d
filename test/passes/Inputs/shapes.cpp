// A small C++ program for the demangling tests: templates of the standard
// library (names with `> >` in GNU's demangling), an anonymous namespace,
// virtual functions and lambdas (`{lambda(double)#1}`).
#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>
namespace {
struct Shape {
  virtual ~Shape() = default;
  virtual double area() const = 0;
};
struct Square : Shape {
  double S;
  explicit Square(double S) : S(S) {}
  double area() const override { return S * S; }
};
struct Circle : Shape {
  double R;
  explicit Circle(double R) : R(R) {}
  double area() const override { return 3.14159 * R * R; }
};
} // namespace
template <typename T> T sum(const std::vector<T> &V) {
  T S{};
  for (const T &X : V)
    S += X;
  return S;
}
int main(int argc, char **) {
  std::vector<std::unique_ptr<Shape>> Shapes;
  for (int I = 0; I < 200 * argc; ++I) {
    if (I % 2)
      Shapes.push_back(std::make_unique<Square>(I));
    else
      Shapes.push_back(std::make_unique<Circle>(I));
  }
  std::map<std::string, std::vector<double>> Areas;
  for (auto &S : Shapes)
    Areas[S->area() > 100 ? "big" : "small"].push_back(S->area());
  std::function<double(double)> Twice = [](double X) { return 2 * X; };
  double T = 0;
  for (auto &[K, V] : Areas)
    T += Twice(sum(V));
  std::sort(Shapes.begin(), Shapes.end(),
            [](const auto &A, const auto &B) { return A->area() < B->area(); });
  std::printf("%f\n", T);
}
