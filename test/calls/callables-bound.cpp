// Functions and lambdas bound at the call site to function pointers and
// std::function parameters (issue 51, point 2): a trapezoid rule taking
// `double (*f)(double)`, explicit Euler taking `const std::function<double(
// double)> &`, Newton's method taking two function references, a template
// given a function's name, a captureless lambda converted to a pointer, a
// pointer passed on to another helper. Each binding the plugin sees gets
// its own view of the callee (driver/CallableViews.h), as lambdas passed to
// templates do; a binding it cannot see is refused, naming it.
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | %FileCheck-strict %s --check-prefix=ERR
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "fwdcheck.h"
#include <cmath>
#include <functional>
#include <vector>

double sq(double x) { return x * x; }
double bump(double x) { return std::exp(-x * x); }
double cube(double x) { return x * x * x; }
double dcube(double x) { return 3 * x * x; }

// C style: not a template, the integrand as a pointer.
double trapezoid(double (*f)(double), double a, double b, int n) {
  double h = (b - a) / n, s = 0.5 * (f(a) + f(b));
  for (int i = 1; i < n; ++i)
    s += f(a + i * h);
  return s * h;
}

// Passed on to another helper.
double mean(double (*f)(double), double a, double b) {
  return trapezoid(f, a, b, 16) / (b - a);
}

void euler(const std::function<double(double)> &f, double &y, int n,
           double h) {
  for (int i = 0; i < n; ++i)
    y += h * f(y);
}

// Function references, the derivative given by the caller; dereferenced
// pointers too.
double newton(double (&f)(double), double (*df)(double), double x0,
              double target) {
  double x = x0;
  for (int i = 0; i < 6; ++i)
    x -= (f(x) - target) / (*df)(x);
  return x;
}

template <class F> double simpson(F f, double a, double b) {
  return (b - a) / 6 * (f(a) + 4 * f(0.5 * (a + b)) + f(b));
}

[[grad]] double area(double a, double b) {
  return trapezoid(sq, a, b, 8) + trapezoid(&bump, a, b, 4) +
         mean(bump, a, b);
}

[[grad]] double grow(double y0, double k) {
  double y = y0;
  euler([&](double v) { return k * v * (1 - v); }, y, 10, 0.1);
  double z = y0;
  euler(bump, z, 5, 0.2);
  return y + z;
}

// The cube root of t, by Newton from x0: its derivative in t is
// 1 / (3 t^(2/3)) only once the iteration has converged; here it is
// checked against finite differences of the iteration as written.
[[grad]] double root(double t, double x0) {
  return newton(cube, dcube, x0, t);
}

[[grad]] double named(double a, double b) {
  return simpson(sq, a, b) + simpson(&bump, a, b) +
         trapezoid([](double x) { return std::sin(x); }, a, b, 6);
}

[[grad::forward]] double both(double a, double b) {
  double y = a;
  euler([&](double v) { return b * v; }, y, 4, 0.25);
  return y * trapezoid(sq, a, b, 8);
}

[[grad::hessian]] double curved(double a, double b) {
  return trapezoid(bump, a, b, 12) * a;
}

#ifdef ERRORS
// A pointer the caller cannot see bound: loaded from a table at run time.
// The error is at the call through it, in the callee.
double (*table[2])(double) = {sq, bump};
[[grad]] double chosen(double a, int i) {
  return trapezoid(table[i], 0.0, a, 4);
}
// ERR: callables-bound.cpp:23:38: error: grad: cannot differentiate call through the function pointer 'f' in 'trapezoid'
// ERR: callables-bound.cpp:[[@LINE-3]]:10: note: while differentiating 'trapezoid', called here
// ERR: callables-bound.cpp:[[@LINE-5]]:3: note: while differentiating 'chosen' requested here

// A callee whose body the copy does not rebuild: refused with the reason
// (and the callee, differentiated as written, says what it cannot do).
// ERR: callables-bound.cpp:[[@LINE+14]]:18: error: grad: cannot differentiate lambda passed to 'bounded' (its body has the static variable 'calls') in 'counted'
// ERR: callables-bound.cpp:[[@LINE+12]]:3: note: while differentiating 'counted' requested here
double bounded(double (*f)(double), double a) {
  static int calls = 0;
  // ERR: callables-bound.cpp:[[@LINE-1]]:3: error: grad: cannot differentiate static local variable 'calls' in 'bounded'
  // ERR: callables-bound.cpp:[[@LINE+9]]:10: note: while differentiating 'bounded', called here
  // ERR: callables-bound.cpp:[[@LINE+7]]:3: note: while differentiating 'counted' requested here
  ++calls;
  return f(a);
  // ERR: callables-bound.cpp:[[@LINE-1]]:10: error: grad: cannot differentiate call through the function pointer 'f' in 'bounded'
  // ERR: callables-bound.cpp:[[@LINE+4]]:10: note: while differentiating 'bounded', called here
  // ERR: callables-bound.cpp:[[@LINE+2]]:3: note: while differentiating 'counted' requested here
}
[[grad]] double counted(double a) {
  return bounded([](double x) { return x * x; }, a);
}
#endif

int main() {
  gradcheck::check_grad("area", area, area_pullback, 0.5, 1.5);
  // CHECK: ok area.d1
  gradcheck::check_grad("grow", grow, grow_pullback, 0.3, 0.8);
  // CHECK: ok grow.d1
  gradcheck::check_grad("root", root, root_pullback, 5.0, 1.5);
  // CHECK: ok root.d1
  gradcheck::check_grad("named", named, named_pullback, 0.2, 1.1);
  // CHECK: ok named.d1
  using V = std::vector<double>;
  fwdcheck::each("both", [](const V &Y) { return both(Y[0], Y[1]); },
                 [](const V &Y, const V &D) {
                   return both_pushforward(Y[0], Y[1], D[0], D[1]).der[0];
                 },
                 V{0.7, 1.4});
  // CHECK: ok both.v2
  gradcheck::check_hvp("curved", curved_hvp, curved_pullback, 0.4, 1.2);
  // CHECK: ok curved.h11
  return gradcheck::failures();
}
