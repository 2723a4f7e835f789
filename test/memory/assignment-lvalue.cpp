// A differentiated value written through the lvalue an assignment, a
// prefix increment denotes (`(t = e) -= f`, `(++t) *= x`): the activity
// analysis follows the
// expression to `t` (it saw no write of `t` there, and the derivative
// through `t` was silently dropped: fuzz seed 6021 of gen.py
// --features all,memory,structs).
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "vecgrad.h"
#include <cmath>

[[grad]] double assign_then(double x, double y) {
  double t = 2.;
  (t = t * t) -= std::sin(x);
  return y * (x + t * t);
}
[[grad]] double assign_const(double x, double y) {
  double t = 0;
  (t = 3.0) += x * y;
  return t * t;
}
[[grad]] double incr(double x, double y) {
  double t = 0;
  (++t) *= x;
  t += y;
  return t * x;
}
int main() {
#define XY(F)                                                                  \
  {                                                                            \
    double dx = 0, dy = 0;                                                     \
    F##_pullback(0.7, 1.3, 1, &dx, &dy);                                       \
    vecgrad::check(#F, [](const std::vector<double> &V) { return F(V[0], V[1]); }, \
                   {0.7, 1.3}, {dx, dy});                                      \
  }
  XY(assign_then) XY(assign_const) XY(incr)
  // CHECK: ok assign_then.d0
  // CHECK: ok assign_then.d1
  // CHECK: ok assign_const.d0
  // CHECK: ok assign_const.d1
  // CHECK: ok incr.d0
  // CHECK: ok incr.d1
  return gradcheck::failures();
}
