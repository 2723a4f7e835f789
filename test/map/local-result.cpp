// A map result stored in a local and read twice: both uses contribute to the
// adjoint of the operand.
// RUN: %gradxx -I%S/Inputs %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -I%S/Inputs -fsyntax-only -fplugin-arg-grad-remarks %s 2>&1 | %FileCheck-strict %s --check-prefix=REMARK --implicit-check-not=remark:
#include "mapcheck.h"

#include <cmath>
#include <vector>

using V = std::vector<double>;

// REMARK-DAG: local-result.cpp:[[@LINE+3]]:22: remark: grad: forward lowering for the callable passed to 'grad::map' in 'twice': capture-free and pure
// REMARK-DAG: local-result.cpp:[[@LINE+1]]:17: remark: grad: generated 'twice_pullback' for 'twice'
[[grad]] double twice(const V &x, const V &w) {
  auto y = grad::map([](double z) { return std::tanh(z) * z; }, x);
  return grad::sum(y) * grad::dot(y, w) + grad::sum(y);
}

// The same with a tensor.
[[grad]] double twice_t(const grad::tensor<double> &x) {
  auto y = grad::map([](double z) { return std::exp(-z * z); }, x);
  return grad::dot(y, y) + 3.0 * grad::sum(y);
}

int main() {
  const V x{0.3, -1.2, 2.5, 0.8}, w{1.5, -0.5, 0.25, 2.0};
  V dx(4), dw(4);
  twice_pullback(x, w, 1.0, &dx, &dw);
  // CHECK: ok twice.x[0]
  // CHECK: ok twice.x[3]
  // CHECK: ok twice.w[3]
  mapcheck::check_elems("twice.x", [&](const V &v) { return twice(v, w); }, x, dx);
  mapcheck::check_elems("twice.w", [&](const V &v) { return twice(x, v); }, w, dw);

  grad::tensor<double> t({2, 2}, {0.1, -0.7, 1.3, 0.4}), dt({2, 2});
  twice_t_pullback(t, 1.0, &dt);
  // CHECK: ok twice_t[3]
  mapcheck::check_elems("twice_t", [](const grad::tensor<double> &v) { return twice_t(v); }, t, dt);
  return gradcheck::failures();
}
