// Verify mode in the halves of a split derivative: g writes through `out`,
// so f calls it in two halves; its reverse half reads `a` again (f never
// writes x, so the halves take it as unchanged). A caller passing z
// overlapping x (a different start: the entry check cannot see it) breaks
// that: `z[0] = ...` changes x[1] between the halves. Without verify the
// gradient is silently wrong (checked below); with verify the reverse half
// aborts at its re-read, naming the construct in g.
// UNSUPPORTED: verify
// RUN: %gradxx %s -o %t && %t | FileCheck %s --check-prefix=PLAIN
// RUN: %gradxx -fplugin-arg-grad-verify %s -o %t.v
// RUN: not --crash %t.v 2>&1 | FileCheck %s
// RUN: %gradxx -fplugin-arg-grad-verify -DDISTINCT %s -o %t.d && %t.d | FileCheck %s --check-prefix=OK
#include <cstdio>

static void g(const double *a, double *out, int n) {
  for (int i = 0; i < n; ++i)
    out[i] = a[i] * a[i];
}

[[grad]] double f(const double *x, double *z, int n) {
  double y[3];
  g(x, y, n);
  z[0] = 5 * y[1];
  return y[0] + y[1] + y[2] + z[0];
}

int main() {
  double x[4] = {1, 2, 3, 4}, dx[4] = {}, dz[1] = {};
#ifdef DISTINCT
  double z[1];
  f_pullback(x, z, 3, 1.0, dx, dz);
#else
  f_pullback(x, x + 1, 3, 1.0, dx, dx + 1);
#endif
  std::printf("%g %g %g\n", dx[0], dx[1], dx[2]);
}
// d/dx = 2 x + 5 * 2 x[1] e_1: 2, 4 + 20, 6.
// PLAIN: 2 240 6
// CHECK: grad: verify: {{.*}}reread-halves.cpp:17:14: in 'g': 'a[i]' was read again by the reverse sweep as 20, but the forward sweep read 2 (the memory changed in between)
// OK: 2 24 6
