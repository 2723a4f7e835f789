// grad::map and grad::broadcast are lowered in reverse mode only: in a
// pushforward, and in a Hessian-vector product (the pushforward of the
// pullback), each call is one error at the call, named as written, never
// an error about the runtime calls of the generated pullback. Reverse mode
// ([[grad]]) of the same functions compiles.
// RUN: not %gradxx -I%S/Inputs -fsyntax-only %s 2>&1 | %FileCheck-strict %s --implicit-check-not=error: --implicit-check-not=note:
#include <grad/grad.h>

#include <cmath>
#include <vector>

using V = std::vector<double>;

// CHECK: error-forward-hvp.cpp:[[@LINE+3]]:20: error: grad: cannot differentiate call to 'grad::map' (map and broadcast are lowered in reverse mode only: write the loop) in 'pushed' in forward mode
// CHECK: error-forward-hvp.cpp:[[@LINE+1]]:3: note: while differentiating 'pushed' requested here
[[grad::forward]] double pushed(const V &x, double s) {
  return grad::sum(grad::map([](double z) { return std::tanh(z); }, x)) * s;
}

// CHECK: error-forward-hvp.cpp:[[@LINE+3]]:20: error: grad: cannot build the Hessian-vector product of 'hessian': call to 'grad::broadcast' (map and broadcast are lowered in reverse mode only: write the loop) (in its pullback) has no forward-mode derivative
// CHECK: error-forward-hvp.cpp:[[@LINE+1]]:3: note: while differentiating 'hessian' requested here
[[grad::hessian]] double hessian(const V &x, double s) {
  return grad::sum(grad::broadcast([](double z, double t) { return z * t; }, x, s));
}

// Through a helper: the error is at the helper's call of grad::map, the
// note at the function whose Hessian-vector product was asked for.
static double helper(const V &x) {
  return grad::sum(grad::map([](double z) { return z * z; }, x));
}
// CHECK: error-forward-hvp.cpp:[[@LINE-2]]:20: error: grad: cannot build the Hessian-vector product of 'through': call to 'grad::map' (map and broadcast are lowered in reverse mode only: write the loop) (in its pullback) has no forward-mode derivative
// CHECK: error-forward-hvp.cpp:[[@LINE+1]]:3: note: while differentiating 'through' requested here
[[grad::hessian]] double through(const V &x, double s) {
  return s * helper(x);
}

[[grad]] double reverse(const V &x, double s) {
  return grad::sum(grad::map([](double z) { return std::tanh(z); }, x)) * s +
         helper(x);
}
