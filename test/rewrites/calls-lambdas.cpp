// Rewrites suggested by the refusals of lambdas the plugin lifts into
// functions: a lambda declared inside another lambda (write its body where
// it is called) and a lambda capturing another lambda (make the captured
// one a function); a std::function parameter of the differentiated
// function (differentiate the caller that binds it) and a function pointer
// loaded from a table (call the functions by name in a switch). The first
// two were Clang errors inside the generated code or a
// message naming a generated function before. Beside them, a map callable
// calling a helper that has a default pointer argument, which the lifted
// function used to call with too few arguments. The first RUN line checks
// each message, its location and its notes; the second compiles the
// rewrites under the same names and checks their derivatives against
// central finite differences.
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | %FileCheck-strict %s --check-prefix=ERR
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>
#include <functional>
#include <grad/grad.h>

#ifdef ERRORS
// ADVICE: (write the body of 'inner' where it is called)
[[grad]] double nested(double a, double b) {
  auto outer = [a](double x) {
    auto inner = [x](double y) { return x * std::sin(y); };
    // ERR: calls-lambdas.cpp:[[@LINE-1]]:5: error: grad: cannot differentiate lambda declared inside a lambda (write the body of 'inner' where it is called) in 'nested'
    return inner(a) + x * x;
  };
  return outer(b);
  // ERR: calls-lambdas.cpp:[[@LINE-7]]:3: note: while differentiating 'nested' requested here
}

// ADVICE: (make 'sq' a function)
[[grad]] double combined(double a, double b) {
  auto sq = [](double x) { return x * std::exp(x); };
  auto comb = [&](double x) { return sq(x) + b * x; };
  // ERR: calls-lambdas.cpp:[[@LINE-1]]:15: error: grad: cannot differentiate lambda capturing the lambda 'sq' (make 'sq' a function) in 'combined'
  return comb(a);
  // ERR: calls-lambdas.cpp:[[@LINE-5]]:3: note: while differentiating 'combined' requested here
}

// ADVICE: (differentiate the caller that binds it to a lambda or function)
[[grad]] double weighted(double x, const std::function<double(double)> &g) {
  return g(x) * x;
  // ERR: calls-lambdas.cpp:[[@LINE-1]]:10: error: grad: cannot differentiate call of the std::function 'g', a parameter whose target the plugin cannot see here (differentiate the caller that binds it to a lambda or function) in 'weighted'
  // ERR: calls-lambdas.cpp:[[@LINE-3]]:3: note: while differentiating 'weighted' requested here
}

// ADVICE: (its target is chosen at run time: call the functions by name, in a switch over the index)
static double sq2(double t) { return t * t; }
static double cube(double t) { return t * t * t; }
static double (*table[2])(double) = {sq2, cube};
[[grad]] double chosen(double x, double k) {
  int i = k > 0 ? 1 : 0;
  return table[i](x) * k;
  // ERR: calls-lambdas.cpp:[[@LINE-1]]:10: error: grad: cannot differentiate call through the function pointer 'table[i]' (its target is chosen at run time: call the functions by name, in a switch over the index) in 'chosen'
  // ERR: calls-lambdas.cpp:[[@LINE-4]]:3: note: while differentiating 'chosen' requested here
}
#else
// The caller binds the std::function: the helper is differentiated once
// per binding.
static double weighted(double x, const std::function<double(double)> &g) {
  return g(x) * x;
}
[[grad]] double bound(double x, double c) {
  return weighted(x, [c](double t) { return std::sin(c * t); });
}

static double sq2(double t) { return t * t; }
static double cube(double t) { return t * t * t; }
[[grad]] double chosen(double x, double k) {
  int i = k > 0 ? 1 : 0;
  double v = 0;
  switch (i) {
  case 0:
    v = sq2(x);
    break;
  default:
    v = cube(x);
    break;
  }
  return v * k;
}

[[grad]] double nested(double a, double b) {
  auto outer = [a](double x) { return x * std::sin(a) + x * x; };
  return outer(b);
}

static double sq(double x) { return x * std::exp(x); }

[[grad]] double combined(double a, double b) {
  auto comb = [&](double x) { return sq(x) + b * x; };
  return comb(a);
}
#endif

// The helper's default argument is a null pointer: the lifted callable
// passes it as the call in the lambda does.
static double scale(double x, const double *w = nullptr) {
  return w ? x * *w : 2 * x;
}

[[grad]] double mapped(const grad::tensor<double> &t, double c) {
  return grad::sum(
      grad::map([&](double z) { return scale(z) * c + z * z; }, t));
}

int main() {
#ifndef ERRORS
  gradcheck::check_grad("nested", nested, nested_pullback, 0.7, -1.3);
  gradcheck::check_grad("combined", combined, combined_pullback, 0.4, 1.9);
  gradcheck::check_grad("bound", bound, bound_pullback, 0.8, 1.7);
  gradcheck::check_grad("chosen.pos", chosen, chosen_pullback, 0.8, 1.7);
  gradcheck::check_grad("chosen.neg", chosen, chosen_pullback, 0.8, -1.7);
#endif
  // CHECK: ok nested.d0
  // CHECK: ok nested.d1
  // CHECK: ok combined.d0
  // CHECK: ok combined.d1
  // CHECK: ok bound.d1
  // CHECK: ok chosen.pos.d1
  // CHECK: ok chosen.neg.d1
  grad::tensor<double> t({3});
  double v[3] = {0.3, -1.2, 0.8};
  for (int i = 0; i < 3; ++i)
    t[i] = v[i];
  grad::tensor<double> dt = grad::zeros_like(t);
  double dc = 0;
  mapped_pullback(t, 1.5, 1.0, &dt, &dc);
  for (int i = 0; i < 3; ++i) {
    auto f = [&](double x) {
      grad::tensor<double> u = t;
      u[i] = x;
      return mapped(u, 1.5);
    };
    gradcheck::expect("mapped.t" + std::to_string(i), dt[i],
                      gradcheck::fd(f, 0, v[i]));
  }
  gradcheck::expect("mapped.c", dc,
                    gradcheck::fd([&](double c) { return mapped(t, c); }, 0,
                                  1.5));
  // CHECK: ok mapped.t0
  // CHECK: ok mapped.t1
  // CHECK: ok mapped.t2
  // CHECK: ok mapped.c
  return gradcheck::failures();
}
