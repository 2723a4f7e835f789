// A callable that looks capture-free but writes a global (s += z) is caught
// and replayed as stateful, whether it is a lambda or a named function.
// RUN: %gradxx -I%S/Inputs %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -I%S/Inputs -fsyntax-only -fplugin-arg-grad-remarks %s 2>&1 | %FileCheck-strict %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: %dump %s %dflags -I%S/Inputs | FileCheck %s --check-prefix=DUMP
#include "mapcheck.h"

#include <cmath>
#include <vector>

using V = std::vector<double>;

double s = 0;

static double bump(double z) {
  s += z;
  return s * z;
}

// DUMP-LABEL: void global_lambda_pullback(const V &x, double d_ret, V *d_x) {
// DUMP-NOT: tangent_pullback
// DUMP: reverse_pullback<
// REMARK-DAG: stateful-global.cpp:[[@LINE+4]]:30: remark: grad: reverse lowering for the callable passed to 'grad::map' in 'global_lambda': writes global 's'
// REMARK-DAG: stateful-global.cpp:[[@LINE+3]]:30: remark: grad: generated '_grad_lambda_{{[0-9]+}}_pullback' for '_grad_lambda_{{[0-9]+}}'
// REMARK-DAG: stateful-global.cpp:[[@LINE+1]]:17: remark: grad: generated 'global_lambda_pullback' for 'global_lambda'
[[grad]] double global_lambda(const V &x) {
  return grad::sum(grad::map([](double z) { s += z; return s; }, x));
}

// DUMP-LABEL: void global_fn_pullback(const V &x, double d_ret, V *d_x) {
// DUMP-NOT: tangent_pullback
// DUMP: reverse_pullback<
// REMARK-DAG: stateful-global.cpp:[[@LINE+4]]:30: remark: grad: reverse lowering for the callable passed to 'grad::map' in 'global_fn': writes global 's'
// REMARK-DAG: stateful-global.cpp:[[@LINE-19]]:15: remark: grad: generated '_grad_lambda_{{[0-9]+}}_pullback' for '_grad_lambda_{{[0-9]+}}'
// REMARK-DAG: stateful-global.cpp:[[@LINE+1]]:17: remark: grad: generated 'global_fn_pullback' for 'global_fn'
[[grad]] double global_fn(const V &x) {
  return grad::sum(grad::map(bump, x));
}

int main() {
  const V x{0.3, -1.2, 2.5, 0.7};
  // The global is reset before every call, primal or pullback.
  V dx(4);
  s = 0;
  global_lambda_pullback(x, 1.0, &dx);
  // CHECK: ok global_lambda[0]
  // CHECK: ok global_lambda[3]
  mapcheck::check_values("global_lambda", dx, V{4, 3, 2, 1});

  // CHECK: ok global_lambda.fd[3]
  mapcheck::check_elems("global_lambda.fd", [](const V &v) { s = 0; return global_lambda(v); }, x, V(dx));

  V ex(4);
  s = 0.5;
  global_fn_pullback(x, 1.0, &ex);
  // CHECK: ok global_fn[3]
  mapcheck::check_elems("global_fn", [](const V &v) { s = 0.5; return global_fn(v); }, x, ex);
  return gradcheck::failures();
}
