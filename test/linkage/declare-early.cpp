// The pullback is declared with the [[grad]] declaration: code between an
// annotated prototype and the definition (which repeats no attribute) calls
// it. An attribute on the definition after a plain prototype works too.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
// DUMP-LABEL: void early_pullback(double x, double d_ret, double *d_x) {
// DUMP-LABEL: void late_pullback(double x, double d_ret, double *d_x) {
#include "gradcheck.h"
#include <cmath>

[[grad]] double early(double x);

// Calls early_pullback before early is defined.
static double dEarly(double x) {
  double D = 0;
  early_pullback(x, 1.0, &D);
  return D;
}

double early(double x) { return std::exp(x) / x; }

double late(double x);
[[grad]] double late(double x) { return x * std::log(x); }

int main() {
  // CHECK: ok early
  gradcheck::expect("early", dEarly(1.3),
                    std::exp(1.3) / 1.3 - std::exp(1.3) / (1.3 * 1.3));
  // CHECK: ok late.d0
  gradcheck::check_grad("late", late, late_pullback, 1.3);
  return gradcheck::failures();
}
