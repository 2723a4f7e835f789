// std::move and std::forward are their argument for derivatives (a move is
// a copy); std::swap of doubles and of vector elements is differentiated
// from its body like any helper that writes through references.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "vecgrad.h"
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

[[grad]] double moves(double x, double y) {
  std::vector<double> v{x, y * x};
  std::vector<double> w = std::move(v);
  double a = x * 2, b = y + 1;
  std::swap(a, b);
  double c = std::move(a) * 3;
  return w[0] * w[1] + a * std::sin(b) + c;
}

[[grad]] double reverse(const double *x, int n) {
  std::vector<double> v(x, x + n);
  for (int i = 0, j = n - 1; i < j; ++i, --j)
    std::swap(v[i], v[j]);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += v[i] * (i + 1) * x[i];
  return s;
}

// Indices that may be equal: swap(v[i], v[i]) changes nothing, and so does
// its derivative (accepted: std::swap is exempt from the check for
// references that may share memory, memory/aliased-arguments.cpp).
[[grad]] double swapij(double x, double y, int i, int j) {
  double v[3] = {x, y, x * y};
  std::swap(v[i], v[j]);
  return v[0] * std::sin(v[1]) + v[2];
}

int main() {
  {
    double Dx = 0, Dy = 0;
    moves_pullback(0.7, 1.3, 1.0, &Dx, &Dy);
    // CHECK: ok moves.d0
    // CHECK: ok moves.d1
    vecgrad::check("moves", [](const std::vector<double> &Y) {
      return moves(Y[0], Y[1]);
    }, {0.7, 1.3}, {Dx, Dy});
  }
  {
    auto X = vecgrad::sample(5, 2);
    std::vector<double> D(5, 0.0);
    reverse_pullback(X.data(), 5, 1.0, D.data());
    // CHECK: ok reverse.d0
    // CHECK: ok reverse.d4
    vecgrad::check("reverse", [](const std::vector<double> &Y) {
      return reverse(Y.data(), 5);
    }, X, D);
  }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double Dx = 0, Dy = 0;
      swapij_pullback(0.7, -1.3, i, j, 1.0, &Dx, &Dy);
      vecgrad::check("swapij", [&](const std::vector<double> &Y) {
        return swapij(Y[0], Y[1], i, j);
      }, {0.7, -1.3}, {Dx, Dy});
    }
  // CHECK-COUNT-18: ok swapij.d
  return gradcheck::failures();
}
