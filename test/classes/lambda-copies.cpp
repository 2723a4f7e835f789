// Lambdas capturing by value (`[y]`, `[=]`): the closure holds the value
// the variable had where the lambda was made. The derivative used to call
// the lambda's lifted function with the variable as it is at the call: a
// variable assigned after the lambda and before a call gave a wrong
// derivative without a diagnostic (found by the generator mode lambdas: 79
// failing checks in 6 of 8 seeds), then an error, which missed changes made
// through a pointer, a reference, another lambda or a member (`p.a = 3 * x`
// on a struct captured by value: again wrong derivatives). The derivative
// now keeps its own copy of each such capture made at the lambda (an
// object of the capture's type, with its adjoint sent back there), in
// reverse and forward mode, also for lambdas made in loops.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined -fno-sanitize-recover=all -g %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | FileCheck %s --check-prefix=ERR --implicit-check-not=error:
// RUN: %dump %s --function=between %dflags | FileCheck %s --check-prefix=DUMP
#include "gradcheck.h"
#include <cmath>
#include <vector>

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

// Assigned after the lambda, before the call: the call reads the copy.
// DUMP-LABEL: void between_pullback(
// DUMP:         double y_at_f0 = y;
// DUMP-NEXT:    y = 3 * x;
// DUMP:         ::_grad_lambda_{{[0-9]+}}_pullback(x, {{.*}}, &_g1);
// DUMP-NEXT:    _d_y_at_f0 += _g1;
// DUMP:         _d_y += _d_y_at_f0;
[[grad]] double between(double x, double y) {
  auto f = [y](double u) { return u * y; };
  y = 3 * x;
  return f(x) + y;
}
// A later iteration calls the closure made before the loop.
[[grad]] double looped(double x, double y) {
  auto f = [=](double u) { return u * y + std::sin(x * y); };
  double s = 0;
  for (int i = 0; i < 3; ++i) {
    s += f(x);
    y += s;
  }
  return s + y;
}
// Made in a loop, changed before the call in the same iteration.
[[grad]] double inLoop(double x, double y) {
  double s = 0;
  for (int i = 0; i < 3; ++i) {
    auto g = [y, s](double u) { return std::sin(u * y) + s * u; };
    y = y * 0.5 + x;
    s = s + g(y) * y;
    y -= 0.1 * s;
  }
  return s + y;
}
// Changed through a pointer, a reference and another lambda, and a struct
// captured by value whose member is assigned.
[[grad]] double viaPointer(double x, double y) {
  double *py = &y;
  auto f = [y](double u) { return u * y; };
  *py = 3 * x;
  return f(x) + y;
}
[[grad]] double viaReference(double x, double y) {
  double &ry = y;
  auto f = [y](double u) { return u * y; };
  ry = 3 * x;
  return f(x) + y;
}
[[grad]] double viaLambda(double x, double y) {
  auto g = [&y](double v) { y = v; };
  auto f = [y](double u) { return u * y; };
  g(3 * x);
  return f(x) + y;
}
struct PA { double a, b; };
[[grad]] double member(double x, double y) {
  PA p{y, x};
  auto f = [p](double u) { return u * p.a + p.b; };
  p.a = 3 * x;
  return f(x) * p.a;
}
[[grad]] double vec(double x, double y) {
  std::vector<double> v{x, y, x * y};
  auto f = [v](double u) { return u * v[1] + v[2]; };
  v[1] = 3 * x;
  double s = f(y);
  v[2] = s;
  return f(x) * v[1] + s;
}
// Forward mode, the same.
[[grad::forward]] double fbetween(double x, double y) {
  auto f = [y](double u) { return u * y; };
  y = 3 * x;
  return f(x) + y;
}
[[grad::forward]] double fmember(double x, double y) {
  PA p{y, x};
  auto f = [p](double u) { return u * p.a + p.b; };
  p.a = 3 * x;
  return f(x) * p.a;
}
[[grad::forward]] double fviaLambda(double x, double y) {
  auto g = [&y](double v) { y = v; };
  auto f = [y](double u) { return u * y; };
  g(3 * x);
  return f(x) + y;
}

#ifdef ERRORS
// An array captured by value: the lifted function would take a pointer.
// ERR: lambda-copies.cpp:[[@LINE+4]]:10: error: grad: cannot differentiate call of lambda 'f', which captures the array 'a' by value (capture it by reference) in 'array'
[[grad]] double array(double x, double y) {
  double a[2] = {x, y};
  auto f = [a](double u) { return u * a[1]; };
  return f(x) + a[1];
}
// ERR: lambda-copies.cpp:[[@LINE+4]]:10: error: grad: cannot differentiate call of lambda 'f', which captures the array 'a' by value (capture it by reference) in 'farray' in forward mode
[[grad::forward]] double farray(double x, double y) {
  double a[2] = {x, y};
  auto f = [a](double u) { return u * a[1]; };
  return f(x) + a[1];
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
  check_grad("between", between, between_pullback, 0.7, 1.3);
  check_grad("looped", looped, looped_pullback, 0.7, 1.3);
  check_grad("inLoop", inLoop, inLoop_pullback, 0.7, 1.3);
  check_grad("viaPointer", viaPointer, viaPointer_pullback, 0.7, 1.3);
  check_grad("viaReference", viaReference, viaReference_pullback, 0.7, 1.3);
  check_grad("viaLambda", viaLambda, viaLambda_pullback, 0.7, 1.3);
  check_grad("member", member, member_pullback, 0.7, 1.3);
  check_grad("vec", vec, vec_pullback, 0.7, 1.3);
  // CHECK-NEXT: ok between.d0
  // CHECK-NEXT: ok between.d1
  // CHECK-NEXT: ok looped.d0
  // CHECK-NEXT: ok looped.d1
  // CHECK-NEXT: ok inLoop.d0
  // CHECK-NEXT: ok inLoop.d1
  // CHECK-NEXT: ok viaPointer.d0
  // CHECK-NEXT: ok viaPointer.d1
  // CHECK-NEXT: ok viaReference.d0
  // CHECK-NEXT: ok viaReference.d1
  // CHECK-NEXT: ok viaLambda.d0
  // CHECK-NEXT: ok viaLambda.d1
  // CHECK-NEXT: ok member.d0
  // CHECK-NEXT: ok member.d1
  // CHECK-NEXT: ok vec.d0
  // CHECK-NEXT: ok vec.d1
  // Closed form of `between`: x y + 3 x (y as it was) -> (y + 3, x).
  {
    double dx = 0, dy = 0;
    between_pullback(0.7, 1.3, 1.0, &dx, &dy);
    gradcheck::expect("between.closed.x", dx, 1.3 + 3);
    gradcheck::expect("between.closed.y", dy, 0.7);
  }
  // CHECK-NEXT: ok between.closed.x
  // CHECK-NEXT: ok between.closed.y
  {
    // Forward mode against central differences of the reverse-mode
    // functions of the same body (checked above).
    double h = 1e-6;
    for (int k = 0; k < 2; ++k) {
      double tx = k == 0, ty = k == 1;
      auto fd = [&](double (*F)(double, double)) {
        return (F(0.7 + h * tx, 1.3 + h * ty) - F(0.7 - h * tx, 1.3 - h * ty)) /
               (2 * h);
      };
      gradcheck::expect("fbetween", fbetween_pushforward(0.7, 1.3, tx, ty).der[0],
                        fd(between));
      gradcheck::expect("fmember", fmember_pushforward(0.7, 1.3, tx, ty).der[0],
                        fd(member));
      gradcheck::expect("fviaLambda",
                        fviaLambda_pushforward(0.7, 1.3, tx, ty).der[0],
                        fd(viaLambda));
    }
  }
  // CHECK-NEXT: ok fbetween
  // CHECK-NEXT: ok fmember
  // CHECK-NEXT: ok fviaLambda
  // CHECK-NEXT: ok fbetween
  // CHECK-NEXT: ok fmember
  // CHECK-NEXT: ok fviaLambda
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
