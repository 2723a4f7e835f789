// [[grad::grad]] is the same attribute as [[grad]].
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
// DUMP-LABEL: void g_pullback(double x, double y, double d_ret, double *d_x, double *d_y) {
// DUMP-LABEL: void h_pullback(double x, double y, double d_ret, double *d_y) {
#include "gradcheck.h"

[[grad::grad]] double g(double x, double y) { return x * x / y; }
[[grad::grad("y")]] double h(double x, double y) { return x * y * y; }

int main() {
  // CHECK: ok g.d0
  // CHECK: ok g.d1
  gradcheck::check_grad("g", g, g_pullback, 0.4, 1.3);
  double DY = 0;
  h_pullback(0.4, 1.3, 1.0, &DY);
  // CHECK: ok h.dy
  gradcheck::expect("h.dy", DY, 2 * 0.4 * 1.3);
  return gradcheck::failures();
}
