// A small C++ program for the sample-profile tests: virtual calls,
// templates instantiated twice, inlined members and a std::vector.
#include <cstdio>
#include <memory>
#include <vector>

struct Shape {
  virtual ~Shape() = default;
  virtual double area() const = 0;
};

struct Square : Shape {
  double Side;
  explicit Square(double S) : Side(S) {}
  double area() const override { return Side * Side; }
};

struct Circle : Shape {
  double Radius;
  explicit Circle(double R) : Radius(R) {}
  double area() const override { return 3.14159 * Radius * Radius; }
};

template <typename T> __attribute__((noinline)) T sumOf(const std::vector<T> &V) {
  T S = 0;
  for (const T &X : V)
    S += X;
  return S;
}

__attribute__((noinline)) double totalArea(
    const std::vector<std::unique_ptr<Shape>> &Shapes) {
  double A = 0;
  for (const auto &S : Shapes)
    A += S->area();
  return A;
}

int main() {
  std::vector<std::unique_ptr<Shape>> Shapes;
  for (int I = 0; I < 300; ++I) {
    if (I % 3)
      Shapes.push_back(std::make_unique<Square>(I));
    else
      Shapes.push_back(std::make_unique<Circle>(I));
  }
  std::vector<int> Ints;
  std::vector<double> Doubles;
  for (int I = 0; I < 1000; ++I) {
    Ints.push_back(I);
    Doubles.push_back(I * 0.5);
  }
  double T = 0;
  for (int R = 0; R < 10; ++R)
    T += totalArea(Shapes) + sumOf(Ints) + sumOf(Doubles);
  std::printf("%f\n", T);
  return 0;
}
