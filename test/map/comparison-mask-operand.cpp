// A map whose callable returns bool (a comparison) needs no derivative work.
// Its result passed straight to a second map as a mask operand: the mask's
// lambda parameter is bool and gets no dual slot, the other one does.
// RUN: %gradxx -I%S/Inputs %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -I%S/Inputs -fsyntax-only -fplugin-arg-grad-remarks %s 2>&1 | %FileCheck-strict %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: %dump %s %dflags -I%S/Inputs | FileCheck %s --check-prefix=DUMP
#include "mapcheck.h"

#include <cmath>
#include <vector>

using V = std::vector<double>;

// DUMP-LABEL: void masked_pullback(const V &x, double d_ret, V *d_x) {
// DUMP-NOT: tape
// DUMP: tangent_pullback<&::_grad_tangent_{{[0-9]+}}, 1UL>(d_ret, ::grad::detail::pack(x, {{.*}}), ::grad::detail::adjoints(d_x, nullptr));
// REMARK-DAG: comparison-mask-operand.cpp:[[@LINE+4]]:30: remark: grad: forward lowering for the callable passed to 'grad::map' in 'masked': capture-free and pure
// REMARK-DAG: comparison-mask-operand.cpp:[[@LINE+4]]:40: remark: grad: no derivative work for the callable passed to 'grad::map' in 'masked': its result is not differentiable
// REMARK-DAG: comparison-mask-operand.cpp:[[@LINE+1]]:17: remark: grad: generated 'masked_pullback' for 'masked'
[[grad]] double masked(const V &x) {
  return grad::sum(grad::map([](double a, bool keep) { return keep ? a * a : std::sin(a); }, x,
                             grad::map([](double z) { return z > 0.1; }, x)));
}

int main() {
  const V x{0.3, -1.2, 2.5, 0.05};
  V dx(4);
  masked_pullback(x, 1.0, &dx);
  // CHECK: ok masked[0]
  // CHECK: ok masked[3]
  mapcheck::check_values("masked", dx, V{0.6, std::cos(-1.2), 5.0, std::cos(0.05)});
  return gradcheck::failures();
}
