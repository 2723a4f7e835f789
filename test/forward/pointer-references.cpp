// [[grad::forward]] and [[grad::hessian]] with pointers passed by
// reference: a helper taking `const double *&p` that walks it (`*p++`),
// std::swap of two pointer parameters, and ping-pong buffers swapped by
// assignments in a time loop.
// The tangent pointer of a `T *&` parameter is a `T *&` too, so that it
// moves with the pointer in the caller; before, it was passed by value and
// the caller's tangent pointer stayed behind (walk: 0 for 3; the swap: the
// two partial derivatives exchanged), no diagnostic.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "fwdcheck.h"
#include "vecgrad.h"
#include <cmath>
#include <utility>
#include <vector>

using V = std::vector<double>;

// DUMP: static ::grad::dual<double> take_pushforward(const double *&p, const double *&t_p) {
static double take(const double *&p) { return *p++; }
[[grad::forward]] double walk(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += take(x) * (i + 1) * std::sin(s + 1);
  return s;
}

// Its HVP (the pullback pushed forward: the halves of `take` take the
// pointer by reference too).
[[grad::hessian]] double walkh(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += take(x) * (i + 1) * std::sin(s + 1);
  return s;
}

[[grad::forward]] double swapped(double *a, double *b) {
  std::swap(a, b);
  return a[0] * 2 + b[0] * 3 * b[0] + a[1] * b[1];
}

[[grad::forward]] double heat(const double *u0, int n, int steps, double k) {
  std::vector<double> A(u0, u0 + n), Bv(n);
  double *cur = A.data(), *nxt = Bv.data();
  for (int s = 0; s < steps; ++s) {
    for (int i = 1; i < n - 1; ++i)
      nxt[i] = cur[i] + k * (cur[i - 1] - 2 * cur[i] + cur[i + 1]) +
               0.1 * std::sin(cur[i]);
    nxt[0] = cur[0];
    nxt[n - 1] = cur[n - 1];
    double *t = cur;
    cur = nxt;
    nxt = t;
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += cur[i] * cur[i];
  return s;
}

int main() {
  fwdcheck::each("walk", [](const V &X) { return walk(X.data(), 3); },
                 [](const V &X, const V &D) {
                   return walk_pushforward(X.data(), 3, D.data()).der[0];
                 }, vecgrad::sample(3));
  // CHECK: ok walk.v3
  fwdcheck::each("swapped",
                 [](const V &X) {
                   V a(X.begin(), X.begin() + 2), b(X.begin() + 2, X.end());
                   return swapped(a.data(), b.data());
                 },
                 [](const V &X, const V &D) {
                   V a(X.begin(), X.begin() + 2), b(X.begin() + 2, X.end());
                   V ta(D.begin(), D.begin() + 2), tb(D.begin() + 2, D.end());
                   return swapped_pushforward(a.data(), b.data(), ta.data(), tb.data()).der[0];
                 }, vecgrad::sample(4));
  // CHECK: ok swapped.v4
  fwdcheck::each("heat",
                 [](const V &X) { return heat(X.data(), 5, 4, X[5]); },
                 [](const V &X, const V &D) {
                   return heat_pushforward(X.data(), 5, 4, X[5], D.data(), D[5]).der[0];
                 }, vecgrad::sample(6));
  // CHECK: ok heat.v6
  {
    // H v against central differences of the gradient.
    V x = vecgrad::sample(3), v = {0.4, -1.0, 0.7}, hv(3, 0.0);
    walkh_hvp(x.data(), 3, v.data(), hv.data());
    for (int i = 0; i < 3; ++i) {
      auto gi = [&](const V &Y) {
        V g(3, 0.0);
        walkh_pullback(Y.data(), 3, 1.0, g.data());
        return g[i];
      };
      gradcheck::expect("walkh.hv" + std::to_string(i), hv[i],
                        fwdcheck::fdAlong(gi, x, v));
    }
  }
  // CHECK: ok walkh.hv2
  return gradcheck::failures();
}
