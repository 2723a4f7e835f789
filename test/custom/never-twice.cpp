// A user pullback for a [[grad]] function itself: the plugin uses it and
// never defines another (grad-dump shows no definition of it), including
// when another [[grad]] function calls the primal.
// RUN: %gradxx %s -o %t 2>&1 | count 0
// RUN: %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP --implicit-check-not="h_pullback(double x, double d_ret, double *d_x) {"
#include "gradcheck.h"

void h_pullback(double x, double d_ret, double *d_x) { *d_x += 10 * d_ret; }
[[grad]] double h(double x) { return x * x; }

// DUMP-LABEL: void user_pullback(double x, double d_ret, double *d_x) {
// DUMP: h_pullback(x, d_ret, &
[[grad]] double user(double x) { return h(x); }

int main() {
  double dx = 0;
  h_pullback(2.0, 1.0, &dx);
  // CHECK: ok h.dx
  gradcheck::expect("h.dx", dx, 10);
  dx = 0;
  user_pullback(2.0, 1.0, &dx);
  // CHECK: ok user.dx
  gradcheck::expect("user.dx", dx, 10);
  return gradcheck::failures();
}
