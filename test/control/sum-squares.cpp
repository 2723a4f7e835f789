// Sum of squares through a local that is overwritten every iteration.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "vecgrad.h"
#include <grad/grad.h>

[[grad]] double sum_squares(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double t = x[i];
    t = t * t;
    s = s + t;
  }
  return s;
}

int main() {
  const int N = 12;
  auto X = vecgrad::sample(N, 5);
  std::vector<double> D(N, 0.0);
  sum_squares_pullback(X.data(), N, 1.0, D.data());
  auto F = [&](const std::vector<double> &V) { return sum_squares(V.data(), N); };
  // CHECK: ok sum_squares.d0
  // CHECK: ok sum_squares.d11
  vecgrad::check("sum_squares", F, X, D);
  for (int I = 0; I < N; ++I)
    // CHECK: ok sum_squares.closed5
    gradcheck::expect("sum_squares.closed" + std::to_string(I), D[I], 2 * X[I],
                      1e-14);
  return gradcheck::failures();
}
