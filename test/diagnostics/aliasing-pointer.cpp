// Writes through a pointer the plugin cannot track (a local pointer into an
// array parameter) are an error at the declaration, never a wrong gradient.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

// CHECK: aliasing-pointer.cpp:[[@LINE+3]]:3: error: grad: cannot differentiate local variable of type 'double *' in 'shift'
// CHECK: aliasing-pointer.cpp:[[@LINE+1]]:3: note: while differentiating 'shift' requested here
[[grad]] void shift(double *p, double x) {
  double *q = p + 1;
  q[0] = x * p[0];
}
