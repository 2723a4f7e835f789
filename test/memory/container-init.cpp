// Arrays and containers initialised from differentiated values: brace lists
// (1-D, 2-D, std::array, std::vector), std::vector<double> v(n, x), copies of
// containers, and a std::array declared without initialiser (its adjoint
// starts at zero).
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "vecgrad.h"
#include <array>
#include <cmath>
#include <vector>

// DUMP-LABEL: void lists_pullback(double x, double y, int n, double d_ret, double *d_x, double *d_y) {
// DUMP: double _d_a[3] = {};
[[grad]] double lists(double x, double y, int n) {
  double a[] = {x, y, x * y};
  double m[2][2] = {{x, 1}, {y, x + y}};
  std::array<double, 3> s{x, y, x * y};
  std::array<double, 2> q;
  q[0] = s[2] - x;
  q[1] = s[1] * s[0];
  std::array<double, 2> r = q;
  r[0] += 1.0;
  std::vector<double> v{x, y * y};
  std::vector<double> w(n, x);
  double t = 0;
  for (int i = 0; i < n; ++i)
    t += w[i] * (i + 1);
  return a[0] * a[1] + a[2] + m[1][1] * m[0][0] + r[0] * q[1] + v[1] * v[0] +
         t;
}

// Containers built from a pointer range and copied from each other.
[[grad]] double ranges(const double *x, int n) {
  std::vector<double> u(x, x + n);
  std::vector<double> c = u;
  for (int i = 0; i < n; ++i)
    c[i] = std::sin(c[i]) * u[(i + 1) % n];
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += c[i] * u[i];
  return s;
}

int main() {
  {
    auto X = std::vector<double>{0.7, 1.3};
    double Dx = 0, Dy = 0;
    lists_pullback(X[0], X[1], 4, 1.0, &Dx, &Dy);
    auto F = [](const std::vector<double> &V) { return lists(V[0], V[1], 4); };
    // CHECK: ok lists.d0
    // CHECK: ok lists.d1
    vecgrad::check("lists", F, X, {Dx, Dy});
  }
  {
    const int N = 5;
    auto X = vecgrad::sample(N, 3);
    std::vector<double> D(N, 0.0);
    ranges_pullback(X.data(), N, 1.0, D.data());
    auto F = [&](const std::vector<double> &V) { return ranges(V.data(), N); };
    // CHECK: ok ranges.d0
    // CHECK: ok ranges.d4
    vecgrad::check("ranges", F, X, D);
  }
  return gradcheck::failures();
}
