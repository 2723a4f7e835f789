// A capture-free lambda with a loop, a branch, an early return and a
// const-reference parameter is still pure: forward lowering, right values.
// RUN: %gradxx -I%S/Inputs %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -I%S/Inputs -fsyntax-only -fplugin-arg-grad-remarks %s 2>&1 | %FileCheck-strict %s --check-prefix=REMARK --implicit-check-not=remark:
#include "mapcheck.h"

#include <cmath>
#include <vector>

using V = std::vector<double>;

// REMARK-DAG: forward-control-flow.cpp:[[@LINE+3]]:30: remark: grad: forward lowering for the callable passed to 'grad::map' in 'body_ctrl': capture-free and pure
// REMARK-DAG: forward-control-flow.cpp:[[@LINE+1]]:17: remark: grad: generated 'body_ctrl_pullback' for 'body_ctrl'
[[grad]] double body_ctrl(const V &x) {
  return grad::sum(grad::map([](const double &z) {
    double r = 1.0;
    for (int i = 0; i < 3; ++i)
      r = r * z + 0.5;
    if (z > 0)
      return r;
    return -r * z;
  }, x));
}

int main() {
  const V x{0.3, -1.2, 2.5};
  V dx(3);
  body_ctrl_pullback(x, 1.0, &dx);
  // CHECK: ok body_ctrl[2]
  mapcheck::check_elems("body_ctrl", [](const V &v) { return body_ctrl(v); }, x, dx);
  return gradcheck::failures();
}
