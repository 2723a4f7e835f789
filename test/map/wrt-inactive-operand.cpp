// An operand excluded by [[grad("...")]] gets no dual slot (forward) or a
// throw-away adjoint (reverse); compiling the generated code must not warn
// (no -Warray-bounds from the runtime's slot table).
// RUN: %gradxx -I%S/Inputs %s -o %t 2>&1 | %FileCheck-strict %s --check-prefix=COMPILE --allow-empty
// RUN: %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags -I%S/Inputs | FileCheck %s --check-prefix=DUMP
// COMPILE-NOT: warning
#include "mapcheck.h"

#include <cmath>
#include <vector>

using V = std::vector<double>;

// DUMP-LABEL: void fwd_pullback(const V &x, const V &y, double d_ret, V *d_x) {
// DUMP: tangent_pullback<&::_grad_tangent_{{[0-9]+}}, 1UL>(d_ret, ::grad::detail::pack(x, y), ::grad::detail::adjoints(d_x, nullptr));
[[grad("x")]] double fwd(const V &x, const V &y) {
  return grad::sum(grad::map([](double a, double b) { return a * b * b + std::sin(b); }, x, y));
}

[[grad("x, k")]] double rev(const V &x, const V &y, double k) {
  return grad::sum(grad::map([&](double a, double b) { return k * a * b * b; }, x, y));
}

int main() {
  const V x{0.3, -1.2, 2.5}, y{1.0, -0.5, 2.0};
  V dx(3);
  fwd_pullback(x, y, 1.0, &dx);
  // CHECK: ok fwd[2]
  mapcheck::check_values("fwd", dx, V{1.0, 0.25, 4.0});
  V ex(3);
  double dk = 0;
  rev_pullback(x, y, 0.3, 1.0, &ex, &dk);
  // CHECK: ok rev.x[2]
  // CHECK: ok rev.k
  mapcheck::check_values("rev.x", ex, V{0.3, 0.075, 1.2});
  mapcheck::check_elems("rev.k", [&](double v) { return rev(x, y, v); }, 0.3, dk);
  return gradcheck::failures();
}
