// A callee without [[grad]] whose body is visible is differentiated on
// demand: its pullback is generated once and the caller calls it at each of
// its three call sites.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
// DUMP: void caller_pullback(double x, double d_ret, double *d_x);
// DUMP-NEXT: void sq_pullback(double x, double d_ret, double *d_x);
// DUMP-EMPTY:
// DUMP-LABEL: void caller_pullback(double x, double d_ret, double *d_x) {
// DUMP-COUNT-3: sq_pullback({{.*}}, d_ret, &_g{{[0-9]+}});
// DUMP-LABEL: void sq_pullback(double x, double d_ret, double *d_x) {
// DUMP-NOT: sq_pullback(
#include "gradcheck.h"

double sq(double x) { return x * x; }

[[grad]] double caller(double x) { return sq(x) + sq(2 * x) + sq(x * x); }

int main() {
  // d/dx (x^2 + 4 x^2 + x^4) = 10 x + 4 x^3
  double D = 0;
  caller_pullback(0.7, 1.0, &D);
  // CHECK: ok caller
  gradcheck::expect("caller", D, 10 * 0.7 + 4 * 0.7 * 0.7 * 0.7);
  // CHECK: ok caller.fd.d0
  gradcheck::check_grad("caller.fd", caller, caller_pullback, 0.7);
  // The on-demand pullback is an ordinary function of this file.
  double DS = 0;
  sq_pullback(3.0, 1.0, &DS);
  // CHECK: ok sq
  gradcheck::expect("sq", DS, 6);
  return gradcheck::failures();
}
