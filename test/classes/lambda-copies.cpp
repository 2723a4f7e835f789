// Lambdas capturing by value (`[y]`, `[=]`): the closure holds the value
// the variable had where the lambda was made, while the derivative calls
// the lambda's lifted function with the variable as it is at the call. A
// variable assigned after the lambda is made and before a call gave a
// wrong derivative without a diagnostic (found by the generator mode
// lambdas: 79 failing checks in 6 of 8 seeds); it is now an error at the
// call, in reverse and forward mode. Assignments before the lambda, after
// the last call, or in the iteration that makes the lambda again, are fine.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | FileCheck %s --check-prefix=ERR --implicit-check-not=error:
#include "gradcheck.h"
#include <cmath>

[[grad]] double before(double x, double y) {
  y = y * x;
  auto f = [y](double u) { return u * y; };
  return f(x) + f(2 * x);
}

[[grad]] double after(double x, double y) {
  auto f = [=](double u) { return u * y + x; };
  double s = f(x);
  y = 3 * s;
  return s + y;
}

[[grad]] double perIteration(double x, double y) {
  double s = 0;
  for (int i = 0; i < 3; ++i) {
    auto f = [y](double u) { return std::sin(u * y); };
    s += f(x);
    y = y * 0.5 + s;
  }
  return s + y;
}

// A lambda writing a variable it captures by reference from its own
// parameter (`t = 0.5 * std::tanh(t + u)` called with `y`): the variable
// carries a derivative from the call on. Its call was taken for one that
// writes nothing (the write looked like one to a local of the lambda), so
// `t` had no derivative: d/dy 0 instead of 4.7e-6 (found by the generator,
// all,memory,forward,lambdas, seed 87508, with an early return after it).
[[grad]] double writesCapture(double x, double y) {
  double t = 5;
  auto f = [&](double u) { t = 0.5 * std::tanh(t + u); };
  f(y);
  f(0.5 * x);
  return t * x;
}
[[grad]] double writesThenReturns(double x, double y) {
  double t = 1;
  auto f = [&](double u) { t = 0.5 * std::tanh(t + u); };
  f(y);
  if (x > 5)
    return 0;
  return t * x;
}

// Forward mode: a lambda capturing a `const double *` parameter by
// reference (its lifted function's tangent for it was a `double *`: a clang
// error inside the generated code, found by the generator, all,lambdas,
// forward, seed 87411).
[[grad::forward]] double fwdptr(double x, const double *p) {
  [&] { x += 0.5 * std::tanh(p[1] * x); }();
  return x * p[0];
}

#ifdef ERRORS
// ERR: lambda-copies.cpp:[[@LINE+4]]:10: error: grad: cannot differentiate call of lambda 'f', which captures 'y' by value, assigned after the lambda is made (capture it by reference, or copy it into a local that the function does not assign) in 'between'
[[grad]] double between(double x, double y) {
  auto f = [y](double u) { return u * y; };
  y = 3 * x;
  return f(x) + y;
}
// A later iteration calls the closure made before the loop.
// ERR: lambda-copies.cpp:[[@LINE+5]]:10: error: grad: cannot differentiate call of lambda 'f', which captures 'y' by value, assigned after the lambda is made (capture it by reference, or copy it into a local that the function does not assign) in 'looped'
[[grad]] double looped(double x, double y) {
  auto f = [=](double u) { return u * y; };
  double s = 0;
  for (int i = 0; i < 3; ++i) {
    s += f(x);
    y += s;
  }
  return s;
}
// ERR: lambda-copies.cpp:[[@LINE+4]]:10: error: grad: cannot differentiate call of lambda 'f', which captures 'y' by value, assigned after the lambda is made (capture it by reference, or copy it into a local that the function does not assign) in 'forward'
[[grad::forward]] double forward(double x, double y) {
  auto f = [y](double u) { return u * y; };
  y = 3 * x;
  return f(x) + y;
}
#endif

int main() {
  using gradcheck::check_grad;
  check_grad("before", before, before_pullback, 0.7, 1.3);
  check_grad("after", after, after_pullback, 0.7, 1.3);
  check_grad("perIteration", perIteration, perIteration_pullback, 0.7, 1.3);
  check_grad("writesCapture", writesCapture, writesCapture_pullback, 0.7, 1.3);
  check_grad("writesThenReturns", writesThenReturns,
             writesThenReturns_pullback, 0.7, 1.3);
  // CHECK: ok before.d0
  // CHECK-NEXT: ok before.d1
  // CHECK-NEXT: ok after.d0
  // CHECK-NEXT: ok after.d1
  // CHECK-NEXT: ok perIteration.d0
  // CHECK-NEXT: ok perIteration.d1
  // CHECK-NEXT: ok writesCapture.d0
  // CHECK-NEXT: ok writesCapture.d1
  // CHECK-NEXT: ok writesThenReturns.d0
  // CHECK-NEXT: ok writesThenReturns.d1
  // Closed form of `before`: 3 x^2 y -> 6 x y, 3 x^2.
  double dx = 0, dy = 0;
  before_pullback(0.7, 1.3, 1.0, &dx, &dy);
  gradcheck::expect("before.closed.x", dx, 6 * 0.7 * 1.3);
  gradcheck::expect("before.closed.y", dy, 3 * 0.7 * 0.7);
  // CHECK-NEXT: ok before.closed.x
  // CHECK-NEXT: ok before.closed.y
  {
    double p[2] = {1.3, 0.4}, tp[2] = {0.25, -0.5}, x = 0.7, tx = 1.0;
    grad::dual<double> R = fwdptr_pushforward(x, p, tx, tp);
    double h = 1e-6;
    auto F = [&](double s) {
      double q[2] = {p[0] + s * tp[0], p[1] + s * tp[1]};
      return fwdptr(x + s * tx, q);
    };
    gradcheck::expect("fwdptr.val", R.val, fwdptr(x, p));
    gradcheck::expect("fwdptr.der", R.der[0], (F(h) - F(-h)) / (2 * h));
  }
  // CHECK-NEXT: ok fwdptr.val
  // CHECK-NEXT: ok fwdptr.der
  return gradcheck::failures();
}
