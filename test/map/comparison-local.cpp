// A comparison map stored in a local (a std::vector<bool>) next to the
// differentiable work: no derivative work for it, and the gradient of the
// rest is right, whether the mask is unused or read through a subscript.
// RUN: %gradxx -I%S/Inputs %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -I%S/Inputs -fsyntax-only -fplugin-arg-grad-remarks %s 2>&1 | %FileCheck-strict %s --check-prefix=REMARK --implicit-check-not=remark:
#include "mapcheck.h"

#include <cmath>
#include <vector>

using V = std::vector<double>;

// REMARK-DAG: comparison-local.cpp:[[@LINE+4]]:22: remark: grad: no derivative work for the callable passed to 'grad::map' in 'unused': its result is not differentiable
// REMARK-DAG: comparison-local.cpp:[[@LINE+4]]:30: remark: grad: forward lowering for the callable passed to 'grad::map' in 'unused': capture-free and pure
// REMARK-DAG: comparison-local.cpp:[[@LINE+1]]:17: remark: grad: generated 'unused_pullback' for 'unused'
[[grad]] double unused(const V &x) {
  auto m = grad::map([](double z) { return z < 0; }, x);
  return grad::sum(grad::map([](double z) { return std::exp(z); }, x));
}

// REMARK-DAG: comparison-local.cpp:[[@LINE+3]]:22: remark: grad: no derivative work for the callable passed to 'grad::map' in 'first_positive'
// REMARK-DAG: comparison-local.cpp:[[@LINE+1]]:17: remark: grad: generated 'first_positive_pullback' for 'first_positive'
[[grad]] double first_positive(const V &x) {
  auto m = grad::map([](double z) { return z > 0.1; }, x);
  double s = 0;
  for (int i = 0; i < 4; ++i)
    if (m[i])
      s += x[i] * x[i];
  return s;
}

int main() {
  const V x{0.3, -1.2, 2.5, 0.05};
  V dx(4);
  unused_pullback(x, 1.0, &dx);
  // CHECK: ok unused[3]
  mapcheck::check_elems("unused", [](const V &v) { return unused(v); }, x, dx);
  V ex(4);
  first_positive_pullback(x, 1.0, &ex);
  // CHECK: ok first_positive[3]
  mapcheck::check_values("first_positive", ex, V{0.6, 0, 5.0, 0});
  return gradcheck::failures();
}
