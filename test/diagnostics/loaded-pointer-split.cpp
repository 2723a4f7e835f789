// A pointer loaded from memory (`double *a = *pp;`) in a helper whose
// derivative is split in two halves (it writes memory its caller reads
// later): the shadow is loaded from the shadow memory, which the forward
// half does not take. Before (issue 49), the forward half read a parameter
// it does not have (a run-time crash of the random ptrptr programs).
// RUN: not %gradxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %gradxx -DFIXED %s -o %t && %t | FileCheck %s --check-prefix=OK
#include "gradcheck.h"

#ifndef FIXED
static void pscale(double **pp, double s) {
  // CHECK: loaded-pointer-split.cpp:[[@LINE+1]]:11: error: grad: cannot differentiate pointer 'a' loaded from memory in a function differentiated in two halves (it writes memory its caller reads later): pass the pointer itself, 'double *a' as a parameter in 'pscale'
  double *a = *pp;
  a[0] *= s;
  a[1] += s * a[0];
}
#else
static void pscale(double *a, double s) {
  a[0] *= s;
  a[1] += s * a[0];
}
#endif

[[grad]] double f(double x) {
  double r[3] = {x, x * x, 2 * x};
  {
    double *w = &r[1];
#ifndef FIXED
    pscale(&w, x);
#else
    pscale(w, x);
#endif
  }
  return r[1] + r[2] * r[0];
}

int main() {
  gradcheck::check_grad("f", f, f_pullback, 0.7);
  // OK: ok f.d0
  return gradcheck::failures();
}
