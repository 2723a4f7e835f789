// The callable may be a local variable initialised with a lambda; it is
// classified like the lambda itself, and one variable may feed two maps.
// RUN: %gradxx -I%S/Inputs %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -I%S/Inputs -fsyntax-only -fplugin-arg-grad-remarks %s 2>&1 | %FileCheck-strict %s --check-prefix=REMARK --implicit-check-not=remark:
#include "mapcheck.h"

#include <cmath>
#include <vector>

using V = std::vector<double>;

// REMARK-DAG: local-lambda-variable.cpp:[[@LINE+4]]:30: remark: grad: forward lowering for the callable passed to 'grad::map' in 'local_pure': capture-free and pure
// REMARK-DAG: local-lambda-variable.cpp:[[@LINE+1]]:17: remark: grad: generated 'local_pure_pullback' for 'local_pure'
[[grad]] double local_pure(const V &x) {
  auto f = [](double z) { return std::log(1.0 + z * z); };
  return grad::sum(grad::map(f, x));
}

// REMARK-DAG: local-lambda-variable.cpp:[[@LINE+5]]:30: remark: grad: reverse lowering for the callable passed to 'grad::map' in 'local_capture': captures 'a'
// REMARK-DAG: local-lambda-variable.cpp:[[@LINE+3]]:18: remark: grad: generated '_grad_lambda_{{[0-9]+}}_pullback' for '_grad_lambda_{{[0-9]+}}'
// REMARK-DAG: local-lambda-variable.cpp:[[@LINE+1]]:17: remark: grad: generated 'local_capture_pullback' for 'local_capture'
[[grad]] double local_capture(const V &x, const V &y, double a) {
  const auto f = [&](double z) { return a * z * z; };
  return grad::sum(grad::map(f, x)) * grad::sum(grad::map(f, y));
}

int main() {
  const V x{0.3, -1.2, 2.5}, y{0.5, 1.5, -0.7};
  V d0(3);
  local_pure_pullback(x, 1.0, &d0);
  // CHECK: ok local_pure[2]
  mapcheck::check_elems("local_pure", [](const V &v) { return local_pure(v); }, x, d0);
  V dx(3), dy(3);
  double da = 0;
  local_capture_pullback(x, y, 0.7, 1.0, &dx, &dy, &da);
  // CHECK: ok local_capture.x[2]
  // CHECK: ok local_capture.y[2]
  // CHECK: ok local_capture.a
  mapcheck::check_elems("local_capture.x", [&](const V &v) { return local_capture(v, y, 0.7); }, x, dx);
  mapcheck::check_elems("local_capture.y", [&](const V &v) { return local_capture(x, v, 0.7); }, y, dy);
  mapcheck::check_elems("local_capture.a", [&](double a) { return local_capture(x, y, a); }, 0.7, da);
  return gradcheck::failures();
}
