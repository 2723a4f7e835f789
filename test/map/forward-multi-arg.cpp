// Capture-free lambdas of two and three arguments: forward lowering with one
// dual slot per active operand, every operand's adjoint from the same pass.
// RUN: %gradxx -I%S/Inputs %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -I%S/Inputs -fsyntax-only -fplugin-arg-grad-remarks %s 2>&1 | %FileCheck-strict %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: %dump %s %dflags -I%S/Inputs | FileCheck %s --check-prefix=DUMP
#include "mapcheck.h"

#include <cmath>
#include <vector>

using V = std::vector<double>;

// DUMP-LABEL: static inline ::grad::dual<double, 2UL> _grad_tangent_{{[0-9]+}}(::grad::dual<double, 2UL> a, ::grad::dual<double, 2UL> b) {
// DUMP-LABEL: void two_pullback(const V &x, const V &y, double d_ret, V *d_x, V *d_y) {
// DUMP-NOT: tape
// DUMP: ::grad::detail::tangent_pullback<&::_grad_tangent_{{[0-9]+}}, 2UL>(d_ret, ::grad::detail::pack(x, y), ::grad::detail::adjoints(d_x, d_y));
// DUMP-NEXT: }
// REMARK-DAG: forward-multi-arg.cpp:[[@LINE+3]]:30: remark: grad: forward lowering for the callable passed to 'grad::map' in 'two': capture-free and pure
// REMARK-DAG: forward-multi-arg.cpp:[[@LINE+1]]:17: remark: grad: generated 'two_pullback' for 'two'
[[grad]] double two(const V &x, const V &y) {
  return grad::sum(grad::map([](double a, double b) { return a * std::sin(b) + a / b; }, x, y));
}

// DUMP-LABEL: static inline ::grad::dual<double, 3UL> _grad_tangent_{{[0-9]+}}(::grad::dual<double, 3UL> a, ::grad::dual<double, 3UL> b, ::grad::dual<double, 3UL> c) {
// DUMP-LABEL: void three_pullback(const V &x, const V &y, const V &z, double d_ret, V *d_x, V *d_y, V *d_z) {
// DUMP-NOT: tape
// DUMP: tangent_pullback<&::_grad_tangent_{{[0-9]+}}, 3UL>(d_ret, ::grad::detail::pack(x, y, z), ::grad::detail::adjoints(d_x, d_y, d_z));
// REMARK-DAG: forward-multi-arg.cpp:[[@LINE+3]]:30: remark: grad: forward lowering for the callable passed to 'grad::map' in 'three': capture-free and pure
// REMARK-DAG: forward-multi-arg.cpp:[[@LINE+1]]:17: remark: grad: generated 'three_pullback' for 'three'
[[grad]] double three(const V &x, const V &y, const V &z) {
  return grad::sum(grad::map([](double a, double b, double c) { return a * b * c + std::exp(a - c) * b; }, x, y, z));
}

int main() {
  const V x{0.3, -1.2, 2.5}, y{1.1, 0.7, -0.4}, z{-0.2, 0.9, 1.3};
  V dx(3), dy(3);
  two_pullback(x, y, 1.0, &dx, &dy);
  // CHECK: ok two.x[0]
  // CHECK: ok two.y[2]
  mapcheck::check_elems("two.x", [&](const V &v) { return two(v, y); }, x, dx);
  mapcheck::check_elems("two.y", [&](const V &v) { return two(x, v); }, y, dy);

  V ex(3), ey(3), ez(3);
  three_pullback(x, y, z, 1.0, &ex, &ey, &ez);
  // CHECK: ok three.x[0]
  // CHECK: ok three.y[1]
  // CHECK: ok three.z[2]
  mapcheck::check_elems("three.x", [&](const V &v) { return three(v, y, z); }, x, ex);
  mapcheck::check_elems("three.y", [&](const V &v) { return three(x, v, z); }, y, ey);
  mapcheck::check_elems("three.z", [&](const V &v) { return three(x, y, v); }, z, ez);
  return gradcheck::failures();
}
