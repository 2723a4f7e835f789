// A [[grad]] function must return a floating value, a class with floating
// data or void.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

// CHECK: attr-bad-return.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate 'f': return type 'int' is not differentiable
[[grad]] int f(double x) { return x > 0; }
