// A static local (state shared between calls) is an error at its
// declaration: pullbacks are re-entrant.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

// CHECK: static-local.cpp:[[@LINE+3]]:3: error: grad: cannot differentiate static local variable 'scale' in 'f'
// CHECK: static-local.cpp:[[@LINE+1]]:3: note: while differentiating 'f' requested here
[[grad]] double f(double x) {
  static double scale = 2;
  return scale * x;
}
