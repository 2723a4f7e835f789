// swap of std::vectors whose shadows come from the caller: a helper
// swapping a vector it gets by reference with a local one, two reference
// parameters, std::swap(v, w) (run as v.swap(w)), a [[grad]] function
// swapping its by-reference parameter (its shadow is the caller's adjoint
// vector: the reverse sweep swaps it with the local's shadow), and the
// ping-pong buffers of explicit time stepping (`std::swap(u, next)` in a
// loop). Both modes, and under AddressSanitizer.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s --function=param %dflags | FileCheck %s --check-prefix=DUMP
#include <vector>
#include <utility>
#include "fwdcheck.h"

// A helper swapping a caller's vector with a local one.
static void replace(std::vector<double> &v, double a) {
  std::vector<double> w{a, a * v[0], 3.0};
  v.swap(w);
  v[1] += w[0] * a;
}

[[grad, grad::forward]] double viaHelper(double x, double y) {
  std::vector<double> v{y, x};
  replace(v, x);
  return v[0] * v[1] + v[2] * v.size();
}

static void swapTwo(std::vector<double> &a, std::vector<double> &b) {
  a.swap(b);
  a[0] *= b[0];
}

[[grad, grad::forward]] double twoRefs(double x, double y) {
  std::vector<double> p{x, y}, q{y * y, x, 1.0};
  swapTwo(p, q);
  std::swap(p, q);
  return p[0] * p[1] + q[2] * q[0];
}

[[grad]] double param(std::vector<double> &v, double y) {
  std::vector<double> w{y, 2 * y, v[0] * y};
  v.swap(w);
  return v[0] * v[1] * v[2] + w[1];
}

// Explicit time stepping with two buffers swapped each step.
static void heat(std::vector<double> &u, double k, int steps) {
  std::vector<double> next(u.size());
  for (int s = 0; s < steps; ++s) {
    for (std::size_t i = 0; i < u.size(); ++i) {
      double l = i > 0 ? u[i - 1] : 0.0, r = i + 1 < u.size() ? u[i + 1] : 0.0;
      next[i] = u[i] + k * (l - 2 * u[i] + r);
    }
    std::swap(u, next);
  }
}

[[grad, grad::forward]] double pp(double x, double y) {
  std::vector<double> u{x, y, x * y, 1.0};
  heat(u, 0.1 * y, 5);
  return u[0] * u[1] + u[2] * u[3];
}

[[grad, grad::forward]] double local(double x, double y) {
  std::vector<double> a{x, y, 1.0}, b(3);
  for (int s = 0; s < 4; ++s) {
    for (int i = 0; i < 3; ++i)
      b[i] = a[i] * a[(i + 1) % 3] * 0.5 + y;
    a.swap(b);
  }
  return a[0] + a[1] * a[2];
}

int main() {
  fwdcheck::both("viaHelper", viaHelper, viaHelper_pullback,
                 viaHelper_pushforward, 1.3, -0.7);
  fwdcheck::both("twoRefs", twoRefs, twoRefs_pullback, twoRefs_pushforward,
                 1.3, -0.7);
  fwdcheck::both("pp", pp, pp_pullback, pp_pushforward, 1.3, -0.7);
  fwdcheck::both("local", local, local_pullback, local_pushforward, 1.3, -0.7);
  {
    // f = y * 2y * v0 y + v1 = 2 v0 y^3 + v1, and v on exit is
    // {y, 2y, v0 y}: its seed (0.1, 0.2, 0.3) flows into y and v0.
    std::vector<double> v{1.5, 0.25}, dv{0.1, 0.2, 0.3};
    double dy = 0;
    param_pullback(v, 0.8, 1.0, &dv, &dy);
    gradcheck::expect("param.dy",
                      dy, 6 * 1.5 * 0.8 * 0.8 + 0.1 + 2 * 0.2 + 0.3 * 1.5);
    gradcheck::expect("param.dv0", dv[0], 2 * 0.8 * 0.8 * 0.8 + 0.3 * 0.8);
    gradcheck::expect("param.dv1", dv[1], 1);
    gradcheck::expect("param.size", dv.size(), 2);
  }
  return gradcheck::failures();
}

// CHECK: ok viaHelper.d0
// CHECK: ok twoRefs.fwd.y
// CHECK: ok pp.d1
// CHECK: ok local.fwd.val
// CHECK: ok param.dv0
// CHECK: ok param.size

// DUMP: void param_pullback(
// DUMP: v.swap(w);
// DUMP: (*d_v).swap(_d_w);
