// A local pointer passed to a helper and re-seated to another variable
// afterwards (found by the fuzz memory mode): the call's value depends on
// what the pointer pointed to at the call (the call was taken as constant).
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "vecgrad.h"

static double sq1(const double *a) { return a[0] * a[0]; }

[[grad]] double f(const double *p, double x) {
  const double *w = p;
  double t = sq1(w); // t = p[0]^2
  w = &x;            // re-seated after the call
  return t + sq1(w) * p[0];
}

int main() {
  std::vector<double> X{3.0, 0.5};
  double Dp = 0, Dx = 0;
  f_pullback(X.data(), X[1], 1.0, &Dp, &Dx);
  // CHECK: ok f.d0
  // CHECK: ok f.d1
  vecgrad::check("f", [](const std::vector<double> &Y) {
    return f(Y.data(), Y[1]);
  }, X, {Dp, Dx});
  return gradcheck::failures();
}
