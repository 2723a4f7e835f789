// A lambda capturing a grad::tensor (by reference and by value) and indexing
// it: the tensor's adjoint gets every element's contribution.
// RUN: %gradxx -I%S/Inputs %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -I%S/Inputs -fsyntax-only -fplugin-arg-grad-remarks %s 2>&1 | %FileCheck-strict %s --check-prefix=REMARK --implicit-check-not=remark:
#include "mapcheck.h"

#include <cmath>

using T = grad::tensor<double>;

// REMARK-DAG: reverse-capture-tensor.cpp:[[@LINE+4]]:30: remark: grad: reverse lowering for the callable passed to 'grad::map' in 'by_ref': captures 'w'
// REMARK-DAG: reverse-capture-tensor.cpp:[[@LINE+3]]:30: remark: grad: generated '_grad_lambda_{{[0-9]+}}_pullback' for '_grad_lambda_{{[0-9]+}}'
// REMARK-DAG: reverse-capture-tensor.cpp:[[@LINE+1]]:17: remark: grad: generated 'by_ref_pullback' for 'by_ref'
[[grad]] double by_ref(const T &x, const T &w) {
  return grad::sum(grad::map([&w](double z) { return w[0] * z * z + w[1] * std::sin(z) + w[3]; }, x));
}

// REMARK-DAG: reverse-capture-tensor.cpp:[[@LINE+4]]:30: remark: grad: reverse lowering for the callable passed to 'grad::map' in 'by_value': captures 'w'
// REMARK-DAG: reverse-capture-tensor.cpp:[[@LINE+3]]:30: remark: grad: generated '_grad_lambda_{{[0-9]+}}_pullback' for '_grad_lambda_{{[0-9]+}}'
// REMARK-DAG: reverse-capture-tensor.cpp:[[@LINE+1]]:17: remark: grad: generated 'by_value_pullback' for 'by_value'
[[grad]] double by_value(const T &x, const T &w) {
  return grad::sum(grad::map([w](double z) { return std::exp(w[2] * z) * w[3]; }, x));
}

int main() {
  const T x({2, 3}, {0.3, -1.2, 2.5, 0.7, -0.1, 1.9});
  const T w({2, 2}, {0.5, -1.5, 0.25, 2.0});
  T dx({2, 3}), dw({2, 2});
  by_ref_pullback(x, w, 1.0, &dx, &dw);
  // CHECK: ok by_ref.x[5]
  mapcheck::check_elems("by_ref.x", [&](const T &v) { return by_ref(v, w); }, x, dx);
  // CHECK: ok by_ref.w[0]
  // CHECK: ok by_ref.w[1]
  // CHECK: ok by_ref.w[2]
  // CHECK: ok by_ref.w[3]
  mapcheck::check_elems("by_ref.w", [&](const T &v) { return by_ref(x, v); }, w, dw);

  T ex({2, 3}), ew({2, 2});
  by_value_pullback(x, w, 1.0, &ex, &ew);
  // CHECK: ok by_value.x[5]
  mapcheck::check_elems("by_value.x", [&](const T &v) { return by_value(v, w); }, x, ex);
  // CHECK: ok by_value.w[3]
  mapcheck::check_elems("by_value.w", [&](const T &v) { return by_value(x, v); }, w, ew);
  return gradcheck::failures();
}
