// A user pullback for a function WITH a visible body wins over the
// generated one. The rule here is deliberately twice the true derivative, so
// the values prove that the user's rule is the one called (from two [[grad]]
// functions) and that no other sq_pullback is generated.
// RUN: %gradxx %s -o %t 2>&1 | count 0
// RUN: %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "gradcheck.h"

double sq(double x) { return x * x; }
void sq_pullback(double x, double d_ret, double *d_x) {
  *d_x += 2 * (2 * x) * d_ret; // 2x the true derivative, on purpose
}

// DUMP-NOT: void sq_pullback(double x, double d_ret, double *d_x) {
// DUMP-LABEL: void f_pullback(double x, double d_ret, double *d_x) {
// DUMP: sq_pullback(x, d_ret, &
[[grad]] double f(double x) { return sq(x); }
// DUMP-LABEL: void g_pullback(double x, double y, double d_ret, double *d_x, double *d_y) {
// DUMP: sq_pullback(
// DUMP-NOT: void sq_pullback(double x, double d_ret, double *d_x) {
[[grad]] double g(double x, double y) { return sq(x) * y; }

int main() {
  double dx = 0;
  f_pullback(1.5, 1.0, &dx);
  // CHECK: ok f.user_rule
  gradcheck::expect("f.user_rule", dx, 2 * (2 * 1.5));
  double gx = 0, gy = 0;
  g_pullback(1.5, -2.0, 1.0, &gx, &gy);
  // CHECK: ok g.dx
  gradcheck::expect("g.dx", gx, 2 * (2 * 1.5) * -2.0);
  // CHECK: ok g.dy
  gradcheck::expect("g.dy", gy, 1.5 * 1.5);
  return gradcheck::failures();
}
