// map(f, map(g, x)): the inner map's adjoint flows through the outer one.
// RUN: %gradxx -I%S/Inputs %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -I%S/Inputs -fsyntax-only -fplugin-arg-grad-remarks %s 2>&1 | %FileCheck-strict %s --check-prefix=REMARK --implicit-check-not=remark:
#include "mapcheck.h"

#include <cmath>
#include <vector>

using V = std::vector<double>;

// REMARK-DAG: nested.cpp:[[@LINE+4]]:30: remark: grad: forward lowering for the callable passed to 'grad::map' in 'nested': capture-free and pure
// REMARK-DAG: nested.cpp:[[@LINE+4]]:30: remark: grad: forward lowering for the callable passed to 'grad::map' in 'nested': capture-free and pure
// REMARK-DAG: nested.cpp:[[@LINE+1]]:17: remark: grad: generated 'nested_pullback' for 'nested'
[[grad]] double nested(const V &x) {
  return grad::sum(grad::map([](double u) { return std::sin(u) * u; },
                   grad::map([](double z) { return std::exp(z) + z * z; }, x)));
}

// Three levels, the middle one of two arguments.
// REMARK-DAG: nested.cpp:[[@LINE+6]]:7: remark: grad: forward lowering for the callable passed to 'grad::map' in 'nested3': capture-free and pure
// REMARK-DAG: nested.cpp:[[@LINE+6]]:17: remark: grad: forward lowering for the callable passed to 'grad::map' in 'nested3': capture-free and pure
// REMARK-DAG: nested.cpp:[[@LINE+6]]:27: remark: grad: forward lowering for the callable passed to 'grad::map' in 'nested3': capture-free and pure
// REMARK-DAG: nested.cpp:[[@LINE+1]]:17: remark: grad: generated 'nested3_pullback' for 'nested3'
[[grad]] double nested3(const V &x, const V &y) {
  return grad::sum(grad::map(
      [](double u) { return std::log(u); },
      grad::map([](double a, double b) { return a * a + b * b + 1.0; },
                grad::map([](double z) { return std::tanh(z); }, x), y)));
}

int main() {
  const V x{0.3, -1.2, 0.5}, y{1.1, 0.7, -0.4};
  V dx(3);
  nested_pullback(x, 1.0, &dx);
  // CHECK: ok nested[0]
  // CHECK: ok nested[2]
  mapcheck::check_elems("nested", [](const V &v) { return nested(v); }, x, dx);
  V ex(3), ey(3);
  nested3_pullback(x, y, 1.0, &ex, &ey);
  // CHECK: ok nested3.x[2]
  // CHECK: ok nested3.y[2]
  mapcheck::check_elems("nested3.x", [&](const V &v) { return nested3(v, y); }, x, ex);
  mapcheck::check_elems("nested3.y", [&](const V &v) { return nested3(x, v); }, y, ey);
  return gradcheck::failures();
}
