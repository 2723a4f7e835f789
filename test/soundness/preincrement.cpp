// Pre-increment and pre-decrement of a pointer inside a dereference
// (`*++p`, `*--p`, `*++r = e`): the reverse sweep must use the offset the
// pointer has after the increment. It recorded the offset before it
// (issue 49: `s += 10 * *++p` gave 11, 0 for 1, 10; a backward Horner loop
// was off by one element; libstdc++'s std::partial_sum and
// std::adjacent_difference write through `*++result`). The offset is now
// recorded inside the expression, next to the increment.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s --function=first %dflags | FileCheck %s --check-prefix=DUMP
#include "fwdcheck.h"
#include <numeric>

// DUMP-LABEL: void first_pullback(
// DUMP: static_cast<void>(10 * *((++p , (_o0 = p - a)) , p));
[[grad, grad::forward]] double first(double x, double y) {
  double a[3] = {x, y * x, y};
  const double *p = a;
  double s = 0;
  s += 10 * *++p;
  return s + *p * x;
}

[[grad, grad::forward]] double horner(double x, double t) {
  double c[4] = {x, 2 * x, x * x, 3.0};
  const double *p = c + 4;
  double s = 0;
  for (int i = 0; i < 4; ++i)
    s = s * t + *--p;
  return s;
}

[[grad, grad::forward]] double writes(double x, double y) {
  double a[3] = {0, 0, 0};
  double *r = a;
  *++r = 2 * x;
  *++r = y * *r;
  *r-- *= x;
  return a[0] + a[1] * a[2] + *r;
}

[[grad, grad::forward]] double scans(double x, double y) {
  double in[4] = {x, y, x * y, 1.5};
  double ps[4], ad[4];
  std::partial_sum(in, in + 4, ps);
  std::adjacent_difference(ps, ps + 4, ad);
  return ps[3] * ps[1] + ad[2] * ad[3] * x;
}

[[grad, grad::forward]] double walk(double x, double y) {
  double a[5] = {x, y, x * y, y * y, x - y};
  double *q = a + 4;
  double s = 0;
  while (q != a)
    s = s * 0.5 + *--q * x;
  return s;
}

int main() {
  fwdcheck::both("first", first, first_pullback, first_pushforward, 1.3, -0.7);
  // CHECK: ok first.d0
  // CHECK: ok first.d1
  // CHECK: ok first.fwd.y
  fwdcheck::both("horner", horner, horner_pullback, horner_pushforward, 1.3,
                 -0.7);
  // CHECK: ok horner.d1
  fwdcheck::both("writes", writes, writes_pullback, writes_pushforward, 1.3,
                 -0.7);
  // CHECK: ok writes.d1
  fwdcheck::both("scans", scans, scans_pullback, scans_pushforward, 1.3, -0.7);
  // CHECK: ok scans.d1
  fwdcheck::both("walk", walk, walk_pullback, walk_pushforward, 1.3, -0.7);
  // CHECK: ok walk.fwd.val
  return gradcheck::failures();
}
