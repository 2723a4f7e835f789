// A callable passed to grad::map or grad::broadcast that reads through a
// pointer (`*p`, `&a[1]`) is one error at the pointer operation, named as
// written (before, the lowering reached the runtime and failed there with
// a type error in lowering.h). The same lambda called directly in the
// function is differentiated (memory/lambda-pointers.cpp).
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s --implicit-check-not=error: --implicit-check-not=note:
#include <grad/grad.h>

#include <cmath>
#include <vector>

using V = std::vector<double>;

// CHECK: error-pointers.cpp:[[@LINE+5]]:46: error: grad: cannot differentiate pointer operation '*p' in the callable passed to 'grad::map' (read the value into a local before the call) in 'mapped'
// CHECK: error-pointers.cpp:[[@LINE+1]]:3: note: while differentiating 'mapped' requested here
[[grad]] double mapped(const V &x, double y) {
  double s[2] = {y, 2 * y};
  const double *p = &s[1];
  V r = grad::map([&](double z) { return z * *p; }, x);
  return grad::sum(r);
}

// CHECK: error-pointers.cpp:[[@LINE+4]]:61: error: grad: cannot differentiate pointer operation '*(&a[0])' in the callable passed to 'grad::broadcast' (read the value into a local before the call) in 'broadcasted'
// CHECK: error-pointers.cpp:[[@LINE+1]]:3: note: while differentiating 'broadcasted' requested here
[[grad]] double broadcasted(const V &x, const V &w, double y) {
  double a[2] = {y, y * y};
  auto r = grad::broadcast([&](double u, double v) { return *(&a[0]) * u * v; }, x, w);
  return grad::sum(r);
}
