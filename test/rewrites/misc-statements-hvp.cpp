// Two suggested rewrites, each checked against finite differences: an
// assignment whose right operand reads what its left operand changes,
// written as two statements as the message says; and a Hessian-vector
// product of a function whose parameter may be written, made const.
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | %FileCheck-strict %s --check-prefix=ERR
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>
#include <grad/grad.h>

#ifdef ERRORS
// ADVICE: (C++ evaluates the right operand first: use two statements)
[[grad]] double accumulate(double y, double z) {
  // ERR: misc-statements-hvp.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate assignment whose right operand reads 'z', which its left operand changes (C++ evaluates the right operand first: use two statements) in 'accumulate'
  (z += z) += (y + z);
  return z * y;
}
// ERR: misc-statements-hvp.cpp:[[@LINE-5]]:3: note: while differentiating 'accumulate' requested here
// ADVICE: (Hessian-vector products need read-only parameters: make it const)
// ERR: misc-statements-hvp.cpp:[[@LINE+1]]:3: error: grad: cannot declare the pushforward of 'energy': parameter 'x' may be written (Hessian-vector products need read-only parameters: make it const)
[[grad::hessian]] double energy(double &x, double k) { return k * x * x * x; }
#else
// The right operand first (it reads the old z), then the left one.
[[grad]] double accumulate(double y, double z) {
  double rhs = y + z;
  z += z;
  z += rhs;
  return z * y;
}
[[grad::hessian]] double energy(const double &x, double k) {
  return k * x * x * x;
}
#endif

int main() {
#ifndef ERRORS
  gradcheck::check_grad("accumulate", accumulate, accumulate_pullback, 0.7,
                        -1.3);
  // CHECK: ok accumulate.d0
  // CHECK: ok accumulate.d1
  // The Hessian of k x^3 is [[6 k x, 3 x^2], [3 x^2, 0]].
  double x = 0.9, k = 1.7, vx = 0.4, vk = -0.6, dx = 0, dk = 0;
  energy_hvp(x, k, vx, vk, &dx, &dk);
  gradcheck::expect("energy.hvp.x", dx, 6 * k * x * vx + 3 * x * x * vk);
  gradcheck::expect("energy.hvp.k", dk, 3 * x * x * vx);
  // CHECK: ok energy.hvp.x
  // CHECK: ok energy.hvp.k
#endif
  return gradcheck::failures();
}
