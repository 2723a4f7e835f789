// Local containers of containers (`std::vector<std::vector<double>> a(n,
// std::vector<double>(k))`, a matrix as a vector of rows): the shadow is a
// copy made at the declaration, every element zeroed, so each row's
// shadow has the row's size; also declared in a loop with a size that
// changes per iteration, and rows bound to references. (It was an error:
// "a container of 'std::vector<double>'".) A pointer into a row from a
// parameter (`m[i].data()`) is an error (diagnostics/class-values.cpp): it
// was tracked at a byte offset from the outer vector's data.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
// DUMP-LABEL: void loopnest_pullback({{.*}}) {
// DUMP: grad::detail::slot<std::vector<std::vector<double>>> _d_t_s0;
// DUMP: std::vector<std::vector<double>> t(it, std::vector<double>(2));
// DUMP-NEXT: _d_t_s0.emplace(t);
// DUMP-NEXT: ::grad::detail::zero(_d_t);
// DUMP: _z0 = 1UL;
// DUMP-NEXT: _d_t_s0.save();
#include <vector>
#include <cmath>
#include "gradcheck.h"
using VV = std::vector<std::vector<double>>;
// A matrix as a vector of rows, filled and read.
[[grad]] double rows(const double *x, int n) {
  VV a(n, std::vector<double>(n + 1));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= n; ++j)
      a[i][j] = std::sin(x[i] * (j + 1));
  double s = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      s += a[i][j] * a[j][i + 1] * x[j];
  return s;
}
// In a loop, with sizes per iteration; rows by reference.
[[grad]] double loopnest(double x, int n) {
  double s = 0;
  for (int it = 1; it <= n; ++it) {
    std::vector<std::vector<double>> t(it, std::vector<double>(2));
    for (int i = 0; i < it; ++i) {
      std::vector<double> &r = t[i];
      r[0] = x * (i + it);
      r[1] = std::cos(x * i);
    }
    for (int i = 0; i < it; ++i)
      s += t[i][0] * t[i][1];
  }
  return s;
}
// (A parameter: its rows by reference.)
[[grad]] double rowrefs(const std::vector<std::vector<double>> &m, double x) {
  double s = 0;
  for (size_t i = 0; i < m.size(); ++i) {
    const std::vector<double> &row = m[i];
    s += row[0] * row[1] * x;
  }
  return s;
}
int main() {
  using namespace gradcheck;
  {
    double x[3] = {0.3, -0.7, 1.1}, dx[3] = {0, 0, 0};
    rows_pullback(x, 3, 1.0, dx);
    for (int k = 0; k < 3; ++k) {
      double xp[3] = {x[0], x[1], x[2]}, xm[3] = {x[0], x[1], x[2]};
      xp[k] += 1e-6; xm[k] -= 1e-6;
      expect("rows", dx[k], (rows(xp, 3) - rows(xm, 3)) / 2e-6);
    }
  }
  {
    double dx = 0;
    loopnest_pullback(0.4, 3, 1.0, &dx);
    expect("loopnest", dx, fd([](double x) { return loopnest(x, 3); }, 0, 0.4));
  }
  {
    VV m{{0.5, 0.3}, {0.7, -0.2}, {1.1, 0.4}};
    VV dm{{0, 0}, {0, 0}, {0, 0}};
    double dx = 0;
    rowrefs_pullback(m, 0.6, 1.0, &dm, &dx);
    expect("rowrefs.m21", dm[2][1], m[2][0] * 0.6);
    expect("rowrefs.x", dx, 0.5 * 0.3 + 0.7 * -0.2 + 1.1 * 0.4);
  }
  return failures();
}
// CHECK-COUNT-3: ok rows
// CHECK: ok loopnest
// CHECK: ok rowrefs.m21
// CHECK: ok rowrefs.x
