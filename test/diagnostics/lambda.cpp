// What is refused about lambdas called in a [[grad]] function names the
// lambda and the construct, at the construct; [[grad]] written on a lambda
// says what to write instead.
// RUN: not %gradxx -fsyntax-only -Wno-c++23-lambda-attributes %s 2>&1 | %FileCheck-strict %s
#include <algorithm>

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
// CHECK: lambda.cpp:[[@LINE+4]]:31: error: grad: cannot differentiate lambda passed to 'transform' (call it in this function instead) in 'mapped'
// CHECK: lambda.cpp:[[@LINE+1]]:3: note: while differentiating 'mapped' requested here
[[grad]] double mapped(double x, double y) {
  double a[2] = {x, y}, b[2];
  std::transform(a, a + 2, b, [](double v) { return v * v; });
  return b[0] * b[1];
}
