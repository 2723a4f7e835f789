// Range-based for over a row of a container of containers or of a 2-D
// array, by value (`for (double e : a[i])`, `m[1]`), indexed by counters of
// enclosing loops, integer parameters or constants: the elements are read
// by index, their adjoints go to the same elements of the shadow (was "range-
// based 'for' loop over an expression"). Also with the rows written in the
// loop, break and continue, and in a helper called at depth 2.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s --function=rows %dflags | FileCheck %s --check-prefix=DUMP
#include "gradcheck.h"
#include <cmath>
#include <vector>
using namespace gradcheck;

[[grad]] double rows(double x, double y) {
  std::vector<std::vector<double>> a{{x, y}, {y, x}};
  double s = 0;
  for (int i = 0; i < 2; ++i)
    for (double e : a[i])
      s += e * e * (i + 1);
  return s;
}
// The reverse sweep reads the element again through its own counters.
// DUMP: for (unsigned long _k0 = 0UL; _k0 < a[i].size(); ++_k0) {
// DUMP: unsigned long _k1 = --_n1;
// DUMP-NEXT: double e = a[i][_k1];
// DUMP: _d_a[i][_k1] += _d_e;

[[grad]] double rows_written(double x, double y) {
  std::vector<std::vector<double>> a{{x, y}, {y, x}};
  double s = 0;
  for (int i = 0; i < 2; ++i) {
    for (double e : a[i])
      s += std::sin(e) * s + e;
    a[1 - i][0] *= s;
  }
  return s + a[0][0];
}
[[grad]] double rows_const(double x, double y) {
  double m[2][3] = {{x, y, x * y}, {y, 1.0, x}};
  double s = 0;
  for (int i = 0; i < 2; ++i)
    for (double e : m[i])
      s += e * e * (i + 1);
  for (double e : m[1])
    s *= e + 1.5;
  return s;
}
double rowsum(const std::vector<std::vector<double>> &a, int i) {
  double s = 0;
  for (double e : a[i])
    s += e * e;
  return s;
}
double twice_rows(const std::vector<std::vector<double>> &a) {
  double t = 0;
  for (int i = 0; i < 2; ++i)
    t += rowsum(a, i) * (i + 1);
  return t;
}
[[grad]] double split_rows(double x, double y) {
  std::vector<std::vector<double>> a{{x, y}, {y * y, x}};
  return twice_rows(a);
}
[[grad]] double jumps(double x, double y) {
  double m[3][3] = {{x, y, 1.0}, {y, x * y, 2.0}, {0.5, x, y}};
  double s = 0;
  for (int i = 0; i < 3; ++i)
    for (double e : m[i]) {
      if (e > 1.9)
        break;
      if (e < 0.6)
        continue;
      s += std::exp(e) * (i + 1);
    }
  return s;
}
int main() {
  double X = 0.7, Y = 1.3;
#define CHECK2(F)                                                              \
  {                                                                            \
    double dx = 0, dy = 0;                                                     \
    F##_pullback(X, Y, 1.0, &dx, &dy);                                         \
    expect(#F " dx", dx, fd(F, 0, X, Y));                                      \
    expect(#F " dy", dy, fd(F, 1, X, Y));                                      \
  }
  CHECK2(rows) CHECK2(rows_written) CHECK2(rows_const) CHECK2(split_rows) CHECK2(jumps)
  return failures();
}
// CHECK: ok rows dx
// CHECK-NEXT: ok rows dy
// CHECK-NEXT: ok rows_written dx
// CHECK-NEXT: ok rows_written dy
// CHECK-NEXT: ok rows_const dx
// CHECK-NEXT: ok rows_const dy
// CHECK-NEXT: ok split_rows dx
// CHECK-NEXT: ok split_rows dy
// CHECK-NEXT: ok jumps dx
// CHECK-NEXT: ok jumps dy
