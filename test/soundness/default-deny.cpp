// Default deny (plugin/ast/NodePolicy.def): a construct the builders do not
// model is active when its type may carry a derivative, so it reaches the
// builders' error instead of being replayed as a constant. A GNU statement
// expression of type double had no operands the activity analysis looked
// at, and was replayed: d/dx 0 for 2x. Also: a view that is a class
// template specialisation (View<double> { double *p; }) was taken for a
// value owning doubles because of its template argument, so the writes of a
// callee through it were not seen (d/dx 0 for 7, Ceres' rotation routines
// through their matrix adapters): it is now judged by its members, like the
// same view as a plain class, and refused at the argument.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: %gradxx -DFIXED %s -o %t && %t | FileCheck %s --check-prefix=OK
#include "gradcheck.h"
using gradcheck::expect;

template <class T> struct View {
  T *p;
  T &operator()(int i) const { return p[i]; }
};
template <class T> View<T> view(T *p) { return View<T>{p}; }
void fill(double x, const View<double> &v) {
  v(0) = x * x;
  v(1) = 3 * x;
}
void fillp(double x, double *v) {
  v[0] = x * x;
  v[1] = 3 * x;
}

#ifndef FIXED
[[grad]] double stmtexpr(double x) {
  double y = ({ double t = x * x; t + 1; });
  return y;
}
// CHECK: default-deny.cpp:[[@LINE-3]]:14: error: grad: cannot differentiate statement expression in 'stmtexpr'

[[grad]] void braces(const double *in, double *out) {
  fill(in[0], View<double>{out});
}
// CHECK: default-deny.cpp:[[@LINE-2]]:15: error: grad: cannot differentiate argument 'View<double>{out}' of type 'const View<double>' holding a pointer into differentiated memory (pass the pointer itself) in 'braces'

[[grad]] void helper(const double *in, double *out) { fill(in[0], view(out)); }
// CHECK: default-deny.cpp:[[@LINE-1]]:67: error: grad: cannot differentiate argument 'view(out)' of type 'const View<double>' holding a pointer into differentiated memory (pass the pointer itself) in 'helper'
#else
[[grad]] double stmtexpr(double x) {
  double t = x * x;
  double y = t + 1;
  return y;
}
[[grad]] void pointer(const double *in, double *out) { fillp(in[0], out); }
#endif

int main() {
#ifdef FIXED
  double x = 2, dx = 0;
  stmtexpr_pullback(x, 1.0, &dx);
  expect("stmtexpr", dx, 4.0);
  double out[2], dout[2] = {1, 1};
  dx = 0;
  pointer_pullback(&x, out, &dx, dout);
  expect("pointer", dx, 7.0);
  std::printf("done\n");
#endif
}
// OK-NOT: FAIL
// OK: done
