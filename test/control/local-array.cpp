// Local C arrays as scratch buffers: double t[16] (no initializer), filled
// and overwritten in loops, read with computed indices.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "vecgrad.h"
#include <cmath>
#include <grad/grad.h>

// Prefix sums in place, then a weighted read-back.
[[grad]] double prefix(const double *x, int n) {
  double t[16];
  for (int i = 0; i < n; ++i)
    t[i] = x[i] * x[i];
  for (int i = 1; i < n; ++i)
    t[i] = t[i] + t[i - 1];
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += std::sin(t[i]) * x[n - 1 - i];
  return s;
}

// Repeated in-place smoothing of a scratch buffer (overwrites per sweep).
[[grad]] double smooth(double a, double b) {
  double t[8];
  for (int i = 0; i < 8; ++i)
    t[i] = a * i + b;
  for (int k = 0; k < 3; ++k)
    for (int i = 1; i < 7; ++i)
      t[i] = 0.25 * t[i - 1] + 0.5 * t[i] * t[i] + 0.25 * t[i + 1];
  return t[3] * t[4];
}

// Straight-line use: constant indices.
[[grad]] double straight(double a, double b) {
  double t[4];
  t[0] = a;
  t[1] = a * b;
  t[2] = t[1] * t[0];
  t[3] = t[2] - t[1];
  t[1] = t[3] * t[3];
  return t[1] + t[2];
}

int main() {
  const int N = 10;
  auto X = vecgrad::sample(N, 8);
  std::vector<double> D(N, 0.0);
  prefix_pullback(X.data(), N, 1.0, D.data());
  auto F = [&](const std::vector<double> &V) { return prefix(V.data(), N); };
  // CHECK: ok prefix.d0
  // CHECK: ok prefix.d9
  vecgrad::check("prefix", F, X, D);
  // CHECK: ok smooth.d0
  // CHECK: ok smooth.d1
  gradcheck::check_grad("smooth", smooth, smooth_pullback, 0.1, 0.2);
  // CHECK: ok straight.d1
  gradcheck::check_grad("straight", straight, straight_pullback, 0.7, 1.3);
  return gradcheck::failures();
}
