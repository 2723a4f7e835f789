// A local std::function initialised with a lambda of its call signature and
// then only called is a name for the lambda: its calls are calls of the
// lifted lambda (was "local variable of type 'std::function<double
// (double)>' ... not trivially copyable"). Capture-free, capturing by
// reference and by value, two arguments, called in a loop, in reverse and
// forward mode; values against central differences. One assigned again, or
// with another signature, is an error naming it.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | FileCheck %s --check-prefix=ERR
#include "gradcheck.h"
#include <cmath>
#include <functional>
using namespace gradcheck;

[[grad]] double calls(double x, double k) {
  std::function<double(double)> f = [](double t) { return t * std::sin(t); };
  std::function<double(double, double)> g = [&](double a, double b) {
    return k * a * b + x;
  };
  return f(x) + f(2 * x) * g(x, k);
}

// A residual summed in a loop through a callback capturing by value.
[[grad]] double loop(const double *p, int n, double s) {
  const std::function<double(double)> r = [s](double v) {
    return std::tanh(v / s) - 0.5;
  };
  double acc = 0;
  for (int i = 0; i < n; ++i)
    acc += r(p[i]) * r(p[i]);
  return acc;
}

[[grad::forward]] double fwd(double x, double k) {
  std::function<double(double)> f = [k](double t) {
    return k * t * std::sin(t);
  };
  return f(x) * f(k);
}

#ifdef ERRORS
// ERR: std-function-locals.cpp:[[@LINE+2]]:33: error: grad: cannot differentiate local variable of type 'std::function<double (double)>' (a std::function is differentiated when it is initialised with a lambda of its call signature and then only called (not assigned, copied or passed on)) in 'reassigned'
[[grad]] double reassigned(double x) {
  std::function<double(double)> f = [](double t) { return t * t; };
  f = [](double t) { return std::sin(t); };
  return f(x);
}
// ERR: std-function-locals.cpp:[[@LINE+2]]:30: error: grad: cannot differentiate local variable of type 'std::function<double (int)>'
[[grad]] double narrowing(double x) {
  std::function<double(int)> f = [](double t) { return t * t; };
  return f(x);
}
#endif

int main() {
  for (double x : {0.7, -1.2})
    check_grad("calls", calls, calls_pullback, x, 1.3);
  // CHECK-COUNT-4: ok calls.d{{[01]}}
  const double p[4] = {0.3, -0.8, 1.4, 2.0};
  double dp[4] = {}, ds = 0;
  loop_pullback(p, 4, 1.5, 1.0, dp, &ds);
  for (int i = 0; i < 4; ++i) {
    auto G = [&](double t) {
      double q[4] = {p[0], p[1], p[2], p[3]};
      q[i] = t;
      return loop(q, 4, 1.5);
    };
    expect("loop.p" + std::to_string(i), dp[i], fd(G, 0, p[i]), 1e-8);
  }
  // CHECK-COUNT-4: ok loop.p{{[0-3]}}
  expect("loop.s", ds, fd([&](double s) { return loop(p, 4, s); }, 0, 1.5),
         1e-8);
  // CHECK: ok loop.s
  expect("fwd.x", fwd_pushforward(0.7, 1.3, 1.0, 0.0).der[0],
         fd(fwd, 0, 0.7, 1.3), 1e-8);
  expect("fwd.k", fwd_pushforward(0.7, 1.3, 0.0, 1.0).der[0],
         fd(fwd, 1, 0.7, 1.3), 1e-8);
  // CHECK: ok fwd.x
  // CHECK: ok fwd.k
  return failures();
}
