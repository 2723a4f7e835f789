// Three suggested rewrites, each checked against finite differences: an
// assignment whose right operand reads what its left operand changes,
// written as two statements as the message says; a Hessian-vector product
// of a function whose parameter may be written, made const; and a method's
// reference argument with a side effect, the side effect moved out.
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | %FileCheck-strict %s --check-prefix=ERR
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>
#include <grad/grad.h>

struct Acc {
  double k;
  void step(double &x) { k *= x; x *= 2; }
};

#ifdef ERRORS
// ADVICE: (write the side effect as a statement of its own)
[[grad]] double walk(double a, double b) {
  Acc s{a};
  double v[2] = {a, b};
  int i = 0;
  // ERR: misc-statements-hvp.cpp:[[@LINE+1]]:10: error: grad: cannot differentiate argument 'v[i++]' with side effects for the reference parameter 'x' of 'step' (write the side effect as a statement of its own) in 'walk'
  s.step(v[i++]);
  return v[0] * v[1] + s.k;
}
// ERR: misc-statements-hvp.cpp:[[@LINE-8]]:3: note: while differentiating 'walk' requested here
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
[[grad]] double walk(double a, double b) {
  Acc s{a};
  double v[2] = {a, b};
  int i = 0;
  s.step(v[i]);
  ++i;
  return v[0] * v[1] + s.k;
}
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
  gradcheck::check_grad("walk", walk, walk_pullback, 0.8, 1.9);
  // CHECK: ok walk.d0
  // CHECK: ok walk.d1
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
