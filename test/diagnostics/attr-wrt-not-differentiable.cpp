// Naming a parameter that has no adjoint (an int) is an error at the list.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

// CHECK: attr-wrt-not-differentiable.cpp:[[@LINE+1]]:8: error: grad: parameter 'n' of 'f' is not differentiable (type 'int')
[[grad("x, n")]] double f(double x, int n) { return x * n; }
