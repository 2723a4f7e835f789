// Checks: a call to a helper that returns a status code (int) and delivers
// its result through a pointer parameter is refused at the call, in reverse
// and forward mode, whether the status is ignored, cast to void or tested.
// Found in CppAD (LU factor/solve/invert and conjugate gradient utilities
// return int or size_t), ADOL-C (fixed-point and MINPACK-style examples) and
// Ceres Solver (cost functors return bool); 6 functions of the corpus stop
// here directly. The same helper returning void differentiates (reverse and
// forward against finite differences).
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | %FileCheck-strict %s --check-prefix=ERR
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>

#ifdef ERRORS
int cubeStatus(const double *x, double *y) {
  y[0] = x[0] * x[0] * x[0];
  return 0;
}
// ERR: status-return-outputs.cpp:[[@LINE+3]]:3: error: grad: cannot differentiate call to 'cubeStatus' (return type 'int' is not differentiable) in 'ignored'
[[grad]] double ignored(double x) {
  double y;
  cubeStatus(&x, &y);
  return y;
}
// ERR: status-return-outputs.cpp:[[@LINE+3]]:9: error: grad: cannot differentiate call to 'cubeStatus' (return type 'int' is not differentiable) in 'voided'
[[grad]] double voided(double x) {
  double y;
  (void)cubeStatus(&x, &y);
  return y;
}
// ERR: status-return-outputs.cpp:[[@LINE+3]]:11: error: grad: cannot differentiate call to 'cubeStatus' (return type 'int' is not differentiable) in 'tested'
[[grad]] double tested(double x) {
  double y;
  int s = cubeStatus(&x, &y);
  return s == 0 ? y : 0.0;
}
// ERR: status-return-outputs.cpp:[[@LINE+3]]:3: error: grad: cannot differentiate call to 'cubeStatus' (the return type 'int' has no pushforward (a floating scalar or void is needed)) in 'ignoredF' in forward mode
[[grad::forward]] double ignoredF(double x) {
  double y;
  cubeStatus(&x, &y);
  return y;
}
#endif

void cube(const double *x, double *y) { y[0] = x[0] * x[0] * x[0]; }
[[grad, grad::forward]] double plain(double x) {
  double y;
  cube(&x, &y);
  return y * std::exp(-x);
}

int main() {
  for (double x : {0.5, 2.0}) {
    double dx = 0;
    plain_pullback(x, 1.0, &dx);
    gradcheck::expect("rev", dx, gradcheck::fd(plain, 0, x));
    gradcheck::expect("fwd", plain_pushforward(x, 1.0).der[0],
                      gradcheck::fd(plain, 0, x));
  }
  // CHECK-COUNT-2: ok fwd
  return gradcheck::failures();
}
