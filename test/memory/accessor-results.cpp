// The results of accessors (`double &elem(double *A, int n, int i, int j)`,
// `double *row(double *A, int n, int i)`, `double &at(std::vector<double> &v,
// int i)`) and of helpers that compute a reference into an argument
// (`double &largest(double *a, int n)`) used directly, without binding them
// to a local: read, written (`elem(A, n, 1, 1) *= a`, `row(A, n, 1)[0] +=
// a`), in loops, into a vector that grows. The forward sweep binds the
// address and records its offset into the argument; the reverse sweep
// finds the adjoint at the same offset into the argument's shadow. Reverse
// and forward mode.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s --function=grid %dflags | FileCheck %s --check-prefix=DUMP
#include "fwdcheck.h"
#include "gradcheck.h"
#include <array>
#include <vector>

using namespace gradcheck;
using fwdcheck::both;

static double &elem(double *A, int n, int i, int j) { return A[i * n + j]; }
static const double &celem(const double *A, int n, int i, int j) {
  return A[i * n + j];
}
static double *row(double *A, int n, int i) { return A + i * n; }

[[grad, grad::forward]] double grid(double x, double y) {
  double A[4] = {x, y, x * y, 1.0};
  double v = elem(A, 2, 0, 1);
  double s = v * x + celem(A, 2, 1, 0) * y;
  elem(A, 2, 1, 1) += s;
  row(A, 2, 0)[0] *= y;
  s += row(A, 2, 1)[1] * x;
  s += elem(A, 2, 1, 1) * elem(A, 2, 0, 0);
  return s;
}
// DUMP: void grid_pullback(double x, double y, double d_ret, double *d_x, double *d_y) {
// DUMP: _p0 = &::elem(A, 2, 0, 1);
// DUMP-NEXT: _o0 = _p0 - A;

static double &largest(double *a, int n) {
  int k = 0;
  for (int i = 1; i < n; ++i)
    if (a[i] > a[k])
      k = i;
  return a[k];
}

[[grad, grad::forward]] double peaks(double x, double y) {
  double a[3] = {y, x, 0.5};
  largest(a, 3) *= x;
  double s = largest(a, 3) * y + a[0];
  for (int i = 0; i < 2; ++i)
    largest(a, 3) += s * i;
  return s + a[1] * a[2];
}

static double &at(std::vector<double> &v, int i) { return v[i]; }
static const double &cat(const std::array<double, 3> &a, int i) {
  return a[i];
}

[[grad, grad::forward]] double cells(double x, double y) {
  std::vector<double> v = {x, y, x * y};
  std::array<double, 3> a = {y, x, 0.5};
  double s = at(v, 1) * x + cat(a, 0) * at(v, 0);
  at(v, 2) *= y;
  for (int i = 0; i < 3; ++i)
    at(v, i) += cat(a, i) * s;
  v.push_back(s);
  s += at(v, 3) * y;
  return s + v[2] + v[0] * v[1];
}

int main() {
  both("grid", grid, grid_pullback, grid_pushforward, 0.7, 1.3);
  both("grid2", grid, grid_pullback, grid_pushforward, 2.1, -0.4);
  both("peaks", peaks, peaks_pullback, peaks_pushforward, 0.7, 1.3);
  both("peaks2", peaks, peaks_pullback, peaks_pushforward, 2.1, -0.4);
  both("cells", cells, cells_pullback, cells_pushforward, 0.7, 1.3);
  both("cells2", cells, cells_pullback, cells_pushforward, 2.1, -0.4);
  return failures();
}
// CHECK: ok grid.d0
// CHECK: ok grid.d1
// CHECK: ok grid.fwd.x
// CHECK: ok grid2.fwd.y
// CHECK: ok peaks.d0
// CHECK: ok peaks.d1
// CHECK: ok peaks.fwd.x
// CHECK: ok peaks2.fwd.y
// CHECK: ok cells.d0
// CHECK: ok cells.d1
// CHECK: ok cells.fwd.x
// CHECK: ok cells2.fwd.y
