// The comma operator where nothing can run ahead of it: loop increments
// with two induction variables (`++i, --j`) and branches of ?:. (The left
// operand was hoisted out of the loop, before the declaration of `i`.)
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "vecgrad.h"
#include <cmath>
#include <vector>

[[grad]] double f(double x, double y) {
  int k = 0;
  double a = x > 0 ? (k++, x * y) : (k--, y * y);
  double s = 0;
  for (int i = 0, j = 3; i < j; ++i, --j)
    s += std::sin(x * i) * j;
  return a * (k + 1) + s;
}

// Reversal in place with a hand-written swap.
[[grad]] double flip(const double *x, int n) {
  std::vector<double> v(x, x + n);
  for (int i = 0, j = n - 1; i < j; ++i, --j) {
    double t = v[i];
    v[i] = v[j];
    v[j] = t;
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += v[i] * (i + 1) * x[i];
  return s;
}

int main() {
  for (double X0 : {0.7, -0.4}) {
    double Dx = 0, Dy = 0;
    f_pullback(X0, 1.3, 1.0, &Dx, &Dy);
    // CHECK: ok f.d0
    // CHECK: ok f.d1
    // CHECK: ok f.d0
    // CHECK: ok f.d1
    vecgrad::check("f", [](const std::vector<double> &Y) {
      return f(Y[0], Y[1]);
    }, {X0, 1.3}, {Dx, Dy});
  }
  auto X = vecgrad::sample(5, 4);
  std::vector<double> D(5, 0.0);
  flip_pullback(X.data(), 5, 1.0, D.data());
  // CHECK: ok flip.d0
  // CHECK: ok flip.d4
  vecgrad::check("flip", [](const std::vector<double> &Y) {
    return flip(Y.data(), 5);
  }, X, D);
  return gradcheck::failures();
}
