// Partials at the points where a rule divides by something that is 0
// there: hypot(0, 0), atan2(0, 0) and |z| of a complex zero have partials 0 (like fabs at 0, pow's exponent
// at a = 0), so a zero adjoint gives a zero gradient, not 0 * NaN. Found by
// the random-program generator (seed 46405 of
// all,memory,complex,ctors,delegating,intmembers,structs,loops): a value
// multiplied by sin(0) and then fed to |z| in a helper whose result was
// never read made the gradient NaN where finite differences give 0.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s --function=cabs0 %dflags | FileCheck %s --check-prefix=DUMP
#include "gradcheck.h"
#include <cmath>
#include <complex>

// The value is zeroed (times sin(0)) and then goes through |z| and hypot
// whose results are dropped: the gradient is that of x * x.
[[grad]] double cabs0(double x, double y) {
  double z = x * y;
  z *= std::sin(x - x);
  std::complex<double> c(z, z * y);
  double unused = std::abs(c) + std::hypot(z, z) + std::atan2(z, z * y);
  (void)unused;
  return x * x + z;
}
// DUMP-LABEL: void cabs0_pullback(
// DUMP: / (_t{{[0-9]+}} > 0. ? _t{{[0-9]+}} : 1.)

// At a non-zero point the partials are the usual ones.
[[grad]] double cabs1(double x, double y) {
  std::complex<double> c(x, x * y);
  return std::abs(c) + std::hypot(x, y) + std::atan2(y, x);
}

int main() {
  double dx = 0, dy = 0;
  cabs0_pullback(0.7, 1.3, 1.0, &dx, &dy);
  gradcheck::expect("cabs0.dx", dx, 2 * 0.7, 1e-12);
  gradcheck::expect("cabs0.dy", dy, 0.0, 0, 0);
  // CHECK: ok cabs0.dx
  // CHECK: ok cabs0.dy
  gradcheck::check_grad("cabs1", cabs1, cabs1_pullback, 0.6, -1.3);
  // CHECK: ok cabs1.d0
  // CHECK: ok cabs1.d1
  double hx = 0, hy = 0;
  // hypot at the origin through a zero seed and through a unit one.
  cabs1_pullback(0.0, 0.0, 0.0, &hx, &hy);
  gradcheck::expect("origin.zero-seed", hx + hy, 0.0, 0, 0);
  // CHECK: ok origin.zero-seed
  return gradcheck::failures();
}
