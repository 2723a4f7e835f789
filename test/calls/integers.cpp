// Integer parameters get no adjoint; int locals, (double)i, static_cast<float>
// and integer arithmetic mixed into floating expressions are constants for
// differentiation.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
// DUMP-LABEL: void scale_pullback(double x, int n, double d_ret, double *d_x) {
// DUMP: int k = n * 2;
// DUMP-LABEL: void tofloat_pullback(double x, double d_ret, double *d_x) {
// DUMP: float f = static_cast<float>(x);
// DUMP-LABEL: void idx_pullback(int i, double y, long n, double d_ret, double *d_y) {
#include "gradcheck.h"
#include <cmath>

[[grad]] double scale(double x, int n) {
  int k = n * 2;
  double s = x * k;
  s += (double)n * x;
  s += static_cast<double>(k / 3) * x * x;
  return s;
}

// Through float and back: the adjoint crosses both casts.
[[grad]] double tofloat(double x) {
  float f = static_cast<float>(x);
  float g = f * f;
  return static_cast<double>(g) + x;
}

[[grad]] double idx(int i, double y, long n) {
  int j = i + 1;
  return y * j / n + std::sin(y * i);
}

// A callee with an integer parameter, differentiated on demand.
double term(double x, int p) { return p * x * x; }
[[grad]] double useterm(double x) { return term(x, 3) + term(x, -1); }

int main() {
  using gradcheck::expect;
  double D = 0;
  scale_pullback(1.5, 7, 1.0, &D);
  // CHECK: ok scale
  expect("scale", D, 14 + 7 + 2 * 4 * 1.5);
  D = 0;
  tofloat_pullback(0.75, 1.0, &D);
  // CHECK: ok tofloat
  expect("tofloat", D, 2 * 0.75 + 1, 1e-6);
  D = 0;
  idx_pullback(2, 0.4, 5L, 1.0, &D);
  // CHECK: ok idx
  expect("idx", D, 3.0 / 5 + 2 * std::cos(0.8));
  // CHECK: ok useterm.d0
  gradcheck::check_grad("useterm", useterm, useterm_pullback, 1.25);
  return gradcheck::failures();
}
