// The refusals quoted in docs/supported.md, section "Memory": a
// std::vector parameter taken by value and resized, in a Hessian-vector
// product: the error at the parameter (the Clang error inside the
// generated code at the push_back is gone: the direction is copied).
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s
#include <grad/grad.h>
#include <vector>

namespace vb {
// CHECK: memory-byvalue.cpp:[[@LINE+1]]:26: error: grad: cannot build the Hessian-vector product of 'f': read of the adjoint 'd_v' (only accumulated into here) (in its pullback) has no forward-mode derivative
[[grad::hessian]] double f(std::vector<double> v, double y) {
  v.push_back(y);
  double s = 0;
  for (int i = 0; i < (int)v.size(); ++i)
    s += v[i] * v[i];
  return s;
}
} // namespace vb
