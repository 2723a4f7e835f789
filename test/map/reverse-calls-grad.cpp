// A lambda that calls a [[grad]] function (and one that calls a plain
// function with a visible body) has no dual-number rule for the call: reverse
// lowering through the callee's pullback.
// RUN: %gradxx -I%S/Inputs %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -I%S/Inputs -fsyntax-only -fplugin-arg-grad-remarks %s 2>&1 | %FileCheck-strict %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: %dump %s %dflags -I%S/Inputs | FileCheck %s --check-prefix=DUMP
#include "mapcheck.h"

#include <cmath>
#include <vector>

using V = std::vector<double>;

// REMARK-DAG: reverse-calls-grad.cpp:[[@LINE+1]]:17: remark: grad: generated 'g_pullback' for 'g'
[[grad]] double g(double z) { return z * std::sin(z); }

double h(double a, double b) { return a * a * b; }

// DUMP-LABEL: void calls_g_pullback(const V &x, double d_ret, V *d_x) {
// DUMP-NOT: tangent_pullback
// DUMP: reverse_pullback<&::_grad_lambda_{{[0-9]+}}_pullback>(
// DUMP-LABEL: void _grad_lambda_{{[0-9]+}}_pullback(double z, double d_ret, double *d_z) {
// DUMP: g_pullback(
// REMARK-DAG: reverse-calls-grad.cpp:[[@LINE+4]]:30: remark: grad: reverse lowering for the callable passed to 'grad::map' in 'calls_g': calls 'g'
// REMARK-DAG: reverse-calls-grad.cpp:[[@LINE+3]]:30: remark: grad: generated '_grad_lambda_{{[0-9]+}}_pullback' for '_grad_lambda_{{[0-9]+}}'
// REMARK-DAG: reverse-calls-grad.cpp:[[@LINE+1]]:17: remark: grad: generated 'calls_g_pullback' for 'calls_g'
[[grad]] double calls_g(const V &x) {
  return grad::sum(grad::map([](double z) { return g(z) + 1.0; }, x));
}

// REMARK-DAG: reverse-calls-grad.cpp:[[@LINE+5]]:30: remark: grad: reverse lowering for the callable passed to 'grad::map' in 'calls_h': calls 'h'
// REMARK-DAG: reverse-calls-grad.cpp:[[@LINE+4]]:30: remark: grad: generated '_grad_lambda_{{[0-9]+}}_pullback' for '_grad_lambda_{{[0-9]+}}'
// REMARK-DAG: reverse-calls-grad.cpp:[[@LINE-16]]:8: remark: grad: generated 'h_pullback' for 'h'
// REMARK-DAG: reverse-calls-grad.cpp:[[@LINE+1]]:17: remark: grad: generated 'calls_h_pullback' for 'calls_h'
[[grad]] double calls_h(const V &x, const V &y) {
  return grad::sum(grad::map([](double a, double b) { return h(a, b) + std::exp(b); }, x, y));
}

int main() {
  const V x{0.3, -1.2, 2.5}, y{0.5, 1.5, -0.7};
  V dx(3);
  calls_g_pullback(x, 1.0, &dx);
  // CHECK: ok calls_g[2]
  mapcheck::check_elems("calls_g", [](const V &v) { return calls_g(v); }, x, dx);
  V ex(3), ey(3);
  calls_h_pullback(x, y, 1.0, &ex, &ey);
  // CHECK: ok calls_h.x[2]
  // CHECK: ok calls_h.y[2]
  mapcheck::check_elems("calls_h.x", [&](const V &v) { return calls_h(v, y); }, x, ex);
  mapcheck::check_elems("calls_h.y", [&](const V &v) { return calls_h(x, v); }, y, ey);
  return gradcheck::failures();
}
