// A [[grad]] function calling another [[grad]] function uses the callee's
// pullback (the one the attribute declared); the callee's pullback is
// generated once even though the caller also needs it.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
// DUMP-LABEL: void inner_pullback(double x, double y, double d_ret, double *d_x, double *d_y) {
// DUMP-LABEL: void outer_pullback(double x, double d_ret, double *d_x) {
// DUMP: _t{{[0-9]+}} = ::inner(x, x * x);
// DUMP: ::inner_pullback(x, x * x, d_ret * x, &_g{{[0-9]+}}, &_g{{[0-9]+}});
// DUMP-NOT: void inner_pullback(
#include "gradcheck.h"
#include <cmath>

[[grad]] double inner(double x, double y) { return std::sin(x) * y; }
[[grad]] double outer(double x) { return inner(x, x * x) * x; }

int main() {
  // CHECK: ok inner.d0
  gradcheck::check_grad("inner", inner, inner_pullback, 0.6, 1.4);
  // CHECK: ok outer.d0
  gradcheck::check_grad("outer", outer, outer_pullback, 0.6);
  return gradcheck::failures();
}
