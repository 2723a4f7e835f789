// A chain of 50 functions, each calling the previous one, only the last
// annotated: 49 are differentiated on demand, each once, and the gradient of
// c50(x) = x^51 is 51 x^50. c3..c50 call functions that call functions, so
// they are split into forward and reverse halves: the chain runs each
// forward sweep once (linear in its depth).
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags > %t.dump
// RUN: FileCheck %s --check-prefix=DUMP --input-file=%t.dump
// c3..c49 are small helpers: their halves are inlined into their callers
// (internal, always_inline); c50's are external, other translation units
// may call them.
// RUN: grep -c '^\[\[gnu::always_inline\]\] static double _grad_c[0-9]*_fwd(double x, ::grad::detail::stack &_stack) {' %t.dump | FileCheck %s --check-prefix=COUNT
// RUN: grep -c '^\[\[gnu::always_inline\]\] static void _grad_c[0-9]*_rev(double x, double d_ret, double \*d_x, ::grad::detail::stack &_stack) {' %t.dump | FileCheck %s --check-prefix=COUNT
// RUN: grep -c '^double _grad_c50_fwd(double x, ::grad::detail::stack &_stack) {' %t.dump | FileCheck %s --check-prefix=ONE
// COUNT: 47
// ONE: 1
// DUMP: void c50_pullback(double x, double d_ret, double *d_x);
// DUMP-LABEL: void c50_pullback(double x, double d_ret, double *d_x) {
// DUMP-NEXT: grad::detail::stack &_stack = ::grad::detail::thread_stack();
// DUMP-NEXT: grad::detail::stack_mark _mark(_stack);
// DUMP-NEXT: ::_grad_c50_fwd(x, _stack)
// DUMP-NEXT: ::_grad_c50_rev(x, d_ret, d_x, _stack);
// DUMP-LABEL: static void _grad_c49_rev(double x, double d_ret, double *d_x, ::grad::detail::stack &_stack) {
// DUMP: _stack.pop_all(_t0);
// DUMP: ::_grad_c48_rev(x, x * d_ret, &_g0, _stack);
// DUMP-LABEL: void c2_pullback(double x, double d_ret, double *d_x) {
// DUMP: c1_pullback(x, x * d_ret, &_g0);
// DUMP-LABEL: void c1_pullback(double x, double d_ret, double *d_x) {
// DUMP-NOT: _pullback(double x, double d_ret, double *d_x) {
#include "gradcheck.h"
#include <cmath>

double c1(double x) { return x * x; }
double c2(double x) { return x * c1(x); }
double c3(double x) { return x * c2(x); }
double c4(double x) { return x * c3(x); }
double c5(double x) { return x * c4(x); }
double c6(double x) { return x * c5(x); }
double c7(double x) { return x * c6(x); }
double c8(double x) { return x * c7(x); }
double c9(double x) { return x * c8(x); }
double c10(double x) { return x * c9(x); }
double c11(double x) { return x * c10(x); }
double c12(double x) { return x * c11(x); }
double c13(double x) { return x * c12(x); }
double c14(double x) { return x * c13(x); }
double c15(double x) { return x * c14(x); }
double c16(double x) { return x * c15(x); }
double c17(double x) { return x * c16(x); }
double c18(double x) { return x * c17(x); }
double c19(double x) { return x * c18(x); }
double c20(double x) { return x * c19(x); }
double c21(double x) { return x * c20(x); }
double c22(double x) { return x * c21(x); }
double c23(double x) { return x * c22(x); }
double c24(double x) { return x * c23(x); }
double c25(double x) { return x * c24(x); }
double c26(double x) { return x * c25(x); }
double c27(double x) { return x * c26(x); }
double c28(double x) { return x * c27(x); }
double c29(double x) { return x * c28(x); }
double c30(double x) { return x * c29(x); }
double c31(double x) { return x * c30(x); }
double c32(double x) { return x * c31(x); }
double c33(double x) { return x * c32(x); }
double c34(double x) { return x * c33(x); }
double c35(double x) { return x * c34(x); }
double c36(double x) { return x * c35(x); }
double c37(double x) { return x * c36(x); }
double c38(double x) { return x * c37(x); }
double c39(double x) { return x * c38(x); }
double c40(double x) { return x * c39(x); }
double c41(double x) { return x * c40(x); }
double c42(double x) { return x * c41(x); }
double c43(double x) { return x * c42(x); }
double c44(double x) { return x * c43(x); }
double c45(double x) { return x * c44(x); }
double c46(double x) { return x * c45(x); }
double c47(double x) { return x * c46(x); }
double c48(double x) { return x * c47(x); }
double c49(double x) { return x * c48(x); }
[[grad]] double c50(double x) { return x * c49(x); }

int main() {
  double D = 0;
  c50_pullback(1.01, 1.0, &D);
  // CHECK: ok closed
  gradcheck::expect("closed", D, 51 * std::pow(1.01, 50), 1e-12);
  // CHECK: ok fd.d0
  gradcheck::check_grad("fd", c50, c50_pullback, 0.97);
  return gradcheck::failures();
}
