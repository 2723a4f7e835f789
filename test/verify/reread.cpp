// Verify mode: a value the reverse sweep reads again from memory instead of
// taping it must be what the forward sweep read. sq takes a and out as
// distinct memory (a is read-only, so a[i] is read again for 2 a[i]); a
// caller passing overlapping ranges breaks that: out[i + 1] overwrites
// a[i] after it was read. Without verify the gradient is silently wrong
// (a FileCheck of it below); with verify the program aborts at the first
// re-read that differs, naming the construct and the function.
// UNSUPPORTED: verify
// RUN: %gradxx %s -o %t && %t | FileCheck %s --check-prefix=PLAIN
// RUN: %gradxx -fplugin-arg-grad-verify %s -o %t.v
// RUN: not --crash %t.v 2>&1 | FileCheck %s
// RUN: %gradxx -fplugin-arg-grad-verify -DDISTINCT %s -o %t.d && %t.d | FileCheck %s --check-prefix=OK
#include <cstdio>

[[grad]] void sq(const double *a, double *out, int n) {
  for (int i = 0; i < n; ++i)
    out[i] = a[i] * a[i];
}

int main() {
  double x[4] = {1, 2, 3, 4}, da[4] = {}, dout[4] = {1, 1, 1, 1};
#ifdef DISTINCT
  double y[3];
  sq(x + 1, y, 3);
  sq_pullback(x + 1, y, 3, da, dout);
#else
  sq(x + 1, x, 3); // x is now {4, 9, 16, 4}
  x[0] = 1, x[1] = 2, x[2] = 3, x[3] = 4;
  sq_pullback(x + 1, x, 3, da, dout);
#endif
  std::printf("%g %g %g\n", da[0], da[1], da[2]);
}
// PLAIN: 18 32 8
// CHECK: grad: verify: {{.*}}reread.cpp:17:14: in 'sq': 'a[i]' was read again by the reverse sweep as 16, but the forward sweep read 3 (the memory changed in between)
// OK: 4 6 8
