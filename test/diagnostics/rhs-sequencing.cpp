// C++17 evaluates the right operand of an assignment before the left one:
// `(z += z) += (y + z)` reads the old z on the right. The plugin would read
// the new one: an error (found by the fuzz memory mode), not a wrong
// gradient. Effects on other variables stay supported.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s
[[grad]] double f(double y, double z) {
  double t = y;
  (t *= z) *= y; // fine: the right operand does not read t
  // CHECK: rhs-sequencing.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate assignment whose right operand reads 'z', which its left operand changes (C++ evaluates the right operand first: use two statements) in 'f'
  (z += z) += (y + z);
  return z + t;
}
// The same through a pointer (found by the fuzz forward mode, seed 20222
// with seqorder): the plugin cannot tell which memory the left operand
// writes, so any floating read on the right is an error.
[[grad]] double g(double x, double y) {
  double *w = &x;
  // CHECK: rhs-sequencing.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate assignment whose right operand reads memory that its left operand may change through 'w' (C++ evaluates the right operand first: use two statements) in 'g'
  (*w = y * 2) *= 1 / (1.5 + x * x);
  (*w = y) *= 2; // fine: a constant on the right
  return x;
}
// CHECK: 2 errors generated
