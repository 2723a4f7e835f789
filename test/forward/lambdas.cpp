// Forward mode through lambdas: a call of a local lambda is a call of the
// lambda lifted into a function of its parameters and captures, pushed
// forward like any helper (captures by reference are in/out).
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: not %gradxx -fsyntax-only -DREFUSED %s 2>&1 | FileCheck %s --check-prefix=REFUSED
#include "fwdcheck.h"
#include <algorithm>
#include <cmath>

using V = std::vector<double>;

[[grad::forward]] double local_fn(double x, double y) {
  auto sq = [](double a) { return a * a; };
  return sq(x) + sq(x * y);
}

[[grad::forward]] double by_value(double x, double y) {
  auto f = [y](double a) { return std::sin(a) * y; };
  return f(x) + f(2 * x);
}

[[grad::forward]] double by_ref(double x, double y) {
  double s = 0;
  auto add = [&](double a) { s += a * x; };
  add(y);
  add(x * x);
  return s * y;
}

[[grad::forward]] double invoked(double x, double y) {
  return [&] { return std::exp(x) * y; }() + x;
}

[[grad::forward]] double comparator(double x, double y) {
  auto by_abs = [](double u, double v) { return std::fabs(u) < std::fabs(v); };
  return std::min(x, y, by_abs) * std::max(x * y, y, by_abs);
}

[[grad::forward("lanes=2")]] double lanes(double x, double y) {
  auto g = [&](double a) { return a * x + y; };
  return g(x) * g(y);
}

[[grad::hessian]] double hess(double x, double y) {
  auto cube = [](double a) { return a * a * a; };
  double a = x, b = y;
  const double &m = std::max(a, b, [](double u, double v) { return u * u < v * v; });
  return cube(m) + x * y;
}

// A lambda that writes one capture and reads another: its reverse half
// reads the adjoint of what it reads, so the pullback passes it a local
// (the HVP pushes that forward; the caller's adjoint output would have no
// value there). Was refused: "read of the adjoint 'd_y'".
[[grad::hessian]] double hess_writes(double x, double y) {
  [&] { x += 0.5 * std::tanh(x * y); }();
  return x * y;
}

#ifdef REFUSED
[[grad::forward]] double mut(double x) {
  int k = 0;
  auto next = [k]() mutable { return ++k; };
  return x * next();
}
// REFUSED: lambdas.cpp:[[@LINE-3]]:15: error: grad: cannot differentiate mutable lambda in 'mut'
#endif

int main() {
  V X1 = {0.7, -1.3}, X2 = {1.9, 0.4};
  for (const V &X : {X1, X2}) {
    fwdcheck::each("local_fn", [](const V &X) { return local_fn(X[0], X[1]); },
                   [](const V &X, const V &D) {
                     return local_fn_pushforward(X[0], X[1], D[0], D[1]).der[0];
                   }, X);
    fwdcheck::each("by_value", [](const V &X) { return by_value(X[0], X[1]); },
                   [](const V &X, const V &D) {
                     return by_value_pushforward(X[0], X[1], D[0], D[1]).der[0];
                   }, X);
    fwdcheck::each("by_ref", [](const V &X) { return by_ref(X[0], X[1]); },
                   [](const V &X, const V &D) {
                     return by_ref_pushforward(X[0], X[1], D[0], D[1]).der[0];
                   }, X);
    fwdcheck::each("invoked", [](const V &X) { return invoked(X[0], X[1]); },
                   [](const V &X, const V &D) {
                     return invoked_pushforward(X[0], X[1], D[0], D[1]).der[0];
                   }, X);
    fwdcheck::each("comparator",
                   [](const V &X) { return comparator(X[0], X[1]); },
                   [](const V &X, const V &D) {
                     return comparator_pushforward(X[0], X[1], D[0], D[1])
                         .der[0];
                   }, X);
    fwdcheck::lanes<2>("lanes", [](const V &X) { return lanes(X[0], X[1]); },
                       [](const V &X, const auto &D) {
                         return lanes_pushforward(X[0], X[1], D[0], D[1]);
                       }, X);
    for (int k = 0; k < 2; ++k) {
      double Vx = k == 0, Vy = k == 1, E = 1e-5, H[2] = {}, P[2] = {},
             M[2] = {};
      hess_hvp(X[0], X[1], Vx, Vy, &H[0], &H[1]);
      hess_pullback(X[0] + E * Vx, X[1] + E * Vy, 1.0, &P[0], &P[1]);
      hess_pullback(X[0] - E * Vx, X[1] - E * Vy, 1.0, &M[0], &M[1]);
      for (int i = 0; i < 2; ++i)
        gradcheck::expect("hess.h" + std::to_string(k) + std::to_string(i),
                          H[i], (P[i] - M[i]) / (2 * E), 1e-6);
    }
  }
  // hess_writes = (x + tanh(x y) / 2) y: closed-form Hessian column x
  // (t = tanh(x y), s = 1 - t^2, d s / d(x y) = -2 t s).
  for (const V &X : {X1, X2}) {
    double x = X[0], y = X[1], t = std::tanh(x * y), s = 1 - t * t;
    double Hxx = -y * y * y * t * s, Hxy = 1 + y * s - x * y * y * t * s;
    for (int k = 0; k < 2; ++k) {
      double Vx = k == 0, Vy = k == 1, H[2] = {};
      hess_writes_hvp(x, y, Vx, Vy, &H[0], &H[1]);
      double E = 1e-5, P[2] = {}, M[2] = {};
      hess_writes_pullback(x + E * Vx, y + E * Vy, 1.0, &P[0], &P[1]);
      hess_writes_pullback(x - E * Vx, y - E * Vy, 1.0, &M[0], &M[1]);
      for (int i = 0; i < 2; ++i)
        gradcheck::expect("hess_writes.h" + std::to_string(k) +
                              std::to_string(i),
                          H[i], (P[i] - M[i]) / (2 * E), 1e-6);
    }
    double H0[2] = {};
    hess_writes_hvp(x, y, 1.0, 0.0, &H0[0], &H0[1]);
    gradcheck::expect("hess_writes.xx", H0[0], Hxx, 1e-12);
    gradcheck::expect("hess_writes.xy", H0[1], Hxy, 1e-12);
  }
  // CHECK: ok local_fn.v0
  // CHECK: ok comparator.v2
  // CHECK: ok hess.h11
  // CHECK: ok hess_writes.h11
  // CHECK: ok hess_writes.xx
  // CHECK: ok hess_writes.xy
  return gradcheck::failures();
}
