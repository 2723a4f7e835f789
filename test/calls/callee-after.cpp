// Callees defined after their caller: a plain prototype before the caller
// and the body later in the file (differentiated on demand once the body is
// seen), and a [[grad]] prototype whose definition comes last.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
// DUMP-LABEL: void caller_pullback(double x, double d_ret, double *d_x) {
// DUMP: annotated_pullback(
// DUMP: later_pullback(x, 2., d_ret, &_g{{[0-9]+}}, &_g{{[0-9]+}});
// DUMP-LABEL: void later_pullback(double x, double y, double d_ret, double *d_x, double *d_y) {
// DUMP-LABEL: void annotated_pullback(double x, double d_ret, double *d_x) {
#include "gradcheck.h"
#include <cmath>

double later(double x, double y);
[[grad]] double annotated(double x);

[[grad]] double caller(double x) { return later(x, 2.0) + annotated(x); }

double later(double x, double y) { return std::sin(x) * y; }
double annotated(double x) { return std::exp(-x * x); }

int main() {
  // CHECK: ok caller.d0
  gradcheck::check_grad("caller", caller, caller_pullback, 0.9);
  double D = 0;
  caller_pullback(0.9, 1.0, &D);
  // CHECK: ok closed
  gradcheck::expect("closed", D,
                    2 * std::cos(0.9) - 2 * 0.9 * std::exp(-0.9 * 0.9));
  return gradcheck::failures();
}
