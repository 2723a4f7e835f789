// broadcast of a (3x1) column with a (1x4) row: an outer operation of shape
// (3x4); each adjoint is summed over the axis its operand was expanded along.
// RUN: %gradxx -I%S/Inputs %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -I%S/Inputs -fsyntax-only -fplugin-arg-grad-remarks %s 2>&1 | %FileCheck-strict %s --check-prefix=REMARK --implicit-check-not=remark:
#include "mapcheck.h"

#include <cmath>

using T = grad::tensor<double>;

// REMARK-DAG: broadcast-column-row.cpp:[[@LINE+3]]:36: remark: grad: forward lowering for the callable passed to 'grad::broadcast' in 'outer': capture-free and pure
// REMARK-DAG: broadcast-column-row.cpp:[[@LINE+1]]:17: remark: grad: generated 'outer_pullback' for 'outer'
[[grad]] double outer(const T &c, const T &r) {
  return grad::sum(grad::broadcast([](double x, double y) { return std::tanh(x * y) + x * x * y; }, c, r));
}

// Same shapes, with a capture: reverse lowering does the same summing.
// REMARK-DAG: broadcast-column-row.cpp:[[@LINE+4]]:36: remark: grad: reverse lowering for the callable passed to 'grad::broadcast' in 'outer_cap': captures 'k'
// REMARK-DAG: broadcast-column-row.cpp:[[@LINE+3]]:36: remark: grad: generated '_grad_lambda_{{[0-9]+}}_pullback' for '_grad_lambda_{{[0-9]+}}'
// REMARK-DAG: broadcast-column-row.cpp:[[@LINE+1]]:17: remark: grad: generated 'outer_cap_pullback' for 'outer_cap'
[[grad]] double outer_cap(const T &c, const T &r, double k) {
  return grad::sum(grad::broadcast([&](double x, double y) { return std::sin(k * x + y); }, c, r));
}

int main() {
  const T c({3, 1}, {0.3, -1.2, 2.5});
  const T r({1, 4}, {0.5, 1.5, -0.7, 0.1});
  T dc({3, 1}), dr({1, 4});
  outer_pullback(c, r, 1.0, &dc, &dr);
  // CHECK: ok outer.c[2]
  // CHECK: ok outer.r[3]
  mapcheck::check_elems("outer.c", [&](const T &v) { return outer(v, r); }, c, dc);
  mapcheck::check_elems("outer.r", [&](const T &v) { return outer(c, v); }, r, dr);
  T ec({3, 1}), er({1, 4});
  double dk = 0;
  outer_cap_pullback(c, r, 0.6, 1.0, &ec, &er, &dk);
  // CHECK: ok outer_cap.c[2]
  // CHECK: ok outer_cap.r[3]
  // CHECK: ok outer_cap.k
  mapcheck::check_elems("outer_cap.c", [&](const T &v) { return outer_cap(v, r, 0.6); }, c, ec);
  mapcheck::check_elems("outer_cap.r", [&](const T &v) { return outer_cap(c, v, 0.6); }, r, er);
  mapcheck::check_elems("outer_cap.k", [&](double v) { return outer_cap(c, r, v); }, 0.6, dk);
  return gradcheck::failures();
}
