// Two references to numbers that are the same memory only at run time
// (`upd(v[i], v[j])` with i == j for some calls): the derivative takes them
// as distinct, and the pullback of the callee checks that at its entry,
// always (a comparison of two addresses): the same element aborts with a
// message naming the callee and its parameters instead of a silently wrong
// gradient. Distinct elements give the right gradient: indices from
// arguments, from loop counters (pairs i != j), through a condition.
// (Refused at compile time before, as "memory that may be the same".)
// RUN: %gradxx %s -o %t && %t | FileCheck %s --implicit-check-not=FAIL
// RUN: %gradxx -DSAME %s -o %t.s
// RUN: not --crash %t.s 2>&1 | FileCheck %s --check-prefix=SAME
#include "gradcheck.h"
#include <cmath>
#include <cstdio>
using namespace gradcheck;

void upd(double &a, double &b) {
  a = a * b;
  b = std::sin(a) + b;
}

[[grad]] double two(double x, double y, int i, int j) {
  double v[2] = {x, y};
  upd(v[i], v[j]);
  return v[0] * v[1];
}

// Every ordered pair of distinct elements, in a loop.
[[grad]] double pairs(double x, double y, double z) {
  double v[3] = {x, y, z};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (i != j)
        upd(v[i], v[j]);
  return v[0] + v[1] * v[2];
}

// A reference chosen by a condition and another element.
[[grad]] double chosen(double x, double y, bool c) {
  double v[2] = {x, y};
  double &r = c ? v[0] : v[1];
  upd(r, v[1]);
  return v[0] * v[1];
}

int main() {
#ifdef SAME
  double dx = 0, dy = 0;
  two_pullback(0.7, 1.3, 1, 1, 1.0, &dx, &dy);
  std::printf("not reached %g %g\n", dx, dy);
#else
  for (int i = 0; i < 2; ++i) {
    int j = 1 - i;
    auto F = [=](double x, double y) { return two(x, y, i, j); };
    auto PB = [=](double x, double y, double s, double *dx, double *dy) {
      two_pullback(x, y, i, j, s, dx, dy);
    };
    check_grad("two" + std::to_string(i) + std::to_string(j), F, PB, 0.7, 1.3);
  }
  check_grad("pairs", pairs, pairs_pullback, 0.7, 1.3, 0.4);
  auto F = [](double x, double y) { return chosen(x, y, true); };
  auto PB = [](double x, double y, double s, double *dx, double *dy) {
    chosen_pullback(x, y, true, s, dx, dy);
  };
  check_grad("chosen", F, PB, 0.7, 1.3);
#endif
}
// CHECK: ok two01.d0
// CHECK: ok two01.d1
// CHECK: ok two10.d0
// CHECK: ok two10.d1
// CHECK: ok pairs.d0
// CHECK: ok pairs.d1
// CHECK: ok pairs.d2
// CHECK: ok chosen.d0
// CHECK: ok chosen.d1
// SAME: grad: {{.*}}runtime-aliased-arguments.cpp:17:29: in 'upd': parameters 'a' and 'b' are the same memory, which the derivative takes as distinct (pass a copy of one of them)
