// map over std::vector<float> with a float lambda: forward lowering with
// dual<float, 1>, float adjoints.
// RUN: %gradxx -I%S/Inputs %s -o %t 2>&1 | %FileCheck-strict %s --check-prefix=COMPILE --allow-empty
// RUN: %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags -I%S/Inputs | FileCheck %s --check-prefix=DUMP
// COMPILE-NOT: warning
#include "mapcheck.h"

#include <cmath>
#include <vector>

using VF = std::vector<float>;

// DUMP-LABEL: static inline ::grad::dual<float, 1UL> _grad_tangent_{{[0-9]+}}(::grad::dual<float, 1UL> z) {
// DUMP-LABEL: void fl_pullback(const VF &x, float d_ret, VF *d_x) {
// DUMP: tangent_pullback<&::_grad_tangent_{{[0-9]+}}, 1UL>(d_ret,
[[grad]] float fl(const VF &x) {
  return grad::sum(grad::map([](float z) { return z * z * 3.0f + std::sin(z); }, x));
}

int main() {
  const VF x{0.5f, -1.0f, 2.0f};
  VF dx(3);
  fl_pullback(x, 1.0f, &dx);
  // CHECK: ok float[2]
  for (int i = 0; i < 3; ++i)
    gradcheck::expect("float[" + std::to_string(i) + "]", dx[i], 6.0f * x[i] + std::cos(x[i]), 1e-6);
  return gradcheck::failures();
}
