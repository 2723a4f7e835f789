// [[grad("a")]] on functions with loops and arrays: only the named
// parameters get adjoints, and the pullback computes no adjoint for others.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "vecgrad.h"
#include <cmath>
#include <grad/grad.h>

// DUMP-LABEL: void poly_pullback(double a, double b, int n, double d_ret, double *d_a) {
// DUMP-NOT: _d_b
// DUMP: {{^}$}}
[[grad("a")]] double poly(double a, double b, int n) {
  double s = b;
  for (int i = 0; i < n; ++i)
    s = s * a + b * i;
  return s;
}

// DUMP-LABEL: void weighted_pullback(const double *w, const double *x, int n, double d_ret, double *d_x) {
// DUMP-NOT: d_w
// DUMP: {{^}$}}
[[grad("x")]] double weighted(const double *w, const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += w[i] * std::sin(x[i]);
  return s;
}

double poly5(double a, double b) { return poly(a, b, 5); }

int main() {
  double DA = 0;
  poly_pullback(0.7, 1.3, 5, 1.0, &DA);
  // CHECK: ok poly.da
  gradcheck::expect("poly.da", DA, gradcheck::fd(poly5, 0, 0.7, 1.3));
  const int N = 5;
  auto W = vecgrad::sample(N, 1), X = vecgrad::sample(N, 2);
  std::vector<double> DX(N, 0.0);
  weighted_pullback(W.data(), X.data(), N, 1.0, DX.data());
  auto F = [&](const std::vector<double> &V) { return weighted(W.data(), V.data(), N); };
  // CHECK: ok weighted.d4
  vecgrad::check("weighted", F, X, DX);
  return gradcheck::failures();
}
