// broadcast over a (2x3) tensor, a (3) tensor and a scalar: every operand's
// adjoint is summed back to its own shape (the scalar's over all six
// elements) in the forward pass, with no separate unbroadcast.
// RUN: %gradxx -I%S/Inputs %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -I%S/Inputs -fsyntax-only -fplugin-arg-grad-remarks %s 2>&1 | %FileCheck-strict %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: %dump %s %dflags -I%S/Inputs | FileCheck %s --check-prefix=DUMP
#include "mapcheck.h"

#include <cmath>

using T = grad::tensor<double>;

// DUMP-LABEL: void mrs_pullback(const T &a, const T &b, double s, double d_ret, T *d_a, T *d_b, double *d_s) {
// DUMP-NOT: tape
// DUMP-NOT: unbroadcast
// DUMP: tangent_pullback<&::_grad_tangent_{{[0-9]+}}, 3UL>(d_ret, ::grad::detail::pack(a, b, s), ::grad::detail::adjoints(d_a, d_b, &_d_s));
// DUMP-NEXT: *d_s += _d_s;
// DUMP-NEXT: }
// REMARK-DAG: broadcast-matrix-row-scalar.cpp:[[@LINE+3]]:36: remark: grad: forward lowering for the callable passed to 'grad::broadcast' in 'mrs': capture-free and pure
// REMARK-DAG: broadcast-matrix-row-scalar.cpp:[[@LINE+1]]:17: remark: grad: generated 'mrs_pullback' for 'mrs'
[[grad]] double mrs(const T &a, const T &b, double s) {
  return grad::sum(grad::broadcast([](double x, double y, double z) { return x * std::sin(y) + z * x * y + z * z; }, a, b, s));
}

// The seed is a tensor when the result is used elementwise (dot).
[[grad]] double mrs_dot(const T &a, const T &b, double s, const T &w) {
  return grad::dot(grad::broadcast([](double x, double y, double z) { return std::exp(x - y) * z; }, a, b, s), w);
}

int main() {
  const T a({2, 3}, {0.3, -1.2, 2.5, 0.7, -0.1, 1.9});
  const T b({3}, {0.5, 1.5, -0.7});
  const double s = 0.8;
  T da({2, 3}), db({3});
  double ds = 0;
  mrs_pullback(a, b, s, 1.0, &da, &db, &ds);
  // CHECK: ok mrs.a[5]
  // CHECK: ok mrs.b[0]
  // CHECK: ok mrs.b[1]
  // CHECK: ok mrs.b[2]
  // CHECK: ok mrs.s
  mapcheck::check_elems("mrs.a", [&](const T &v) { return mrs(v, b, s); }, a, da);
  mapcheck::check_elems("mrs.b", [&](const T &v) { return mrs(a, v, s); }, b, db);
  mapcheck::check_elems("mrs.s", [&](double v) { return mrs(a, b, v); }, s, ds);

  const T w({2, 3}, {1.0, -2.0, 0.5, 0.25, 3.0, -1.0});
  T ea({2, 3}), eb({3}), ew({2, 3});
  double es = 0;
  mrs_dot_pullback(a, b, s, w, 1.0, &ea, &eb, &es, &ew);
  // CHECK: ok mrs_dot.a[5]
  // CHECK: ok mrs_dot.b[2]
  // CHECK: ok mrs_dot.s
  // CHECK: ok mrs_dot.w[5]
  mapcheck::check_elems("mrs_dot.a", [&](const T &v) { return mrs_dot(v, b, s, w); }, a, ea);
  mapcheck::check_elems("mrs_dot.b", [&](const T &v) { return mrs_dot(a, v, s, w); }, b, eb);
  mapcheck::check_elems("mrs_dot.s", [&](double v) { return mrs_dot(a, b, v, w); }, s, es);
  mapcheck::check_elems("mrs_dot.w", [&](const T &v) { return mrs_dot(a, b, s, v); }, w, ew);
  return gradcheck::failures();
}
