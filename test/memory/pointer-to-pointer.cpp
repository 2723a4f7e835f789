// Pointer-to-pointer parameters (`double **A`, rows of a matrix kept as
// an array of row pointers, as C numerical code passes them): the adjoint
// argument has the same shape (`double **d_A`, the caller's row pointers
// into its adjoint rows), `A[i][j]` has the shadow `d_A[i][j]`, and
// helpers that read or write through `double **` are differentiated on
// demand. Local arrays of pointers to constant tables are read as written
// in both modes (forward mode refused their braces before); local arrays of
// pointers into differentiated memory are an error
// (test/diagnostics/pointer-holders.cpp, and below in forward mode).
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s --function=frob %dflags | FileCheck %s --check-prefix=DUMP
// RUN: not %gradxx -fsyntax-only -DREFUSED %s 2>&1 | FileCheck %s --check-prefix=REFUSED
#include "fwdcheck.h"
#include <cmath>

using namespace gradcheck;

static double sumsq(double **A, int n, int m) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      s += A[i][j] * A[i][j];
  return s;
}

static void scaleFirst(double **A, int n, double c) {
  for (int i = 0; i < n; ++i)
    A[i][0] *= c;
}

// A row scaled in place, then the squared Frobenius norm.
[[grad]] double frob(double **A, int n, int m, double c) {
  scaleFirst(A, n, c);
  A[0][1] *= std::sin(A[1][0]);
  return sumsq(A, n, m);
}

static const double T0[2] = {1.5, -2.0}, T1[2] = {0.25, 3.0};

[[grad, grad::forward]] double coef(double x, double y) {
  const double *T[2] = {T0, T1};
  double *Z[1] = {nullptr};
  double s = 0;
  for (int i = 0; i < 2; ++i)
    s += T[i][0] * x * x + T[i][1] * y;
  return s + (Z[0] ? 1.0 : 0.0) * y;
}

#ifdef REFUSED
[[grad::forward]] double rowsForward(double x, double y) {
  double r0[2] = {x, y}, r1[2] = {y * x, 1.0};
// REFUSED: pointer-to-pointer.cpp:[[@LINE+1]]:19: error: grad: cannot differentiate pointer 'r0' into differentiated memory in the brace initialisation of 'double *[2]' (pass the pointer itself) in 'rowsForward' in forward mode
  double *A[2] = {r0, r1};
  return sumsq(A, 2, 2);
}
#endif

int main() {
  fwdcheck::both("coef", coef, coef_pullback, coef_pushforward, 1.3, -0.7);
  const int N = 2, M = 3;
  double r0[M] = {0.5, -1.25, 2.0}, r1[M] = {0.75, 1.5, -0.5};
  double *A[N] = {r0, r1};
  const double C = 1.3;
  // The gradient at the entry values, against central differences.
  double s0[M], s1[M];
  for (int j = 0; j < M; ++j) {
    s0[j] = r0[j];
    s1[j] = r1[j];
  }
  auto F = [&](double *a0, double *a1, double c) {
    double t0[M], t1[M];
    for (int j = 0; j < M; ++j) {
      t0[j] = a0[j];
      t1[j] = a1[j];
    }
    double *T[N] = {t0, t1};
    return frob(T, N, M, c);
  };
  double d0[M] = {}, d1[M] = {}, dc = 0;
  double *dA[N] = {d0, d1};
  frob_pullback(A, N, M, C, 1.0, dA, &dc);
  const double H = 1e-5;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < M; ++j) {
      double *Row = i == 0 ? s0 : s1;
      double Keep = Row[j];
      Row[j] = Keep + H;
      double Up = F(s0, s1, C);
      Row[j] = Keep - H;
      double Down = F(s0, s1, C);
      Row[j] = Keep;
      expect("frob.dA" + std::to_string(i) + std::to_string(j),
             (i == 0 ? d0 : d1)[j], (Up - Down) / (2 * H), 1e-7);
    }
  expect("frob.dc", dc, (F(s0, s1, C + H) - F(s0, s1, C - H)) / (2 * H),
         1e-7);
  // The primal ran too: the rows hold the scaled values.
  expect("frob.A00", r0[0], 0.5 * C);
  return failures();
}

// CHECK: ok coef.fwd.x
// CHECK: ok frob.dA00
// CHECK: ok frob.dA01
// CHECK: ok frob.dA10
// CHECK: ok frob.dA12
// CHECK: ok frob.dc
// CHECK: ok frob.A00

// DUMP: void frob_pullback(double **A, int n, int m, double c, double d_ret, double **d_A, double *d_c)
// DUMP: d_A[0][1] = _r{{[0-9]+}} * _t{{[0-9]+}};
