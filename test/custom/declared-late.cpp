// A user pullback declared AFTER the first differentiated call (or after the
// [[grad]] function itself) still wins: the plugin must not have defined
// its own by then (today: "redefinition of 'sq_pullback'", pointing at sq).
// RUN: %gradxx %s -o %t 2>&1 | count 0
// RUN: %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"

double sq(double x) { return x * x; }
[[grad]] double f(double x) { return sq(x); }
void sq_pullback(double x, double d_ret, double *d_x) { *d_x += 30 * d_ret; }

[[grad]] double k(double x) { return x * x; }
void k_pullback(double x, double d_ret, double *d_x) { *d_x += 20 * d_ret; }

int main() {
  double dx = 0;
  f_pullback(2.0, 1.0, &dx);
  // CHECK: ok f.dx
  gradcheck::expect("f.dx", dx, 30);
  dx = 0;
  k_pullback(2.0, 1.0, &dx);
  // CHECK: ok k.dx
  gradcheck::expect("k.dx", dx, 20);
  return gradcheck::failures();
}
