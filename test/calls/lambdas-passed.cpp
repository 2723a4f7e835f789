// Lambdas passed to function templates (issue 51, point 1): an RK4 step
// taking the right-hand side as `F f`, a quadrature rule taking `const F &`,
// a helper passing its callable on to another, two callables in one call,
// a forwarding reference, a lambda writing what it captures by reference.
// The callee is differentiated once per lambda, as a view whose closure
// parameter is replaced by the lambda's captures (driver/CallableViews.h):
// what the lambda captures gets adjoints as parameters do.
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | %FileCheck-strict %s --check-prefix=ERR
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "vecgrad.h"
#include <cmath>
#include <vector>

template <class F>
void rk4(F f, std::vector<double> &y, double t, double h) {
  std::size_t n = y.size();
  std::vector<double> k1(n), k2(n), k3(n), k4(n), tmp(n);
  f(t, y, k1);
  for (std::size_t i = 0; i < n; ++i)
    tmp[i] = y[i] + 0.5 * h * k1[i];
  f(t + 0.5 * h, tmp, k2);
  for (std::size_t i = 0; i < n; ++i)
    tmp[i] = y[i] + 0.5 * h * k2[i];
  f(t + 0.5 * h, tmp, k3);
  for (std::size_t i = 0; i < n; ++i)
    tmp[i] = y[i] + h * k3[i];
  f(t + h, tmp, k4);
  for (std::size_t i = 0; i < n; ++i)
    y[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
}

// A damped oscillator x'' = -k x - c x', integrated for one time unit.
[[grad]] double oscillator(double k, double c, double x0) {
  std::vector<double> y{x0, 0.0};
  auto rhs = [&](double, const std::vector<double> &s,
                 std::vector<double> &d) {
    d[0] = s[1];
    d[1] = -k * s[0] - c * s[1];
  };
  for (int i = 0; i < 20; ++i)
    rk4(rhs, y, 0.05 * i, 0.05);
  return y[0] * y[0] + y[1];
}

template <class F> double simpson(const F &f, double a, double b, int n) {
  double h = (b - a) / n, s = f(a) + f(b);
  for (int i = 1; i < n; ++i)
    s += (i % 2 ? 4 : 2) * f(a + i * h);
  return s * h / 3;
}

// A copy captured by value, a lambda written in place.
[[grad]] double quadrature(double w, double b) {
  double w2 = w * w;
  return simpson([=](double x) { return std::sin(w2 * x) * std::exp(-x); },
                 0.0, b, 16);
}

// The callable passed on to another template.
template <class G> double withEnds(G g, double x) {
  return simpson(g, 0.0, x, 8) + g(x);
}

[[grad]] double nested(double c, double x) {
  return withEnds([&](double t) { return c * t * t + std::cos(c * t); }, x);
}

// Two callables: a fixed number of Newton steps for f(x) = 0.
template <class F, class DF> double newton(F f, DF df, double x) {
  for (int i = 0; i < 6; ++i)
    x -= f(x) / df(x);
  return x;
}

// The root of x^3 + a x - b, differentiated through the iteration.
[[grad]] double root(double a, double b) {
  auto f = [&](double x) { return x * x * x + a * x - b; };
  auto df = [&](double x) { return 3 * x * x + a; };
  return newton(f, df, 1.0);
}

// A forwarding reference; a lambda accumulating into a by-reference
// capture.
template <class F> void forEach(const double *v, int n, F &&f) {
  for (int i = 0; i < n; ++i)
    f(v[i]);
}

[[grad]] double energy(const double *v, int n, double s) {
  double acc = 0;
  forEach(v, n, [&](double e) { acc += s * e * e; });
  return acc;
}

// A functor object passed the same way (a class, not a lambda).
struct Spring {
  double k;
  double operator()(double x) const { return 0.5 * k * x * x; }
};

[[grad]] double springWork(double k, double b) {
  Spring sp{k};
  return simpson(sp, 0.0, b, 4);
}

// The lambda reads the state the callee updates: the same vector reaches
// the view as an argument and as a capture.
template <class F> void relax(F f, std::vector<double> &y) {
  for (int s = 0; s < 3; ++s) {
    y[0] = y[0] - 0.1 * f(y[0]);
    y[1] = y[1] * 0.9 + y[0] * 0.05;
  }
}

[[grad]] double relaxed(double a, double b) {
  std::vector<double> y{a, b};
  auto f = [&](double v) { return v * y[1] + a * y[0]; };
  relax(f, y);
  return y[0] + y[1] * y[0];
}

// Copies: a variable changed before the lambda copies it, a lambda made in
// each iteration of a loop that changes the variable, a variable swapped
// after the call: the copy is the variable's value at the call.
static void swapIt(double &a, double &b) {
  double t = a;
  a = b;
  b = t;
}

[[grad]] double copies(double x, double y) {
  double s = x * y;
  s += std::sin(x);
  auto f = [=](double t) { return s * t * t; };
  double r = simpson(f, 0.0, 1.0, 4);
  for (int i = 0; i < 3; ++i) {
    auto g = [s, i](double t) { return std::exp(-s * t) * (i + 1); };
    r += simpson(g, 0.0, y, 6);
    s = 0.5 * s + r;
  }
  auto h = [=](double t) { return t * s; };
  r += simpson(h, 0.0, 1.0, 2);
  swapIt(s, r);
  return r * s;
}

// An init-capture in a lambda written in the call; a lambda taking the
// elements by reference and scaling them in place.
template <class F> double once(F f, double x) { return f(x); }
template <class F> void each(double *v, int n, F f) {
  for (int i = 0; i < n; ++i)
    f(v[i]);
}

[[grad]] double initCaptured(double x, double k) {
  double v[3] = {x, 2 * x, x * x};
  each(v, 3, [&](double &e) { e *= k; });
  return once([y = 2 * x](double t) { return y * t * t; }, k) + v[0] * v[2];
}

// Generic lambdas: the view lifts the specialisation its callee calls.
template <class F> double sum3(F f, double a) {
  return f(a) + 0.5 * f(0.5 * a) + f(-a);
}
[[grad]] double generic(double x, double k) {
  auto g = [&](auto u) { return k * u * std::sin(u); };
  return sum3(g, x) + sum3([](auto v) { return v * v; }, k) +
         once([=](const auto &t) { return t * k; }, x);
}

#ifdef ERRORS
// A generic lambda its callee calls with an int and a double.
template <class F> double mixed(F f, double a) { return f(a) + f(2); }
// ADVICE: (give its parameters types, such as 'double z')
[[grad]] double severalTypes(double x) {
  return mixed([x](auto u) { return u * x; }, x);
  // ERR: lambdas-passed.cpp:[[@LINE-1]]:16: error: grad: cannot differentiate lambda passed to 'mixed' (it is generic, and 'mixed' does not call it with arguments of one type (give its parameters types, such as 'double z')) in 'severalTypes'
  // ERR: lambdas-passed.cpp:[[@LINE-3]]:3: note: while differentiating 'severalTypes' requested here
}

// The copy `s` made at the lambda is not the `s` at the call; nor in a
// loop that changes `s` after the call, the lambda made before it.
[[grad]] double stale(double x) {
  double s = x;
  auto f = [=](double t) { return s * t; };
  s = 2 * x;
  return simpson(f, 0.0, 1.0, 4);
  // ERR: lambdas-passed.cpp:[[@LINE-1]]:18: error: grad: cannot differentiate lambda 'f' passed to 'simpson' (it copies 's', which may change before the call (capture it by reference)) in 'stale'
  // ERR: lambdas-passed.cpp:[[@LINE-6]]:3: note: while differentiating 'stale' requested here
}
[[grad]] double staleInLoop(double x) {
  double s = x, r = 0;
  auto f = [=](double t) { return s * t; };
  for (int i = 0; i < 3; ++i) {
    r += simpson(f, 0.0, 1.0, 4);
    // ERR: lambdas-passed.cpp:[[@LINE-1]]:18: error: grad: cannot differentiate lambda 'f' passed to 'simpson' (it copies 's', which may change before the call (capture it by reference)) in 'staleInLoop'
    // ERR: lambdas-passed.cpp:[[@LINE-6]]:3: note: while differentiating 'staleInLoop' requested here
    s *= 2;
  }
  return r;
}

// The callee keeps a copy of the callable.
template <class F> double keep(F f, double x) {
  F g = f;
  return g(x);
}
[[grad]] double kept(double x) {
  return keep([x](double t) { return x * t; }, 2.0);
  // ERR: lambdas-passed.cpp:[[@LINE-1]]:15: error: grad: cannot differentiate lambda passed to 'keep' ('keep' does more with it than call it or pass it on) in 'kept'
  // ERR: lambdas-passed.cpp:[[@LINE-3]]:3: note: while differentiating 'kept' requested here
}

// An init-capture in a lambda stored first: its value where the lambda is
// made is not at hand at the call.
// ADVICE: (write the lambda in the call, or capture a variable)
[[grad]] double storedInit(double x) {
  auto f = [y = 2 * x](double t) { return y * t; };
  return once(f, x);
  // ERR: lambdas-passed.cpp:[[@LINE-1]]:15: error: grad: cannot differentiate lambda 'f' passed to 'once' (its capture 'y' is initialised in the lambda (write the lambda in the call, or capture a variable)) in 'storedInit'
  // ERR: lambdas-passed.cpp:[[@LINE-4]]:3: note: while differentiating 'storedInit' requested here
}

// Recursion and parameter packs: refused, with the reason.
template <class F> double adapt(F f, double a, double b, int d) {
  if (d == 0)
    return (b - a) * f(0.5 * (a + b));
  double m = 0.5 * (a + b);
  return adapt(f, a, m, d - 1) + adapt(f, m, b, d - 1);
  // ERR: lambdas-passed.cpp:[[@LINE-1]]:16: error: grad: cannot differentiate lambda 'f' passed to 'adapt' ('adapt' passes it to itself: recursive functions taking callables are not differentiated yet) in 'recursive'
  // ERR: lambdas-passed.cpp:[[@LINE+6]]:3: note: while differentiating 'recursive' requested here
  // ERR: lambdas-passed.cpp:[[@LINE-3]]:40: error: grad: cannot differentiate lambda 'f' passed to 'adapt' ('adapt' passes it to itself: recursive functions taking callables are not differentiated yet) in 'recursive'
  // ERR: lambdas-passed.cpp:[[@LINE+4]]:3: note: while differentiating 'recursive' requested here
}
// ERR: lambdas-passed.cpp:[[@LINE+3]]:16: error: grad: cannot differentiate lambda passed to 'adapt' ('adapt' does more with it than call it or pass it on) in 'recursive'
// ERR: lambdas-passed.cpp:[[@LINE+1]]:3: note: while differentiating 'recursive' requested here
[[grad]] double recursive(double k) {
  return adapt([&](double t) { return k * t; }, 0.0, 1.0, 3);
}

template <class F, class... A> double invoke(F f, A... a) { return f(a...); }
// ERR: lambdas-passed.cpp:[[@LINE+3]]:17: error: grad: cannot differentiate lambda passed to 'invoke' ('invoke' takes a parameter pack: variadic function templates taking lambdas are not differentiated yet) in 'packed'
// ERR: lambdas-passed.cpp:[[@LINE+1]]:3: note: while differentiating 'packed' requested here
[[grad]] double packed(double x) {
  return invoke([](double u, double v) { return u * v; }, x, x);
}
#else
// The rewrites the advice gives: for severalTypes, the parameter typed.
template <class F> double mixed(F f, double a) { return f(a) + f(2); }
[[grad]] double severalTypes(double x) {
  return mixed([x](double u) { return u * x; }, x);
}
// (And for storedInit, the lambda written in the call.)
[[grad]] double storedInit(double x) {
  return once([y = 2 * x](double t) { return y * t; }, x);
}
#endif

int main() {
  gradcheck::check_grad("oscillator", oscillator, oscillator_pullback, 2.0,
                        0.3, 0.8);
  // CHECK: ok oscillator.d2
  gradcheck::check_grad("quadrature", quadrature, quadrature_pullback, 1.3,
                        2.0);
  // CHECK: ok quadrature.d1
  gradcheck::check_grad("nested", nested, nested_pullback, 0.7, 1.5);
  // CHECK: ok nested.d1
  gradcheck::check_grad("root", root, root_pullback, 2.0, 3.0);
  // CHECK: ok root.d1
  gradcheck::check_grad("springWork", springWork, springWork_pullback, 3.0,
                        1.5);
  // CHECK: ok springWork.d1
  gradcheck::check_grad("relaxed", relaxed, relaxed_pullback, 0.7, 1.2);
  // CHECK: ok relaxed.d1
  gradcheck::check_grad("copies", copies, copies_pullback, 0.6, 1.3);
  // CHECK: ok copies.d1
  gradcheck::check_grad("initCaptured", initCaptured, initCaptured_pullback,
                        1.5, 0.7);
  // CHECK: ok initCaptured.d1
  gradcheck::check_grad("generic", generic, generic_pullback, 0.7, 1.3);
  // CHECK: ok generic.d1
  gradcheck::check_grad("severalTypes", severalTypes, severalTypes_pullback,
                        1.5);
  // CHECK: ok severalTypes.d0
  gradcheck::check_grad("storedInit", storedInit, storedInit_pullback, 1.5);
  // CHECK: ok storedInit.d0
  auto X = vecgrad::sample(4, 7);
  std::vector<double> dv(3);
  double ds = 0;
  energy_pullback(X.data(), 3, X[3], 1.0, dv.data(), &ds);
  vecgrad::check(
      "energy",
      [](const std::vector<double> &Y) { return energy(Y.data(), 3, Y[3]); },
      X, {dv[0], dv[1], dv[2], ds});
  // CHECK: ok energy.d3
  return gradcheck::failures();
}
