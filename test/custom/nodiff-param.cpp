// [[grad::nodiff]] on a parameter of a [[grad]] function: no adjoint
// parameter for it, as if it were left out of the wrt list.
// RUN: %gradxx %s -o %t 2>&1 | count 0
// RUN: %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "gradcheck.h"

// DUMP-LABEL: void f_pullback({{\[\[maybe_unused\]\]}} double x, double y, double d_ret, double *d_x) {
[[grad]] double f(double x, [[grad::nodiff]] double y) { return x * y; }

// DUMP-LABEL: void g_pullback(double a, double b, double c, double d_ret, double *d_a, double *d_c) {
[[grad]] double g(double a, [[grad::nodiff]] double b, double c) {
  return a * b * c;
}

// Listed in the wrt string and nodiff: nodiff wins.
// DUMP-LABEL: void h_pullback({{\[\[maybe_unused\]\]}} double p, double q, double d_ret, double *d_p) {
[[grad("p, q")]] double h(double p, [[grad::nodiff]] double q) {
  return p * q;
}

int main() {
  double dx = 0;
  f_pullback(1.5, 4.0, 1.0, &dx);
  // CHECK: ok f.dx
  gradcheck::expect("f.dx", dx, 4.0);
  double da = 0, dc = 0;
  g_pullback(2.0, 3.0, 5.0, 1.0, &da, &dc);
  // CHECK: ok g.da
  gradcheck::expect("g.da", da, 15.0);
  // CHECK: ok g.dc
  gradcheck::expect("g.dc", dc, 6.0);
  double dp = 0;
  h_pullback(2.0, 7.0, 1.0, &dp);
  // CHECK: ok h.dp
  gradcheck::expect("h.dp", dp, 7.0);
  return gradcheck::failures();
}
