// Checks: a function declared inside another function's body (C style,
// `double helper(double);` before its use) is refused as a local
// declaration, in reverse and forward mode, at the declaration. Found in
// the Numerical Recipes routines vendored by radproc (Bessel, gamma and
// Laguerre functions declare what they call this way); 12 functions of the
// corpus stop here. The same code with the declaration at namespace scope
// differentiates: checked against finite differences in both modes.
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | %FileCheck-strict %s --check-prefix=ERR
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>

double damped(double x) { return std::exp(-0.5 * x) * std::cos(x); }

#ifdef ERRORS
double series(double x) {
  // ERR: block-scope-function-declaration.cpp:[[@LINE+2]]:3: error: grad: cannot differentiate local declaration in 'series'
  // ERR: block-scope-function-declaration.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate local declaration in 'series' in forward mode
  double damped(double);
  return x * damped(x) + damped(2 * x);
}
[[grad]] double rev(double x) { return series(x); }
[[grad::forward]] double fwd(double x) { return series(x); }
#endif

// The declaration moved out of the body (here: the one at namespace scope).
double seriesFixed(double x) { return x * damped(x) + damped(2 * x); }
[[grad, grad::forward]] double fixed(double x) { return seriesFixed(x); }

int main() {
  for (double x : {0.3, 1.7}) {
    double dx = 0;
    fixed_pullback(x, 1.0, &dx);
    gradcheck::expect("rev", dx, gradcheck::fd(fixed, 0, x));
    gradcheck::expect("fwd", fixed_pushforward(x, 1.0).der[0],
                      gradcheck::fd(fixed, 0, x));
  }
  // CHECK: ok rev
  // CHECK: ok fwd
  // CHECK: ok rev
  // CHECK: ok fwd
  return gradcheck::failures();
}
