// The plugin's last instantiations run after the parser has left the
// translation unit's scope; an implicit copy assignment instantiated then
// (std::vector<grad::lanes<double, 2>>::assign, for the vector pullback
// below) declares __builtin_memcpy into Sema's TUScope, which was null:
// the compiler crashed (found by the supported.md audit, issue 54). The
// errors are reported, and the compiler exits normally.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not="Stack dump"
#include <grad/grad.h>
#include <utility>
#include <vector>
// CHECK: end-of-tu-instantiation.cpp:[[@LINE+1]]:26: error: grad: cannot build the Hessian-vector product of 'g'
[[grad::hessian]] double g(std::vector<double> v, double y) {
  v.push_back(y);
  return v[0] * v[1];
}
[[grad("lanes=2")]] double f(double x, double y) {
  std::vector<double> u{x, y}, next{y * x, x};
  // CHECK: end-of-tu-instantiation.cpp:[[@LINE+1]]:3: error: grad: cannot build the vector pullback of 'f': call to 'swap' on the adjoint of 'u'
  std::swap(u, next);
  return u[0] * next[1];
}
// CHECK: {{[0-9]+}} errors generated.
