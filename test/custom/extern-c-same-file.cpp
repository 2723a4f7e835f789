// The user's pullback wins even when the C function's body becomes visible
// later in the same file, after the call site.
// RUN: %gradxx %s -o %t 2>&1 | count 0
// RUN: %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "gradcheck.h"
#include <cmath>

extern "C" double softplus(double x);
extern "C" void softplus_pullback(double x, double d_ret, double *d_x) {
  *d_x += d_ret / (1 + std::exp(-x));
}

// DUMP-LABEL: void f_pullback(double x, double d_ret, double *d_x) {
// DUMP: softplus_pullback(
// DUMP-NOT: softplus_pullback(double x, double d_ret, double *d_x) {
[[grad]] double f(double x) { return x * softplus(x); }

extern "C" double softplus(double x) { return std::log1p(std::exp(x)); }

int main() {
  // CHECK: ok f.d0
  gradcheck::check_grad("f", f, f_pullback, 0.8);
  return gradcheck::failures();
}
