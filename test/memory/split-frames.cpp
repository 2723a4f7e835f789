// A split derivative (a helper writing through a pointer) passes from its
// forward half to its reverse half only what the reverse half reads before
// it assigns it: the values a reverse loop pops in each iteration and the
// loops' counters stay out of the frame (the frame of `rotate` holds the
// condition and the values read outside its loops). The same operations on
// the same values: the same bits as with -fplugin-arg-grad-no-trim-frames,
// which passes every temporary, and with -fplugin-arg-grad-no-loop-
// invariants, which records loop-invariant values at every iteration (the
// printed %a values are compared). Values
// against central differences; loops that run zero times, stop at a break,
// and a do loop.
// RUN: %gradxx %s -o %t && %t > %t.out && %FileCheck-strict %s --implicit-check-not=FAIL < %t.out
// RUN: %gradxx -fplugin-arg-grad-no-trim-frames %s -o %t2 && %t2 > %t2.out && diff %t.out %t2.out
// RUN: %gradxx -fplugin-arg-grad-no-loop-invariants %s -o %t3 && %t3 > %t3.out && diff %t.out %t3.out
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s --function=f %dflags | FileCheck %s --check-prefix=DUMP
#include "gradcheck.h"
#include <cmath>
#include <cstdio>
using namespace gradcheck;

// Rodrigues' rotation, as bundle adjustment writes it.
static void rotate(const double *rot, const double *X, double *out) {
  double th2 = rot[0] * rot[0] + rot[1] * rot[1] + rot[2] * rot[2];
  if (th2 != 0) {
    double th = std::sqrt(th2), c = std::cos(th), s = std::sin(th);
    double w[3];
    for (int i = 0; i < 3; i++)
      w[i] = rot[i] / th;
    double d = w[0] * X[0] + w[1] * X[1] + w[2] * X[2];
    for (int i = 0; i < 3; i++)
      out[i] = X[i] * c + w[i] * d * (1 - c) +
               s * (w[(i + 1) % 3] * X[(i + 2) % 3] -
                    w[(i + 2) % 3] * X[(i + 1) % 3]);
  } else {
    for (int i = 0; i < 3; i++)
      out[i] = X[i];
  }
}

static void walk(const double *a, int n, double *acc) {
  int i = 0;
  while (i < n) {
    double t = a[i] * *acc;
    if (t > 5)
      break;
    *acc = std::tanh(t) + *acc;
    ++i;
  }
  do {
    *acc = *acc * 0.5 + a[0] * a[1];
  } while (--n > 1);
}

// A value every iteration computes alike (c, 1 - c, s, d: declared
// outside the loop, never written) is recorded once, in the frame, not per
// iteration; w[i] and what depends on it per iteration.
// DUMP-LABEL: void _grad_rotate_fwd_0({{.*}}, ::grad::detail::stack &_stack) {
// DUMP: _t7 = c;
// DUMP: out[i] = X[i] * _t7 + _t10 * _t11 + _t12 * _t15;
// DUMP-NEXT: _stack.push_all(_t8, _t10, _t13, _t14, _t15);
// DUMP-NEXT: }
// DUMP: _stack.push_all([[FRAME:_c0, _t0, _t1, _t2, _t3, _t4, _t5, _t6, _t7, _t9, _t11, _t12]]);
// DUMP-NEXT: }
// DUMP-LABEL: void _grad_rotate_rev_0({{.*}}, ::grad::detail::stack &_stack) {
// DUMP: _stack.pop_all([[FRAME]]);
// DUMP: _stack.pop_all(_t8, _t10, _t13, _t14, _t15);
// DUMP-LABEL: void _grad_walk_fwd({{.*}}, ::grad::detail::stack &_stack) {
// DUMP: _stack.push_all(_n0, _n1);
// DUMP-NEXT: }
// DUMP-LABEL: void _grad_walk_rev({{.*}}, ::grad::detail::stack &_stack) {
// DUMP: _stack.pop_all(_n0, _n1);
[[grad]] double f(double x, double y, double z) {
  double rot[3] = {x, y * 0.5, z}, X[3] = {y, z, x}, out[3];
  rotate(rot, X, out);
  double acc = out[0];
  walk(out, 3, &acc);
  walk(out, 0, &acc);
  double zero[3] = {0, 0, 0};
  rotate(zero, X, out); // the other branch
  return acc * out[1] + out[2] * x;
}

int main() {
  // CHECK-COUNT-3: ok f.d
  check_grad("f", f, f_pullback, 0.4, -0.7, 1.1);
  // CHECK-COUNT-3: ok g.d
  check_grad("g", f, f_pullback, 2.4, 1.3, -0.2);
  double d[3] = {0, 0, 0};
  f_pullback(0.4, -0.7, 1.1, 1.0, &d[0], &d[1], &d[2]);
  // CHECK: bits
  std::printf("bits %a %a %a\n", d[0], d[1], d[2]);
  return failures();
}
