// Checks: a local array of std::complex<double> is refused in reverse mode
// at its declaration. Found in CoDiPack's complex-number expression tests
// (arrays of complex values built from the inputs); with the same data in
// separate complex locals the function differentiates (reverse against
// finite differences).
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | %FileCheck-strict %s --check-prefix=ERR
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <complex>

#ifdef ERRORS
// ERR: complex-local-array.cpp:[[@LINE+2]]:24: error: grad: cannot differentiate local variable of type 'std::complex<double>[2]' in 'pair'
[[grad]] double pair(double x, double y) {
  std::complex<double> z[2] = {{x, 1.0}, {y, x}};
  return std::abs(z[0] * z[1]);
}
#endif

[[grad]] double separate(double x, double y) {
  std::complex<double> z0{x, 1.0}, z1{y, x};
  return std::abs(z0 * z1);
}

int main() {
  gradcheck::check_grad("separate", separate, separate_pullback, 0.6, -1.4);
  // CHECK: ok separate.d0
  // CHECK: ok separate.d1
  return gradcheck::failures();
}
