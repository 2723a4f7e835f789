// Attribute arguments must be string literals; the error points at the
// argument (as clang's own attributes do).
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

// CHECK: attr-arg-not-string.cpp:[[@LINE+1]]:8: error: grad: attribute arguments must be string literals
[[grad(1)]] double f(double x) { return x * x; }

// The function is not differentiated: no pullback, no further diagnostic.
double use(double x) { return f(x); }
