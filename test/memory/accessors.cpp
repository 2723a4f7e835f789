// Helpers whose whole body returns a pointer or reference into one of their
// arguments (`row(A, n, i)`, `at(v, k)`) are accessors: a local pointer or
// reference bound to their result is an alias of that argument's storage.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
#include "vecgrad.h"
#include <cmath>
#include <vector>

static double *row(double *A, int n, int i) { return A + i * n; }
static const double *crow(const double *A, int n, int i) { return A + i * n; }
static double &at(std::vector<double> &v, int i) { return v[i]; }

[[grad]] double f(const double *A, int n, double a) {
  std::vector<double> B(A, A + n * n);
  for (int i = 0; i < n; ++i) {
    double *r = row(B.data(), n, i);
    for (int j = 0; j < n; ++j)
      r[j] += a * r[j] * r[(j + 1) % n];
  }
  double s = 0;
  for (int i = 0; i < n; ++i) {
    const double *r = crow(A, n, i);
    double &c = at(B, i * n + i);
    c *= r[0];
    s += std::sin(c) * r[n - 1];
  }
  return s;
}

int main() {
  const int N = 3;
  auto X = vecgrad::sample(N * N + 1, 6);
  std::vector<double> D(N * N, 0.0);
  double Da = 0;
  f_pullback(X.data(), N, X[N * N], 1.0, D.data(), &Da);
  D.push_back(Da);
  // CHECK: ok f.d0
  // CHECK: ok f.d9
  vecgrad::check("f", [&](const std::vector<double> &Y) {
    return f(Y.data(), N, Y[N * N]);
  }, X, D);
  return gradcheck::failures();
}
