// Verify mode: the pullback of a callee that is not split runs during the
// caller's reverse sweep and reads the callee's memory again there. f never
// writes x, so it takes x as unchanged until then; a caller passing y
// overlapping x (a different start: the entry check cannot see it) breaks
// that, `y[0] = ...` changes x[2] after the call. Without verify the
// gradient is silently wrong (checked below); with verify the call is run
// again before its pullback and compared with its value at the call, in a
// loop too (the value kept per iteration).
// UNSUPPORTED: verify
// RUN: %gradxx %s -o %t && %t | FileCheck %s --check-prefix=PLAIN
// RUN: %gradxx -fplugin-arg-grad-verify %s -o %t.v
// RUN: not --crash %t.v 2>&1 | FileCheck %s
// RUN: %gradxx -fplugin-arg-grad-verify -DLOOP %s -o %t.l
// RUN: not --crash %t.l 2>&1 | FileCheck %s --check-prefix=LOOP
// RUN: %gradxx -fplugin-arg-grad-verify -DDISTINCT %s -o %t.d && %t.d | FileCheck %s --check-prefix=OK
// RUN: %gradxx -fplugin-arg-grad-verify -DDISTINCT -DLOOP %s -o %t.dl && %t.dl | FileCheck %s --check-prefix=OKLOOP
#include <cstdio>

static double g(const double *a, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i] * a[i];
  return s;
}

#ifdef LOOP
[[grad]] double f(const double *x, double *y, int n) {
  double r = 0;
  for (int k = 0; k < 2; ++k) {
    r += g(x, n);
    y[0] = 2 * r;
  }
  return r + y[0];
}
#else
[[grad]] double f(const double *x, double *y, int n) {
  double r = g(x, n);
  y[0] = 2 * r;
  return r * y[0];
}
#endif

int main() {
  double x[4] = {1, 2, 3, 4}, dx[4] = {}, dy[1] = {};
#ifdef DISTINCT
  double y[1];
  f_pullback(x, y, 3, 1.0, dx, dy);
#else
  f_pullback(x, x + 2, 3, 1.0, dx, dx + 2);
#endif
  std::printf("%g %g %g\n", dx[0], dx[1], dx[2]);
}
// f = 2 g^2, g = |x|^2 = 14: d/dx = 8 g x = 112 x. With y = x + 2 the
// pullback of g reads x[2] = 28 instead of 3.
// PLAIN: 112 224 3136
// CHECK: grad: verify: {{.*}}recall.cpp:37:14: in 'f': the call 'g(x, n)' gives 789 where its pullback runs, but gave 14 where it was made (memory it reads changed in between)
// LOOP: grad: verify: {{.*}}recall.cpp:30:10: in 'f': the call 'g(x, n)' gives 2579241 where its pullback runs, but gave 789 where it was made (memory it reads changed in between)
// OK: 112 224 336
// f = 3 r, r = 2 g: d/dx = 12 x.
// OKLOOP: 12 24 36
