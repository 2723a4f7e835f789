// Verify mode: an iteration run again just before its reverse (recomputed
// instead of taped) must read what its first run read. h never writes a,
// so the iterations of the loop over i may run again; a caller passing `out` overlapping a
// (a different start: the entry check cannot see it) breaks that, `out[0]
// = ...` changes a[2] after the loops. Without verify d/da[2] and d/dy are
// silently wrong (checked below); with verify each recomputed iteration
// compares a hash of what it read of a with its first run's. Recomputation
// forced (recompute-always), and the default (recorded: the re-read check
// fires instead).
// UNSUPPORTED: verify
// RUN: %gradxx -fplugin-arg-grad-recompute-always %s -o %t && %t | FileCheck %s --check-prefix=PLAIN
// RUN: %gradxx -fplugin-arg-grad-recompute-always -fplugin-arg-grad-remarks -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %gradxx -fplugin-arg-grad-recompute-always -fplugin-arg-grad-verify %s -o %t.v
// RUN: not --crash %t.v 2>&1 | FileCheck %s
// RUN: %gradxx -fplugin-arg-grad-verify %s -o %t.r
// RUN: not --crash %t.r 2>&1 | FileCheck %s --check-prefix=REREAD
// RUN: %gradxx -fplugin-arg-grad-recompute-always -fplugin-arg-grad-verify -DDISTINCT %s -o %t.d && %t.d | FileCheck %s --check-prefix=OK
// A read whose value the reverse sweep does not need (a[c] in a sum) is
// hashed too (found in review: it was not, no alarm).
// RUN: %gradxx -fplugin-arg-grad-recompute-always -fplugin-arg-grad-verify -DSUM %s -o %t.s
// RUN: not --crash %t.s 2>&1 | FileCheck %s
#include <cmath>
#include <cstdio>
#ifdef SUM
#define ARG(c) (a[c] + y * i)
#else
#define ARG(c) (a[c] * y + i)
#endif

[[grad]] double h(const double *a, double *out, double y) {
  double t[4], s = 0;
  for (int i = 0; i < 3; ++i) {
    for (int c = 0; c < 4; ++c)
      t[c] = std::sin(ARG(c));
    double u = 0;
    for (int c = 0; c < 4; ++c)
      u += t[c] * t[c];
    s += u;
  }
  out[0] = 2 * s;
  return s + out[0];
}
// REMARK: iteration.cpp:[[@LINE-11]]:3: remark: grad: each iteration of this loop in 'h' runs again just before its reverse

int main() {
  double a[5] = {0.1, 0.2, 0.3, 0.4, 0.5}, da[5] = {}, dy = 0;
#ifdef DISTINCT
  double out[1], dout[1] = {};
  h_pullback(a, out, 0.7, 1.0, da, dout, &dy);
#else
  h_pullback(a, a + 2, 0.7, 1.0, da, da + 2, &dy);
#endif
  std::printf("%.6g %.6g %.6g %.6g %.6g\n", da[0], da[1], da[2], da[3], dy);
}
// PLAIN: 0.296655 0.267265 0.199538 0.193474 3.78269
// CHECK: grad: verify: {{.*}}iteration.cpp:32:3: in 'h': an iteration of the loop was run again for its reverse and read other values than its first run (the memory changed in between)
// REREAD: grad: verify: {{.*}}iteration.cpp:34:23: in 'h': 'a[c]' was read again by the reverse sweep as 12.465642401144114, but the forward sweep read 0.29999999999999999 (the memory changed in between)
// OK: 0.296655 0.267265 0.232646 0.193474 0.329002
