// RUN: %gradxx %s -o %t && %t | FileCheck %s --implicit-check-not=FAIL
// CHECK: summary: 0 failure(s)
// Constructs: ++/-- on differentiated doubles inside larger expressions:
// `x++ * y`, `--y / x`, `(++x) *= 2`, `g(++t)`, `return u++ * u`, element
// increments `a[k]++ + a[k]`, `(*p)++` through a local pointer, `*p++ += x`
// (pointer post-increment with a compound assignment), `v[i]--` in a sum.
#include "fdcheck.h"

static double g(double u) { return std::log(1.0 + u * u); }

[[grad]] double incs(double x, double y) {
  double a = x++ * y;   // old x
  double b = --y / x;   // new y, new x
  (++x) *= 2;
  double t = y;
  double c = g(++t);
  c += t;
  double u = a;
  double d = u++ * 3.0;
  return a + b * x + c + d * u;
}

[[grad]] double elem_incs(const double *x, int n, double w) {
  double a[4];
  for (int k = 0; k < n; ++k)
    a[k] = w * x[k];
  double s = 0;
  for (int k = 0; k < n; ++k)
    s += a[k]++ * x[k];
  double *p = &a[1];
  (*p)++;
  double *q = a;
  for (int k = 0; k < n; ++k)
    *q++ += x[k];
  double r = 0;
  for (int k = 0; k < n; ++k)
    r += a[k]-- * 0.5 + x[k];
  return s + r + a[0] * a[n - 1];
}

[[grad]] void shift_all(double *v, int n, double c) {
  double *p = v;
  while (p != v + n) {
    *p++ += c;
    if (p != v + n)
      ++*p;
  }
}

static void test_incs() {
  double x0 = 0.6, y0 = 1.9;
  fdc::Vars at;
  at.add("x", x0).add("y", y0);
  fdc::Loss L = [](fdc::Reader &r) {
    double x = r.get(), y = r.get();
    return incs(x, y);
  };
  fdc::Vars got;
#ifndef PRIMAL_ONLY
  double dx = 0, dy = 0;
  incs_pullback(x0, y0, 1.0, &dx, &dy);
  got.add(dx).add(dy);
#endif
  fdc::check("incs", at, L, got);
}

static void test_elem_incs() {
  const int N = 4;
  double x0[N] = {0.5, -1.0, 0.8, 1.6}, w0 = 1.3;
  fdc::Vars at;
  at.add("x", x0, N).add("w", w0);
  fdc::Loss L = [&](fdc::Reader &r) {
    double x[N];
    r.get(x, N);
    double w = r.get();
    return elem_incs(x, N, w);
  };
  fdc::Vars got;
#ifndef PRIMAL_ONLY
  double dx[N] = {}, dw = 0;
  elem_incs_pullback(x0, N, w0, 1.0, dx, &dw);
  got.add(dx, N).add(dw);
#endif
  fdc::check("elem_incs", at, L, got);
}

static void test_shift_all() {
  const int N = 3;
  double v0[N] = {0.2, -0.4, 1.1}, sv[N] = {0.6, 1.2, -0.9}, c0 = 0.35;
  fdc::Vars at;
  at.add("v", v0, N).add("c", c0);
  fdc::Loss L = [&](fdc::Reader &r) {
    double v[N];
    r.get(v, N);
    double c = r.get();
    shift_all(v, N, c);
    return fdc::dot(sv, v, N);
  };
  fdc::Vars got;
#ifndef PRIMAL_ONLY
  double v[N], ref[N], dv[N], dc = 0;
  std::copy(v0, v0 + N, v);
  std::copy(v0, v0 + N, ref);
  std::copy(sv, sv + N, dv);
  shift_all(ref, N, c0);
  shift_all_pullback(v, N, c0, dv, &dc);
  fdc::same("shift_all", v, ref, N);
  got.add(dv, N).add(dc);
#endif
  fdc::check("shift_all", at, L, got);
}

int main() {
  test_incs();
  test_elem_incs();
  test_shift_all();
  return fdc::finish();
}
