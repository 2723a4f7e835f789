// The pullback suggested by no-body.cpp, pasted as written and defined by
// the user, makes the program compile, and its rule is the one used. The
// primal is defined in a second translation unit.
// RUN: rm -rf %t && split-file %s %t
// RUN: %gradxx -c %t/main.cpp -o %t/main.o 2>&1 | %FileCheck-strict %s --allow-empty --check-prefix=COMPILE
// RUN: %cxx -c %t/smooth.cpp -o %t/smooth.o
// RUN: %cxx %t/main.o %t/smooth.o -o %t/a.out
// RUN: %t/a.out | %FileCheck-strict %s --implicit-check-not=FAIL
// COMPILE-NOT: {{.}}

//--- main.cpp
#include "gradcheck.h"
#include <cmath>

double smooth(double t, double k);
void smooth_pullback(double t, double k, double d_ret, double *d_t, double *d_k) {
  // smooth(t, k) = t * t * k
  *d_t += 2 * t * k * d_ret;
  *d_k += t * t * d_ret;
}
[[grad]] double f(double x) {
  return smooth(x, 2 * x) * x;
}

int main() {
  // f(x) = 2x^4: f'(x) = 8x^3.
  double dx = 0;
  f_pullback(1.5, 1.0, &dx);
  // CHECK: ok f.dx
  gradcheck::expect("f.dx", dx, 8 * 1.5 * 1.5 * 1.5);
  // CHECK: ok f.fd
  gradcheck::expect("f.fd", dx, gradcheck::fd(f, 0, 1.5));
  return gradcheck::failures();
}

//--- smooth.cpp
double smooth(double t, double k) { return t * t * k; }
