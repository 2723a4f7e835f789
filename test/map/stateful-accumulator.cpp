// A lambda that writes a by-reference capture (a running sum) is stateful:
// the state each element saw is replayed in reverse. For
// sum(map([&acc](z) { acc += z; return acc; }, x)) the gradient is
// [n, n-1, ..., 1].
// RUN: %gradxx -I%S/Inputs %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -I%S/Inputs -fsyntax-only -fplugin-arg-grad-remarks %s 2>&1 | %FileCheck-strict %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: %dump %s %dflags -I%S/Inputs | FileCheck %s --check-prefix=DUMP
#include "mapcheck.h"

#include <cmath>
#include <vector>

using V = std::vector<double>;

// DUMP-LABEL: void running_pullback(const V &x, double d_ret, V *d_x) {
// DUMP-NOT: tangent_pullback
// DUMP: bind_record
// DUMP: reverse_pullback<&::_grad_lambda_{{[0-9]+}}_pullback>(
// REMARK-DAG: stateful-accumulator.cpp:[[@LINE+5]]:30: remark: grad: reverse lowering for the callable passed to 'grad::map' in 'running': writes 'acc'
// REMARK-DAG: stateful-accumulator.cpp:[[@LINE+4]]:30: remark: grad: generated '_grad_lambda_{{[0-9]+}}_pullback' for '_grad_lambda_{{[0-9]+}}'
// REMARK-DAG: stateful-accumulator.cpp:[[@LINE+1]]:17: remark: grad: generated 'running_pullback' for 'running'
[[grad]] double running(const V &x) {
  double acc = 0;
  return grad::sum(grad::map([&acc](double z) { acc += z; return acc; }, x));
}

// Nonlinear state, and the state read after the map.
// REMARK-DAG: stateful-accumulator.cpp:[[@LINE+3]]:34: remark: grad: reverse lowering for the callable passed to 'grad::map' in 'product': writes 'p'
[[grad]] double product(const V &x, double p0) {
  double p = p0;
  double s = grad::sum(grad::map([&](double z) { p = p * std::sin(z) + z; return p * z; }, x));
  return s + p * p;
}

int main() {
  const V x{0.3, -1.2, 2.5, 0.7, -0.4};
  V dx(5);
  running_pullback(x, 1.0, &dx);
  // CHECK: ok running[0]
  // CHECK: ok running[4]
  mapcheck::check_values("running", dx, V{5, 4, 3, 2, 1});
  // CHECK: ok running.fd[4]
  mapcheck::check_elems("running.fd", [](const V &v) { return running(v); }, x, V(dx.begin(), dx.end()));

  V ex(5);
  double dp = 0;
  product_pullback(x, 0.9, 1.0, &ex, &dp);
  // CHECK: ok product.x[4]
  mapcheck::check_elems("product.x", [](const V &v) { return product(v, 0.9); }, x, ex);
  // CHECK: ok product.p0
  mapcheck::check_elems("product.p0", [&](double p) { return product(x, p); }, 0.9, dp);
  return gradcheck::failures();
}
