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
// CHECK: 1 error generated
