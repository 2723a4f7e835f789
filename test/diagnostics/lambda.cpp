// What is refused about lambdas called in a [[grad]] function names the
// lambda and the construct, at the construct; [[grad]] written on a lambda
// says what to write instead.
// RUN: not %gradxx -fsyntax-only -Wno-c++23-lambda-attributes %s 2>&1 | %FileCheck-strict %s
#include <algorithm>
#include <cmath>

// CHECK: lambda.cpp:[[@LINE+1]]:17: error: grad: 'grad' attribute on a lambda: a lambda has no name to declare its pullback with; write a named function ('{{\[\[}}grad{{\]\]}} double f(...)') and call it, or call the lambda inside a {{\[\[}}grad{{\]\]}} function, which differentiates it there
auto bad = [] [[grad]] (double a) { return a * a; };

// CHECK: lambda.cpp:[[@LINE+3]]:12: error: grad: cannot differentiate mutable lambda in 'counter'
// CHECK: lambda.cpp:[[@LINE+1]]:3: note: while differentiating 'counter' requested here
[[grad]] double counter(double x) {
  auto f = [k = 0.0](double y) mutable { k += y; return k * y; };
  return f(x) + f(x);
}

struct Model {
  double w = 2;
  void bump() { w += 1; }
  // CHECK: lambda.cpp:[[@LINE+3]]:14: error: grad: cannot differentiate lambda capturing 'this' that calls non-const member function 'bump' of 'this' in 'eval'
  // CHECK: lambda.cpp:[[@LINE+1]]:5: note: while differentiating 'eval' requested here
  [[grad]] double eval(double x) {
    auto f = [this](double y) { bump(); return w * y; };
    return f(x);
  }
};

// A lambda handed to a library algorithm: one error at the lambda, before
// the algorithm is differentiated (before, clang also reported inside
// stl_algo.h that a closure cannot be assigned, from generated code).
// (Lambdas passed to the user's function templates are differentiated:
// test/calls/lambdas-passed.cpp.)
// (std::transform, std::sort and the other algorithms that only call their
// callable are differentiated: test/calls/algorithms-callables.cpp.)
// CHECK: lambda.cpp:[[@LINE+4]]:37: error: grad: cannot differentiate lambda passed to 'nth_element' (write the loop) in 'mapped'
// CHECK: lambda.cpp:[[@LINE+1]]:3: note: while differentiating 'mapped' requested here
[[grad]] double mapped(double x, double y) {
  double a[3] = {x, y * y, x * y};
  std::nth_element(a, a + 1, a + 3, [](double u, double v) { return u > v; });
  return a[1] * std::sin(a[0]);
}

// Passed to a member function template, or capturing 'this': refused with
// the reason, at the lambda.
struct Integrator {
  int n = 4;
  template <class F> double run(F f, double b) const {
    double s = 0;
    for (int i = 0; i < n; ++i)
      s += f(b * i / n);
    return s * b / n;
  }
};
template <class F> double once(F f, double x) { return f(x); }
// CHECK: lambda.cpp:[[@LINE+4]]:17: error: grad: cannot differentiate lambda passed to 'run' (a member function: lambdas are differentiated when passed to free functions) in 'viaMember'
// CHECK: lambda.cpp:[[@LINE+1]]:3: note: while differentiating 'viaMember' requested here
[[grad]] double viaMember(double x) {
  Integrator in;
  return in.run([x](double t) { return x * t; }, 1.0);
}
struct Scaled {
  double w = 2;
  // CHECK: lambda.cpp:[[@LINE+3]]:17: error: grad: cannot differentiate lambda passed to 'once' (it captures 'this') in 'eval'
  // CHECK: lambda.cpp:[[@LINE+1]]:5: note: while differentiating 'eval' requested here
  [[grad]] double eval(double x) {
    return once([this](double y) { return w * y; }, x);
  }
};
