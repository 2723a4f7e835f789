// Checks: a function-local `static` table of coefficients that is not
// const is refused at its declaration in reverse and forward mode (it could
// be written between calls); declared `static const` the same table is read
// as a constant and the function differentiates. Found in the Numerical
// Recipes log-gamma routine vendored by radproc and in CppAD's Runge-Kutta
// (Fehlberg 4/5) integrator, whose Butcher tableau is static. The const form
// is checked against finite differences in both modes.
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | %FileCheck-strict %s --check-prefix=ERR
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>

#ifdef ERRORS
double rational(double x) {
  // ERR: static-coefficient-table.cpp:[[@LINE+2]]:3: error: grad: cannot differentiate static local variable 'coef' in 'rational'
  // ERR: static-coefficient-table.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate 'static' local 'coef' in 'rational' in forward mode
  static double coef[4] = {2.5, -1.25, 0.5, 0.125};
  double s = 1;
  for (int j = 0; j < 4; ++j)
    s += coef[j] / (x + j + 1);
  return std::log(s);
}
[[grad]] double rev(double x) { return rational(x); }
[[grad::forward]] double fwd(double x) { return rational(x); }
#endif

double rationalConst(double x) {
  static const double coef[4] = {2.5, -1.25, 0.5, 0.125};
  double s = 1;
  for (int j = 0; j < 4; ++j)
    s += coef[j] / (x + j + 1);
  return std::log(s);
}
[[grad, grad::forward]] double constant(double x) { return rationalConst(x); }

int main() {
  for (double x : {0.4, 2.5}) {
    double dx = 0;
    constant_pullback(x, 1.0, &dx);
    gradcheck::expect("rev", dx, gradcheck::fd(constant, 0, x));
    gradcheck::expect("fwd", constant_pushforward(x, 1.0).der[0],
                      gradcheck::fd(constant, 0, x));
  }
  // CHECK-COUNT-2: ok fwd
  return gradcheck::failures();
}
