// The callable may be the name of a function (with or without '&'); it is
// classified from its body like a lambda.
// RUN: %gradxx -I%S/Inputs %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -I%S/Inputs -fsyntax-only -fplugin-arg-grad-remarks %s 2>&1 | %FileCheck-strict %s --check-prefix=REMARK --implicit-check-not=remark:
#include "mapcheck.h"

#include <cmath>
#include <vector>

using V = std::vector<double>;

static double pure_fn(double z) { return std::sin(z) * z; }
static double weighted(double a, double b) { return a * std::exp(b); }
double helper(double z) { return z * z; }
static double calls_helper(double z) { return helper(z) + z; }

// REMARK-DAG: callable-kinds.cpp:[[@LINE+3]]:30: remark: grad: forward lowering for the callable passed to 'grad::map' in 'by_name': capture-free and pure
// REMARK-DAG: callable-kinds.cpp:[[@LINE+1]]:17: remark: grad: generated 'by_name_pullback' for 'by_name'
[[grad]] double by_name(const V &x) {
  return grad::sum(grad::map(pure_fn, x));
}

// REMARK-DAG: callable-kinds.cpp:[[@LINE+3]]:30: remark: grad: forward lowering for the callable passed to 'grad::map' in 'by_address': capture-free and pure
// REMARK-DAG: callable-kinds.cpp:[[@LINE+1]]:17: remark: grad: generated 'by_address_pullback' for 'by_address'
[[grad]] double by_address(const V &x, const V &y) {
  return grad::sum(grad::map(&weighted, x, y));
}

// A function by name whose body calls another function: reverse.
// REMARK-DAG: callable-kinds.cpp:[[@LINE+5]]:30: remark: grad: reverse lowering for the callable passed to 'grad::map' in 'by_name_reverse': calls 'helper'
// REMARK-DAG: callable-kinds.cpp:[[@LINE-16]]:15: remark: grad: generated '_grad_lambda_{{[0-9]+}}_pullback' for '_grad_lambda_{{[0-9]+}}'
// REMARK-DAG: callable-kinds.cpp:[[@LINE-18]]:8: remark: grad: generated 'helper_pullback' for 'helper'
// REMARK-DAG: callable-kinds.cpp:[[@LINE+1]]:17: remark: grad: generated 'by_name_reverse_pullback' for 'by_name_reverse'
[[grad]] double by_name_reverse(const V &x) {
  return grad::sum(grad::map(calls_helper, x));
}

int main() {
  const V x{0.3, -1.2, 2.5}, y{0.5, 1.5, -0.7};
  V d1(3);
  by_name_pullback(x, 1.0, &d1);
  // CHECK: ok by_name[2]
  mapcheck::check_elems("by_name", [](const V &v) { return by_name(v); }, x, d1);
  V d2(3), d3(3);
  by_address_pullback(x, y, 1.0, &d2, &d3);
  // CHECK: ok by_address.x[2]
  // CHECK: ok by_address.y[2]
  mapcheck::check_elems("by_address.x", [&](const V &v) { return by_address(v, y); }, x, d2);
  mapcheck::check_elems("by_address.y", [&](const V &v) { return by_address(x, v); }, y, d3);
  V d4(3);
  by_name_reverse_pullback(x, 1.0, &d4);
  // CHECK: ok by_name_reverse[2]
  mapcheck::check_elems("by_name_reverse", [](const V &v) { return by_name_reverse(v); }, x, d4);
  return gradcheck::failures();
}
