// A pointer loaded from memory (`double *a = *pp;`) in a helper whose
// derivative is split in two halves (it writes memory its caller reads
// later): the shadow is loaded from the shadow memory, which the forward
// half does not take, so the reverse half loads it first. That needs the
// load to read parameters only, outside loops; otherwise it is refused with
// the rewrite. Before (issue 49), the forward half read a parameter it does
// not have (a run-time crash of the random ptrptr programs).
// RUN: not %gradxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %gradxx -DFIXED %s -o %t && %t | FileCheck %s --check-prefix=OK
#include "gradcheck.h"

// Accepted: loads of parameters outside loops (f below).
static void pscale(double **pp, double s) {
  double *a = *pp;
  a[0] *= s;
  a[1] += s * a[0];
}

#ifndef FIXED
static void rows(double **m, int n, double s) {
  for (int i = 0; i < n; ++i) {
    // CHECK: loaded-pointer-split.cpp:[[@LINE+1]]:13: error: grad: cannot differentiate pointer 'row' loaded from memory in a function differentiated in two halves (it writes memory its caller reads later), in a loop or through a local index: pass the pointer itself, 'double *row' as a parameter in 'rows'
    double *row = m[i];
    row[0] *= s;
  }
}

[[grad]] double g(double **m, double s) {
  rows(m, 2, s);
  return m[0][0] * m[1][0];
}
#endif

[[grad]] double f(double x) {
  double r[3] = {x, x * x, 2 * x};
  {
    double *w = &r[1];
    pscale(&w, x);
  }
  return r[1] + r[2] * r[0];
}

int main() {
  gradcheck::check_grad("f", f, f_pullback, 0.7);
  // OK: ok f.d0
  return gradcheck::failures();
}
