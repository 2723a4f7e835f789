// A name in the wrt list that is not a parameter is an error at the list.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

// CHECK: attr-wrt-unknown.cpp:[[@LINE+1]]:8: error: grad: 'z' is not a parameter of 'f'
[[grad("x, z")]] double f(double x, double y) { return x * y; }
