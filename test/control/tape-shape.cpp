// Shape of the generated code: straight-line code uses no tape; a canonical
// counted loop recomputes its index (no tape of int, no index push); a loop
// that only accumulates pushes nothing.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "gradcheck.h"
#include <cmath>
#include <grad/grad.h>

// DUMP-LABEL: void straight_pullback(double x, double y, double d_ret, double *d_x, double *d_y) {
// DUMP-NOT: tape
// DUMP: {{^}$}}
[[grad]] double straight(double x, double y) {
  double a = x * y;
  a = std::sin(a) * a;
  if (a > 0)
    a = a * a + y;
  a = a / (1 + x * x);
  return a * x;
}

// DUMP-LABEL: void canonical_pullback(const double *x, int n, double w, double d_ret, double *d_x, double *d_w) {
// DUMP-NOT: tape<int>
// DUMP: for (int i =
// DUMP-NOT: push(i)
// DUMP: int i = {{.*}}static_cast<int>
// DUMP-NOT: push(i)
// DUMP: {{^}$}}
[[grad]] double canonical(const double *x, int n, double w) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s = s * w + x[i];
  return s;
}

// DUMP-LABEL: void sum_only_pullback(const double *x, int n, double w, double d_ret, double *d_x, double *d_w) {
// DUMP-NOT: push(
// DUMP: {{^}$}}
[[grad]] double sum_only(const double *x, int n, double w) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += w * x[i];
  return s;
}

int main() {
  // CHECK: ok straight.d0
  gradcheck::check_grad("straight", straight, straight_pullback, 0.7, 0.4);
  double X[3] = {0.5, -1, 2}, D[3] = {0, 0, 0}, DW = 0;
  canonical_pullback(X, 3, 0.5, 1.0, D, &DW);
  // s = (x0 w + x1) w + x2
  // CHECK: ok canonical.dw
  gradcheck::expect("canonical.dw", DW, 2 * X[0] * 0.5 + X[1]);
  gradcheck::expect("canonical.dx0", D[0], 0.25);
  double E[3] = {0, 0, 0}, EW = 0;
  sum_only_pullback(X, 3, 0.5, 1.0, E, &EW);
  // CHECK: ok sum_only.dw
  gradcheck::expect("sum_only.dw", EW, 1.5);
  return gradcheck::failures();
}
