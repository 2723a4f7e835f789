// A scalar captured by value, explicitly and by default: reverse lowering;
// the captured parameter's adjoint sums over the elements.
// RUN: %gradxx -I%S/Inputs %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -I%S/Inputs -fsyntax-only -fplugin-arg-grad-remarks %s 2>&1 | %FileCheck-strict %s --check-prefix=REMARK --implicit-check-not=remark:
#include "mapcheck.h"

#include <cmath>
#include <vector>

using V = std::vector<double>;

// REMARK-DAG: reverse-capture-value.cpp:[[@LINE+4]]:30: remark: grad: reverse lowering for the callable passed to 'grad::map' in 'scale': captures 'w'
// REMARK-DAG: reverse-capture-value.cpp:[[@LINE+3]]:30: remark: grad: generated '_grad_lambda_{{[0-9]+}}_pullback' for '_grad_lambda_{{[0-9]+}}'
// REMARK-DAG: reverse-capture-value.cpp:[[@LINE+1]]:17: remark: grad: generated 'scale_pullback' for 'scale'
[[grad]] double scale(const V &x, double w) {
  return grad::sum(grad::map([w](double z) { return std::exp(w * z); }, x));
}

// REMARK-DAG: reverse-capture-value.cpp:[[@LINE+5]]:30: remark: grad: reverse lowering for the callable passed to 'grad::map' in 'scale_default': captures 'b'
// REMARK-DAG: reverse-capture-value.cpp:[[@LINE+4]]:30: remark: grad: generated '_grad_lambda_{{[0-9]+}}_pullback' for '_grad_lambda_{{[0-9]+}}'
// REMARK-DAG: reverse-capture-value.cpp:[[@LINE+1]]:17: remark: grad: generated 'scale_default_pullback' for 'scale_default'
[[grad]] double scale_default(const V &x, double a) {
  double b = a * 3.0;
  return grad::sum(grad::map([=](double z) { return b * z * z + b; }, x));
}

int main() {
  const V x{0.3, -1.2, 2.5};
  V dx(3);
  double dw = 0;
  scale_pullback(x, 0.6, 1.0, &dx, &dw);
  // CHECK: ok scale.x[2]
  mapcheck::check_elems("scale.x", [](const V &v) { return scale(v, 0.6); }, x, dx);
  // CHECK: ok scale.w
  mapcheck::check_elems("scale.w", [&](double w) { return scale(x, w); }, 0.6, dw);
  // Closed form: d/dw = sum z exp(w z).
  double want = 0;
  for (double z : x)
    want += z * std::exp(0.6 * z);
  // CHECK: ok scale.w.closed
  gradcheck::expect("scale.w.closed", dw, want);

  V ex(3);
  double da = 0;
  scale_default_pullback(x, -0.4, 1.0, &ex, &da);
  // CHECK: ok scale_default.x[2]
  mapcheck::check_elems("scale_default.x", [](const V &v) { return scale_default(v, -0.4); }, x, ex);
  // CHECK: ok scale_default.a
  mapcheck::check_elems("scale_default.a", [&](double a) { return scale_default(x, a); }, -0.4, da);
  return gradcheck::failures();
}
