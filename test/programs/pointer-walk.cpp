// RUN: %gradxx %s -o %t && %t | FileCheck %s --implicit-check-not=FAIL
// CHECK: summary: 0 failure(s)
// Constructs: `*p++` loops (`while (n--) s += *p++ * *q++`), a pointer
// compared against an end pointer, writes through `*out++ = ...`, a backward
// walk `for (double* p = x + n - 1; p != x; --p) *p -= p[-1]`, negative
// indexing, pointer difference used as a weight (`p - x`), dereference of a
// const pointer param `*c`.
#include "fdcheck.h"

static double dot_walk(const double *p, const double *q, int n) {
  double s = 0;
  while (n--)
    s += *p++ * *q++;
  return s;
}

// Polynomial with coefficients from the highest degree down.
[[grad]] double horner(const double *c, int n, double x) {
  const double *p = c;
  double r = *p++;
  while (p != c + n)
    r = r * x + *p++;
  return r + dot_walk(c, c, n);
}

// out[i] = (x[0] + ... + x[i])^2, walking both parameters.
[[grad]] void prefix_sq(const double *x, double *out, int n) {
  double acc = 0;
  const double *end = x + n;
  while (x != end) {
    acc += *x++;
    *out++ = acc * acc;
  }
}

// In-place backward differences followed by a weighted sum.
[[grad]] double diff_weighted(double *x, int n, double w) {
  for (double *p = x + n - 1; p != x; --p)
    *p -= p[-1];
  *x *= w;
  double s = 0;
  for (const double *p = x; p < x + n; ++p)
    s += (p - x + 1) * *p * *p;
  return s;
}

static const int N = 4;

static void test_horner() {
  double c0[N] = {0.5, -1.2, 0.8, 2.0}, x0 = 0.7;
  fdc::Vars at;
  at.add("c", c0, N).add("x", x0);
  fdc::Loss L = [&](fdc::Reader &r) {
    double c[N];
    r.get(c, N);
    double x = r.get();
    return horner(c, N, x);
  };
  fdc::Vars got;
#ifndef PRIMAL_ONLY
  double dc[N] = {}, dx = 0;
  horner_pullback(c0, N, x0, 1.0, dc, &dx);
  got.add(dc, N).add(dx);
#endif
  fdc::check("horner", at, L, got);
}

static void test_prefix_sq() {
  double x0[N] = {0.3, -0.8, 1.1, 0.4}, out0[N] = {1, 2, 3, 4};
  double so[N] = {0.5, 1.5, -0.7, 0.2};
  fdc::Vars at;
  at.add("x", x0, N).add("out", out0, N);
  fdc::Loss L = [&](fdc::Reader &r) {
    double x[N], out[N];
    r.get(x, N);
    r.get(out, N);
    prefix_sq(x, out, N);
    return fdc::dot(so, out, N);
  };
  fdc::Vars got;
#ifndef PRIMAL_ONLY
  double out[N] = {1, 2, 3, 4}, oref[N] = {1, 2, 3, 4}, dx[N] = {}, dout[N];
  std::copy(so, so + N, dout);
  prefix_sq(x0, oref, N);
  prefix_sq_pullback(x0, out, N, dx, dout);
  fdc::same("prefix_sq", out, oref, N);
  got.add(dx, N).add(dout, N);
#endif
  fdc::check("prefix_sq", at, L, got);
}

static void test_diff_weighted() {
  double x0[N] = {0.9, 0.2, -0.5, 1.3}, w0 = 1.7, sret = 0.6;
  double sx[N] = {0.1, -0.3, 0.25, 0.8};
  fdc::Vars at;
  at.add("x", x0, N).add("w", w0);
  fdc::Loss L = [&](fdc::Reader &r) {
    double x[N];
    r.get(x, N);
    double w = r.get();
    double ret = diff_weighted(x, N, w);
    return sret * ret + fdc::dot(sx, x, N);
  };
  fdc::Vars got;
#ifndef PRIMAL_ONLY
  double x[N], xref[N], dx[N], dw = 0;
  std::copy(x0, x0 + N, x);
  std::copy(x0, x0 + N, xref);
  std::copy(sx, sx + N, dx);
  diff_weighted(xref, N, w0);
  diff_weighted_pullback(x, N, w0, sret, dx, &dw);
  fdc::same("diff_weighted", x, xref, N);
  got.add(dx, N).add(dw);
#endif
  fdc::check("diff_weighted", at, L, got);
}

int main() {
  test_horner();
  test_prefix_sq();
  test_diff_weighted();
  return fdc::finish();
}
