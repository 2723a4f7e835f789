// RUN: %gradxx %s -o %t && %t | FileCheck %s --implicit-check-not=FAIL
// CHECK: summary: 0 failure(s)
// Constructs: C-style BLAS-like helpers with out-parameters (axpy, scal, copy,
// dot) called from [[grad]] functions; a void [[grad]] function whose result
// is its non-const pointer parameter (in/out adjoint, replayed writes); local
// arrays passed as the written argument of helpers; a helper that writes its
// result through `double* out`.
#include "fdcheck.h"

static void axpy(int n, double a, const double *x, double *y) {
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}
static void scal(int n, double a, double *x) {
  for (int i = 0; i < n; ++i)
    x[i] *= a;
}
static void copy(int n, const double *x, double *y) {
  for (int i = 0; i < n; ++i)
    y[i] = x[i];
}
static double dot(int n, const double *x, const double *y) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * y[i];
  return s;
}
static void nrm2(int n, const double *x, double *out) {
  *out = std::sqrt(dot(n, x, x));
}

// y <- a*x + b*y
[[grad]] void axpby(int n, double a, const double *x, double b, double *y) {
  scal(n, b, y);
  axpy(n, a, x, y);
}

// One conjugate-gradient style update on local copies.
[[grad]] double cg_update(const double *r0, const double *p0, double alpha,
                          int n) {
  double r[8], p[8];
  copy(n, r0, r);
  copy(n, p0, p);
  double rr = dot(n, r, r);
  axpy(n, -alpha, p, r);
  double rr_new = dot(n, r, r);
  double beta = rr_new / rr;
  scal(n, beta, p);
  axpy(n, 1.0, r, p);
  double pn;
  nrm2(n, p, &pn);
  return pn + rr_new;
}

static void test_axpby() {
  const int n = 4;
  double a0 = 0.7, b0 = -1.3;
  double x0[n] = {0.5, -1.2, 2.0, 0.3}, y0[n] = {1.1, 0.4, -0.6, 0.9};
  double sy[n] = {0.3, -0.8, 1.5, 0.25};
  fdc::Vars at;
  at.add("a", a0).add("x", x0, n).add("b", b0).add("y", y0, n);
  fdc::Loss L = [&](fdc::Reader &r) {
    double a = r.get(), x[n];
    r.get(x, n);
    double b = r.get(), y[n];
    r.get(y, n);
    axpby(n, a, x, b, y);
    return fdc::dot(sy, y, n);
  };
  fdc::Vars got;
#ifndef PRIMAL_ONLY
  double y[n], yref[n], dy[n], da = 0, db = 0, dx[n] = {};
  std::copy(y0, y0 + n, y);
  std::copy(y0, y0 + n, yref);
  std::copy(sy, sy + n, dy);
  axpby(n, a0, x0, b0, yref);
  axpby_pullback(n, a0, x0, b0, y, &da, dx, &db, dy);
  fdc::same("axpby", y, yref, n);
  got.add(da).add(dx, n).add(db).add(dy, n);
#endif
  fdc::check("axpby", at, L, got);
}

static void test_cg_update() {
  const int n = 5;
  double r0[n] = {0.4, -1.1, 0.9, 2.2, -0.3}, p0[n] = {1.0, 0.2, -0.5, 0.8, 0.6};
  double alpha0 = 0.37, seed = 1.25;
  fdc::Vars at;
  at.add("r0", r0, n).add("p0", p0, n).add("alpha", alpha0);
  fdc::Loss L = [&](fdc::Reader &r) {
    double rr[n], pp[n];
    r.get(rr, n);
    r.get(pp, n);
    double alpha = r.get();
    return seed * cg_update(rr, pp, alpha, n);
  };
  fdc::Vars got;
#ifndef PRIMAL_ONLY
  double dr[n] = {}, dp[n] = {}, dalpha = 0;
  cg_update_pullback(r0, p0, alpha0, n, seed, dr, dp, &dalpha);
  got.add(dr, n).add(dp, n).add(dalpha);
#endif
  fdc::check("cg_update", at, L, got);
}

int main() {
  test_axpby();
  test_cg_update();
  return fdc::finish();
}
