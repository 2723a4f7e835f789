// A [[grad]] function must return a floating value, a class with floating
// data, void, or a pointer to what can carry derivatives (its pullback has
// no seed; what it points to is differentiated through the arguments).
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

// CHECK: attr-bad-return.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate 'f': return type 'int' is not differentiable
[[grad]] int f(double x) { return x > 0; }

int table[2];
// CHECK: attr-bad-return.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate 'pick': return type 'int *' is not differentiable
[[grad]] int *pick(double x) { return x > 0 ? table : table + 1; }

// Fine: a pointer into a floating argument.
[[grad]] double *row(double *A, int i) { return A + 2 * i; }
