// A capture-free lambda that reads a mutable global is not pure: reverse
// lowering. The global gets no adjoint (it is not a parameter) but the
// gradient of the parameters is right; a const global keeps it pure.
// RUN: %gradxx -I%S/Inputs %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -I%S/Inputs -fsyntax-only -fplugin-arg-grad-remarks %s 2>&1 | %FileCheck-strict %s --check-prefix=REMARK --implicit-check-not=remark:
#include "mapcheck.h"

#include <cmath>
#include <vector>

using V = std::vector<double>;

double s = 1.5;
const double k = 2.0;
constexpr double c = 0.5;

// REMARK-DAG: reads-global.cpp:[[@LINE+4]]:30: remark: grad: reverse lowering for the callable passed to 'grad::map' in 'reads': reads global 's'
// REMARK-DAG: reads-global.cpp:[[@LINE+3]]:30: remark: grad: generated '_grad_lambda_{{[0-9]+}}_pullback' for '_grad_lambda_{{[0-9]+}}'
// REMARK-DAG: reads-global.cpp:[[@LINE+1]]:17: remark: grad: generated 'reads_pullback' for 'reads'
[[grad]] double reads(const V &x) {
  return grad::sum(grad::map([](double z) { return s * std::sin(z) * z; }, x));
}

// REMARK-DAG: reads-global.cpp:[[@LINE+3]]:30: remark: grad: forward lowering for the callable passed to 'grad::map' in 'reads_const': capture-free and pure
// REMARK-DAG: reads-global.cpp:[[@LINE+1]]:17: remark: grad: generated 'reads_const_pullback' for 'reads_const'
[[grad]] double reads_const(const V &x) {
  return grad::sum(grad::map([](double z) { return k * z * z + c * z; }, x));
}

int main() {
  const V x{0.3, -1.2, 2.5};
  V dx(3);
  reads_pullback(x, 1.0, &dx);
  // CHECK: ok reads[2]
  mapcheck::check_elems("reads", [](const V &v) { return reads(v); }, x, dx);
  // The global changes between calls: the pullback reads its current value.
  s = -0.25;
  V ex(3);
  reads_pullback(x, 1.0, &ex);
  // CHECK: ok reads.changed[2]
  mapcheck::check_elems("reads.changed", [](const V &v) { return reads(v); }, x, ex);
  V fx(3);
  reads_const_pullback(x, 1.0, &fx);
  // CHECK: ok reads_const[2]
  mapcheck::check_values("reads_const", fx, V{2 * 2 * 0.3 + 0.5, 2 * 2 * -1.2 + 0.5, 2 * 2 * 2.5 + 0.5});
  return gradcheck::failures();
}
