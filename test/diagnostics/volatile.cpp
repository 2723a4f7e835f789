// A volatile local is an error at its declaration.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

// CHECK: volatile.cpp:[[@LINE+3]]:3: error: grad: cannot differentiate volatile variable 'v' in 'f'
// CHECK: volatile.cpp:[[@LINE+1]]:3: note: while differentiating 'f' requested here
[[grad]] double f(double x) {
  volatile double v = x * x;
  return v;
}
