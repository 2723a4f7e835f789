// A helper writing into memory without derivatives (a scratch vector of
// vectors the function never fills with differentiated values) with a
// constant scalar: `axpy(1, -1.0, &t[1][0], &t[0][0])`. The callee is
// differentiated without that scalar (a variant), so nothing it writes
// needs an adjoint; it was the error "pointer parameter 'y', which receives
// differentiated values but is not in the wrt list" (the fuzz run of
// all,memory,copies,maps,shaped,owners,ownermethods,dtors,temps,loops, seed
// 46328). Calls with differentiated memory keep the full variant.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "gradcheck.h"
#include <cmath>
#include <vector>

static void axpy(int n, double a, const double *x, double *y) {
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}

[[grad]] double f(double x, double y) {
  double r = x * y;
  double s[2] = {x, y};
  axpy(2, 0.5, s, s); // differentiated memory: the full variant
  if (x > 0) {
    std::vector<std::vector<double>> t(2, std::vector<double>(3, 1.0));
    axpy(1, -1.0, &t[1][0], &t[0][0]);
    r += t[0][0];
  }
  return r * s[1] + s[0];
}
// The two calls use two variants of axpy's halves (it writes through y):
// with adjoints of a, x and y, and with none.
// DUMP: static void _grad_axpy_rev(int n, double a, double *d_a, double *d_x, double *d_y, ::grad::detail::stack &_stack);
// DUMP: static void _grad_axpy_rev_0(int n, double a, ::grad::detail::stack &_stack);
// DUMP: ::_grad_axpy_fwd(2, 0.5, s, s, _stack);
// DUMP: ::_grad_axpy_fwd_0(1, -1., &t[1][0], &t[0][0], _stack);

int main() {
  gradcheck::check_grad("f", f, f_pullback, 0.7, 1.3);
  // CHECK: ok f.d0
  // CHECK: ok f.d1
  gradcheck::check_grad("f-", f, f_pullback, -0.7, 1.3);
  // CHECK: ok f-.d0
  // CHECK: ok f-.d1
  return gradcheck::failures();
}
