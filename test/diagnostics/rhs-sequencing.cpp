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
// with seqorder): w is known to point to x, which the right side reads.
// Reads of other variables are fine (test/memory/side-effects.cpp checks their
// values); reads through other pointers are errors.
[[grad]] double g(double x, double y) {
  double *w = &x;
  // CHECK: rhs-sequencing.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate assignment whose right operand reads memory that its left operand may change through 'w' (C++ evaluates the right operand first: use two statements) in 'g'
  (*w = y * 2) *= 1 / (1.5 + x * x);
  (*w = y) *= 2;       // fine: a constant on the right
  (*w = y) *= 1 + y;   // fine: w points to x, not to y
  return x;
}
[[grad]] double h(double *p, double y) {
  double *q = p + 1;   // into the caller's memory
  double a[2] = {y, y};
  double *r = a;
  r = r + 1;           // re-seated: any floating read may alias
  // CHECK: rhs-sequencing.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate assignment whose right operand reads memory that its left operand may change through 'q' (C++ evaluates the right operand first: use two statements) in 'h'
  (*q *= y) += p[0];
  // CHECK: rhs-sequencing.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate assignment whose right operand reads memory that its left operand may change through 'r' (C++ evaluates the right operand first: use two statements) in 'h'
  (*r *= 2) += y;
  // Reads through something that may refer to the target: errors.
  double z = y;
  double *w = &z;
  auto get = [&] { return z; };
  // CHECK: rhs-sequencing.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate assignment whose right operand reads memory that its left operand may change through 'w' (C++ evaluates the right operand first: use two statements) in 'h'
  (*w *= 2) += get();
  return a[1] + *q + z;
}
// CHECK: 5 errors generated
