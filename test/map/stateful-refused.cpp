// A callable passed to grad::map that changes what it captures is reversed
// by restoring, element by element, the values it changes from a tape of
// numbers (stateful-accumulator.cpp). State that is not a floating-point
// number (a counter, a vector, an array) would be seen with its final value
// by every element: those calls are errors at the callable, all in one
// compile (they gave d/dx = 0 and wrong values before), and the same map
// without a derivative (a constant input) compiles.
// RUN: not %gradxx -I%S/Inputs -fsyntax-only %s 2>&1 | %FileCheck-strict %s --check-prefix=ERR
// RUN: %gradxx -I%S/Inputs -DONLY_OK %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "mapcheck.h"

#include <cmath>
#include <vector>

using V = std::vector<double>;

#ifndef ONLY_OK
// ERR: stateful-refused.cpp:[[@LINE+3]]:30: error: grad: cannot differentiate callable passed to 'grad::map' that changes 'k', of type 'int' (the reverse sweep restores only the floating-point numbers a callable changes, element by element: write this loop in the function) in 'counter'
[[grad]] double counter(const V &x, const V &w) {
  int k = 0;
  return grad::sum(grad::map([&](double z) { double r = z * w[k]; k = k + 1; return r * r; }, x));
}

// ERR: stateful-refused.cpp:[[@LINE+3]]:34: error: grad: cannot differentiate callable passed to 'grad::map' that changes 'acc', of type 'V' (the reverse sweep restores only the floating-point numbers a callable changes, element by element: write this loop in the function) in 'vec'
[[grad]] double vec(const V &x, const V &a0) {
  V acc = a0;
  double s = grad::sum(grad::map([&](double z) { acc[0] = acc[0] * 0.5 + z; return acc[0] * z; }, x));
  return s + acc[0] * acc[0] + acc[1];
}

// ERR: stateful-refused.cpp:[[@LINE+3]]:30: error: grad: cannot differentiate callable passed to 'grad::map' that changes 'a', of type 'double[2]' (the reverse sweep restores only the floating-point numbers a callable changes, element by element: write this loop in the function) in 'arr'
[[grad]] double arr(const V &x, double a0) {
  double a[2] = {a0, 2 * a0};
  return grad::sum(grad::map([&](double z) { a[1] += z; return a[1] * z; }, x)) + a[1];
}

#endif

// Without a derivative through the map (w is constant) the counter is fine.
[[grad("y")]] double inactive(const V &w, double y) {
  int k = 0;
  return y * grad::sum(grad::map([&](double z) { double r = z * w[k]; k = k + 1; return r; }, w));
}

// A floating-point capture changed: replayed, and checked against finite
// differences.
[[grad]] double scalar(const V &x, double a0) {
  double acc = a0;
  double s = grad::sum(grad::map([&](double z) { acc = acc * 0.5 + z; return acc * z; }, x));
  return s + acc * acc;
}

// The same with a captured vector read at a fixed index (its adjoint goes
// straight to d_y: no local copy for a stateful callable).
[[grad]] double scalar_vec(const V &x, const V &y) {
  double acc = y[1];
  double s = grad::sum(grad::map([&](double z) { acc = acc * y[0] + z; return acc * z; }, x));
  return s + acc * acc;
}

int main() {
  const V x{0.3, -1.2, 2.5, 0.7};
  V dx(4);
  double da = 0;
  scalar_pullback(x, 0.4, 1.0, &dx, &da);
  // CHECK: ok scalar.x[3]
  mapcheck::check_elems("scalar.x", [](const V &v) { return scalar(v, 0.4); }, x, dx);
  // CHECK: ok scalar.a
  mapcheck::check_elems("scalar.a", [&](double a) { return scalar(x, a); }, 0.4, da);
  const V y{0.6, -0.3};
  V ex(4), ey(2, 0.0);
  scalar_vec_pullback(x, y, 1.0, &ex, &ey);
  // CHECK: ok scalar_vec.x[3]
  mapcheck::check_elems("scalar_vec.x", [&](const V &v) { return scalar_vec(v, y); }, x, ex);
  // CHECK: ok scalar_vec.y[1]
  mapcheck::check_elems("scalar_vec.y", [&](const V &v) { return scalar_vec(x, v); }, y, ey);
  const V w{0.5, -1.5, 2.0};
  double dy = 0;
  inactive_pullback(w, 0.7, 1.0, &dy);
  // CHECK: ok inactive.y
  gradcheck::expect("inactive.y", dy, 0.25 + 2.25 + 4.0);
  return gradcheck::failures();
}
