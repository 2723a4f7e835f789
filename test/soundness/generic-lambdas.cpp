// Generic lambdas (`auto f = [](auto x) { return x * x; }`) called in a
// differentiated function: each call runs the specialization for its
// argument types, which is lifted and differentiated like any lambda (one
// derivative per specialization), in reverse and forward mode. Before
// (issue 49), the lambda's template pattern was lifted: an empty pullback
// (gradient 0), a crash in code generation when called twice.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "fwdcheck.h"
#include <cmath>

[[grad, grad::forward]] double once(double a, double b) {
  auto f = [](auto x) { return x * x; };
  return f(a) * b;
}

[[grad, grad::forward]] double twice(double a, double b) {
  auto f = [](auto x) { return x * std::sin(x); };
  return f(a) + f(2 * b);
}

// Two specializations: (double, int) and (double, double).
[[grad, grad::forward]] double mixed(double a, double b) {
  auto f = [](auto x, auto n) { return x * n; };
  return f(a, 3) + f(b, a);
}

[[grad, grad::forward]] double captures(double a, double b) {
  auto f = [&](auto x) { return x * b + a; };
  return f(a) * f(b);
}

int main() {
  fwdcheck::both("once", once, once_pullback, once_pushforward, 1.3, -0.7);
  // CHECK: ok once.d0
  // CHECK: ok once.fwd.x
  fwdcheck::both("twice", twice, twice_pullback, twice_pushforward, 1.3,
                 -0.7);
  // CHECK: ok twice.d1
  fwdcheck::both("mixed", mixed, mixed_pullback, mixed_pushforward, 1.3,
                 -0.7);
  // CHECK: ok mixed.d0
  fwdcheck::both("captures", captures, captures_pullback,
                 captures_pushforward, 1.3, -0.7);
  // CHECK: ok captures.fwd.y
  return gradcheck::failures();
}
