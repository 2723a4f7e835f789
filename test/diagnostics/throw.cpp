// A 'throw' expression (here in a branch) is an error at the expression.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

// CHECK: throw.cpp:[[@LINE+3]]:14: error: grad: cannot differentiate 'throw' expression in 'f'
// CHECK: throw.cpp:[[@LINE+1]]:3: note: while differentiating 'f' requested here
[[grad]] double f(double x) {
  if (x < 0) throw 1;
  return x * x;
}
