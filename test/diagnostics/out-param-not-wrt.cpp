// A pointer parameter that receives differentiated values but is left out
// of the wrt list has no adjoint to carry its seed: an error at the
// parameter, not a pullback that dereferences a null shadow.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

// CHECK: out-param-not-wrt.cpp:[[@LINE+1]]:47: error: grad: cannot differentiate pointer parameter 'out', which receives differentiated values but is not in the wrt list (add it: its adjoint carries the seed of what is written there) in 'f'
[[grad("x")]] void f(const double *x, double *out) { *out = x[0] * x[0]; }
// CHECK: 1 error generated
