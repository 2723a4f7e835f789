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
// RUN: %gradxx -DSAME_DOT %s -o %t.sd
// RUN: not --crash %t.sd 2>&1 | FileCheck %s --check-prefix=SAMEDOT
// RUN: %gradxx -DSAME_AXPY %s -o %t.sa
// RUN: not --crash %t.sa 2>&1 | FileCheck %s --check-prefix=SAMEAXPY
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

// Neither reference written, but not const: the adjoint of each is stored
// back at the end of the pullback, so one element passed twice would lose
// one contribution: checked as well (found in review: accepted without a
// check at first, a silently wrong gradient). Three references, one pair
// of them possibly one element.
double dot(double &a, double &b) { return a * b; }
void axpy(double &y, double &a, double &x) { y += a * x; }
[[grad]] double dotted(double x, double y, int i, int j) {
  double v[2] = {x, y};
  return dot(v[i], v[j]);
}
[[grad]] double axpy3(double x, double y, int i, int j) {
  double v[3] = {x, y, 0.5};
  axpy(v[2], v[i], v[j]);
  return v[2] * x;
}
// Two const references: their adjoints are added, one element passed
// twice is right (no check).
double cdot(const double &a, const double &b) { return a * b; }
[[grad]] double cdotted(double x, double y, int i, int j) {
  double v[2] = {x, y};
  return cdot(v[i], v[j]) + y;
}

// A reference chosen by a condition and another element.
[[grad]] double chosen(double x, double y, bool c) {
  double v[2] = {x, y};
  double &r = c ? v[0] : v[1];
  upd(r, v[1]);
  return v[0] * v[1];
}

int main() {
#if defined(SAME)
  double dx = 0, dy = 0;
  two_pullback(0.7, 1.3, 1, 1, 1.0, &dx, &dy);
  std::printf("not reached %g %g\n", dx, dy);
#elif defined(SAME_DOT)
  double dx = 0, dy = 0;
  dotted_pullback(0.7, 1.3, 0, 0, 1.0, &dx, &dy);
  std::printf("not reached %g %g\n", dx, dy);
#elif defined(SAME_AXPY)
  double dx = 0, dy = 0;
  axpy3_pullback(0.7, 1.3, 1, 1, 1.0, &dx, &dy);
  std::printf("not reached %g %g\n", dx, dy);
#else
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      std::string N = std::to_string(i) + std::to_string(j);
      auto C = [=](double x, double y) { return cdotted(x, y, i, j); };
      auto PC = [=](double x, double y, double s, double *dx, double *dy) {
        cdotted_pullback(x, y, i, j, s, dx, dy);
      };
      check_grad("cdotted" + N, C, PC, 0.7, 1.3);
      if (i == j)
        continue;
      auto D = [=](double x, double y) { return dotted(x, y, i, j); };
      auto PD = [=](double x, double y, double s, double *dx, double *dy) {
        dotted_pullback(x, y, i, j, s, dx, dy);
      };
      check_grad("dotted" + N, D, PD, 0.7, 1.3);
      auto A = [=](double x, double y) { return axpy3(x, y, i, j); };
      auto PA = [=](double x, double y, double s, double *dx, double *dy) {
        axpy3_pullback(x, y, i, j, s, dx, dy);
      };
      check_grad("axpy3" + N, A, PA, 0.7, 1.3);
    }
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
// CHECK: ok cdotted00.d0
// CHECK: ok cdotted00.d1
// CHECK: ok cdotted01.d0
// CHECK: ok dotted01.d0
// CHECK: ok dotted01.d1
// CHECK: ok axpy301.d0
// CHECK: ok axpy301.d1
// CHECK: ok cdotted10.d0
// CHECK: ok dotted10.d1
// CHECK: ok axpy310.d1
// CHECK: ok cdotted11.d0
// CHECK: ok cdotted11.d1
// CHECK: ok two01.d0
// CHECK: ok two01.d1
// CHECK: ok two10.d0
// CHECK: ok two10.d1
// CHECK: ok pairs.d0
// CHECK: ok pairs.d1
// CHECK: ok pairs.d2
// CHECK: ok chosen.d0
// CHECK: ok chosen.d1
// SAME: grad: {{.*}}runtime-aliased-arguments.cpp:21:29: in 'upd': parameters 'a' and 'b' are the same memory, which the derivative takes as distinct (pass a copy of one of them)
// SAMEDOT: grad: {{.*}}runtime-aliased-arguments.cpp:{{[0-9]+}}:{{[0-9]+}}: in 'dot': parameters 'a' and 'b' are the same memory, which the derivative takes as distinct (pass a copy of one of them)
// SAMEAXPY: grad: {{.*}}runtime-aliased-arguments.cpp:{{[0-9]+}}:{{[0-9]+}}: in 'axpy': parameters 'a' and 'x' are the same memory, which the derivative takes as distinct (pass a copy of one of them)
