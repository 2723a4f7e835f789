// sum(map(f, x)) with a capture-free, pure one-argument lambda takes the
// forward (dual-number) lowering: one tangent per lambda, no tape.
// RUN: %gradxx -I%S/Inputs %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -I%S/Inputs -fsyntax-only -fplugin-arg-grad-remarks %s 2>&1 | %FileCheck-strict %s --check-prefix=REMARK --implicit-check-not=remark:
// RUN: %dump %s %dflags -I%S/Inputs | FileCheck %s --check-prefix=DUMP
#include "mapcheck.h"

#include <cmath>
#include <vector>

using V = std::vector<double>;

// DUMP-LABEL: void map_fabs_pullback(const V &x, double d_ret, V *d_x) {
// DUMP-NOT: tape
// DUMP: ::grad::detail::tangent_pullback<&::_grad_tangent_{{[0-9]+}}, 1UL>(d_ret, ::grad::detail::pack(x), ::grad::detail::adjoints(d_x));
// DUMP-NEXT: }
// REMARK-DAG: forward-unary.cpp:[[@LINE+3]]:30: remark: grad: forward lowering for the callable passed to 'grad::map' in 'map_fabs': capture-free and pure
// REMARK-DAG: forward-unary.cpp:[[@LINE+1]]:17: remark: grad: generated 'map_fabs_pullback' for 'map_fabs'
[[grad]] double map_fabs(const V &x) {
  return grad::sum(grad::map([](double z) { return std::fabs(z); }, x));
}

// DUMP-LABEL: void map_cbrt_pullback(
// DUMP-NOT: tape
// DUMP: tangent_pullback
// REMARK-DAG: forward-unary.cpp:[[@LINE+3]]:30: remark: grad: forward lowering for the callable passed to 'grad::map' in 'map_cbrt': capture-free and pure
// REMARK-DAG: forward-unary.cpp:[[@LINE+1]]:17: remark: grad: generated 'map_cbrt_pullback' for 'map_cbrt'
[[grad]] double map_cbrt(const V &x) {
  return grad::sum(grad::map([](double z) { return std::cbrt(z); }, x));
}

// DUMP-LABEL: void map_tanh_pullback(
// DUMP-NOT: tape
// DUMP: tangent_pullback
// REMARK-DAG: forward-unary.cpp:[[@LINE+3]]:30: remark: grad: forward lowering for the callable passed to 'grad::map' in 'map_tanh': capture-free and pure
// REMARK-DAG: forward-unary.cpp:[[@LINE+1]]:17: remark: grad: generated 'map_tanh_pullback' for 'map_tanh'
[[grad]] double map_tanh(const V &x) {
  return grad::sum(grad::map([](double z) { return std::tanh(z); }, x));
}

// A local and a constant factor in the body: still forward.
// DUMP-LABEL: static inline ::grad::dual<double, 1UL> _grad_tangent_{{[0-9]+}}(::grad::dual<double, 1UL> z) {
// DUMP-NEXT: {{(::)?}}grad::dual<double{{(, 1UL)?}}> t = ::grad::detail::tanh_der(z);
// DUMP-NEXT: return 1. * t;
// DUMP-LABEL: void map_composite_pullback(
// DUMP-NOT: tape
// DUMP: tangent_pullback
// REMARK-DAG: forward-unary.cpp:[[@LINE+4]]:7: remark: grad: forward lowering for the callable passed to 'grad::map' in 'map_composite': capture-free and pure
// REMARK-DAG: forward-unary.cpp:[[@LINE+1]]:17: remark: grad: generated 'map_composite_pullback' for 'map_composite'
[[grad]] double map_composite(const V &x) {
  return grad::sum(grad::map(
      [](double z) {
        double t = std::tanh(z);
        return 1.0 * t;
      },
      x));
}

// DUMP-LABEL: void map_exp_pullback(
// DUMP-NOT: tape
// DUMP: tangent_pullback
// REMARK-DAG: forward-unary.cpp:[[@LINE+3]]:30: remark: grad: forward lowering for the callable passed to 'grad::map' in 'map_exp': capture-free and pure
// REMARK-DAG: forward-unary.cpp:[[@LINE+1]]:17: remark: grad: generated 'map_exp_pullback' for 'map_exp'
[[grad]] double map_exp(const V &x) {
  return grad::sum(grad::map([](double z) { return std::exp(z); }, x));
}

template <class F, class PB>
void check(const char *Name, F f, PB Pb, const V &x) {
  V dx(x.size());
  Pb(x, 1.0, &dx);
  mapcheck::check_elems(Name, f, x, dx);
}

int main() {
  const V x{0.3, -1.2, 2.5, -0.05};
  // CHECK: ok fabs[0]
  // CHECK: ok fabs[3]
  check("fabs", map_fabs, map_fabs_pullback, x);
  // CHECK: ok cbrt[1]
  check("cbrt", map_cbrt, map_cbrt_pullback, x);
  // CHECK: ok tanh[2]
  check("tanh", map_tanh, map_tanh_pullback, x);
  // CHECK: ok composite[3]
  check("composite", map_composite, map_composite_pullback, x);
  // CHECK: ok exp[0]
  check("exp", map_exp, map_exp_pullback, x);
  // Closed form and accumulation: d/dx_i sum(exp(x)) = exp(x_i), added to 1.
  V dx(x.size(), 1.0);
  map_exp_pullback(x, 2.0, &dx);
  V want;
  for (double v : x)
    want.push_back(1 + 2 * std::exp(v));
  // CHECK: ok exp.accumulate[3]
  mapcheck::check_values("exp.accumulate", dx, want);
  return gradcheck::failures();
}
