// broadcast of a std::vector with a scalar (either order, and a scalar
// literal): the vector's adjoint keeps its size, the scalar's is the sum.
// RUN: %gradxx -I%S/Inputs %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -I%S/Inputs -fsyntax-only -fplugin-arg-grad-remarks %s 2>&1 | %FileCheck-strict %s --check-prefix=REMARK --implicit-check-not=remark:
#include "mapcheck.h"

#include <cmath>
#include <vector>

using V = std::vector<double>;

// REMARK-DAG: broadcast-vector-scalar.cpp:[[@LINE+3]]:36: remark: grad: forward lowering for the callable passed to 'grad::broadcast' in 'vs': capture-free and pure
// REMARK-DAG: broadcast-vector-scalar.cpp:[[@LINE+1]]:17: remark: grad: generated 'vs_pullback' for 'vs'
[[grad]] double vs(const V &x, double s) {
  return grad::sum(grad::broadcast([](double a, double b) { return std::pow(a - b, 2.0) + a * b; }, x, s));
}

[[grad]] double sv(double s, const V &x) {
  return grad::sum(grad::broadcast([](double b, double a) { return std::exp(b * a); }, s, x));
}

[[grad]] double v_literal(const V &x) {
  return grad::sum(grad::broadcast([](double a, double b) { return a * a * b; }, x, 3.0));
}

int main() {
  const V x{0.3, -1.2, 2.5};
  V dx(3);
  double ds = 0;
  vs_pullback(x, 0.4, 1.0, &dx, &ds);
  // CHECK: ok vs.x[2]
  // CHECK: ok vs.s
  mapcheck::check_elems("vs.x", [](const V &v) { return vs(v, 0.4); }, x, dx);
  mapcheck::check_elems("vs.s", [&](double v) { return vs(x, v); }, 0.4, ds);
  V ex(3);
  double es = 0;
  sv_pullback(-0.6, x, 1.0, &es, &ex);
  // CHECK: ok sv.s
  // CHECK: ok sv.x[2]
  mapcheck::check_elems("sv.s", [&](double v) { return sv(v, x); }, -0.6, es);
  mapcheck::check_elems("sv.x", [](const V &v) { return sv(-0.6, v); }, x, ex);
  V fx(3);
  v_literal_pullback(x, 1.0, &fx);
  // CHECK: ok v_literal[2]
  mapcheck::check_values("v_literal", fx, V{1.8, -7.2, 15.0});
  return gradcheck::failures();
}
