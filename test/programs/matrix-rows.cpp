// RUN: %gradxx %s -o %t && %t | FileCheck %s --implicit-check-not=FAIL
// CHECK: summary: 0 failure(s)
// Constructs: pointer walks over matrix rows (`const double* row = A + i*n;
// s += row[j] * x[j]`), `&A[i*n]` passed to a helper, a gemv helper writing its
// result through `double* y`, a void [[grad]] matvec with an out buffer, an
// in-place Gauss-Seidel sweep (x read and written through a pointer param,
// local row pointer), a transposed product through column offsets.
#include "fdcheck.h"

static double ddot(int n, const double *x, const double *y) {
  double s = 0;
  for (int j = 0; j < n; ++j)
    s += x[j] * y[j];
  return s;
}
static void gemv(int m, int n, const double *A, const double *x, double *y) {
  for (int i = 0; i < m; ++i) {
    const double *row = A + i * n;
    double s = 0;
    for (int j = 0; j < n; ++j)
      s += row[j] * x[j];
    y[i] = s;
  }
}

[[grad]] void matvec(const double *A, const double *x, int m, int n, double *y) {
  gemv(m, n, A, x, y);
}

[[grad]] double quad_form(const double *A, const double *x, int n) {
  double r = 0;
  for (int i = 0; i < n; ++i)
    r += x[i] * ddot(n, &A[i * n], x);
  double Atx[4]; // transposed product A^T x via column offsets
  for (int j = 0; j < n; ++j) {
    Atx[j] = 0;
    for (int i = 0; i < n; ++i)
      Atx[j] += A[i * n + j] * x[i];
  }
  return r + 0.1 * ddot(n, Atx, Atx);
}

[[grad]] void gauss_seidel(const double *A, const double *b, double *x, int n,
                           int sweeps) {
  for (int k = 0; k < sweeps; ++k)
    for (int i = 0; i < n; ++i) {
      const double *ai = A + i * n;
      double s = b[i];
      for (int j = 0; j < n; ++j)
        if (j != i)
          s -= ai[j] * x[j];
      x[i] = s / ai[i];
    }
}

static const int M = 2, N = 3;
static double A23[M * N] = {0.5, -1.0, 2.0, 1.5, 0.3, -0.7};
static double A33[N * N] = {4.0, 1.0, -0.5, 0.7, 3.0, 0.9, -0.4, 1.1, 5.0};

static void test_matvec() {
  double x0[N] = {0.2, -0.9, 1.4}, y0[M] = {9, 9}, sy[M] = {1.3, -0.4};
  fdc::Vars at;
  at.add("A", A23, M * N).add("x", x0, N).add("y", y0, M);
  fdc::Loss L = [&](fdc::Reader &r) {
    double A[M * N], x[N], y[M];
    r.get(A, M * N);
    r.get(x, N);
    r.get(y, M);
    matvec(A, x, M, N, y);
    return fdc::dot(sy, y, M);
  };
  fdc::Vars got;
#ifndef PRIMAL_ONLY
  double y[M] = {9, 9}, yref[M] = {9, 9}, dA[M * N] = {}, dx[N] = {};
  double dy[M] = {sy[0], sy[1]};
  matvec(A23, x0, M, N, yref);
  matvec_pullback(A23, x0, M, N, y, dA, dx, dy);
  fdc::same("matvec", y, yref, M);
  got.add(dA, M * N).add(dx, N).add(dy, M);
#endif
  fdc::check("matvec", at, L, got);
}

static void test_quad_form() {
  double x0[N] = {0.6, -0.3, 1.1}, seed = 0.8;
  fdc::Vars at;
  at.add("A", A33, N * N).add("x", x0, N);
  fdc::Loss L = [&](fdc::Reader &r) {
    double A[N * N], x[N];
    r.get(A, N * N);
    r.get(x, N);
    return seed * quad_form(A, x, N);
  };
  fdc::Vars got;
#ifndef PRIMAL_ONLY
  double dA[N * N] = {}, dx[N] = {};
  quad_form_pullback(A33, x0, N, seed, dA, dx);
  got.add(dA, N * N).add(dx, N);
#endif
  fdc::check("quad_form", at, L, got);
}

static void test_gauss_seidel() {
  double b0[N] = {1.0, -2.0, 0.5}, x0[N] = {0.1, 0.2, -0.3};
  double sx[N] = {0.9, -1.2, 0.35};
  fdc::Vars at;
  at.add("A", A33, N * N).add("b", b0, N).add("x", x0, N);
  fdc::Loss L = [&](fdc::Reader &r) {
    double A[N * N], b[N], x[N];
    r.get(A, N * N);
    r.get(b, N);
    r.get(x, N);
    gauss_seidel(A, b, x, N, 3);
    return fdc::dot(sx, x, N);
  };
  fdc::Vars got;
#ifndef PRIMAL_ONLY
  double x[N], xref[N], dx[N], dA[N * N] = {}, db[N] = {};
  std::copy(x0, x0 + N, x);
  std::copy(x0, x0 + N, xref);
  std::copy(sx, sx + N, dx);
  gauss_seidel(A33, b0, xref, N, 3);
  gauss_seidel_pullback(A33, b0, x, N, 3, dA, db, dx);
  fdc::same("gauss_seidel", x, xref, N);
  got.add(dA, N * N).add(db, N).add(dx, N);
#endif
  fdc::check("gauss_seidel", at, L, got);
}

int main() {
  test_matvec();
  test_quad_form();
  test_gauss_seidel();
  return fdc::finish();
}
