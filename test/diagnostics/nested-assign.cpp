// A chained assignment `a = b = x` is an error at the inner assignment.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

// CHECK: nested-assign.cpp:[[@LINE+4]]:7: error: grad: cannot differentiate assignment inside an expression in 'f'
// CHECK: nested-assign.cpp:[[@LINE+1]]:3: note: while differentiating 'f' requested here
[[grad]] double f(double x) {
  double a, b;
  a = b = x;
  return a * b;
}
