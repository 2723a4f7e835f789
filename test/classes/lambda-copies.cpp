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
  // CHECK: ok before.d0
  // CHECK-NEXT: ok before.d1
  // CHECK-NEXT: ok after.d0
  // CHECK-NEXT: ok after.d1
  // CHECK-NEXT: ok perIteration.d0
  // CHECK-NEXT: ok perIteration.d1
  // Closed form of `before`: 3 x^2 y -> 6 x y, 3 x^2.
  double dx = 0, dy = 0;
  before_pullback(0.7, 1.3, 1.0, &dx, &dy);
  gradcheck::expect("before.closed.x", dx, 6 * 0.7 * 1.3);
  gradcheck::expect("before.closed.y", dy, 3 * 0.7 * 0.7);
  // CHECK-NEXT: ok before.closed.x
  // CHECK-NEXT: ok before.closed.y
  return gradcheck::failures();
}
