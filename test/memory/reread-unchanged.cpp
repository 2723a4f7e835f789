// Reads of a local array or container that no write changes afterwards
// are read again by the reverse sweep instead of being recorded (Qdiags in
// the GMM objective: filled, then only read); a write after the read (in
// the same loop, later in the function, through a helper, a lambda defined
// before the read and called after it, a vector growing) keeps it
// recorded. Products record an operand only for the other one's derivative,
// and `x[i] * x[i]` records x[i] once.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s --function=filled_then_read %dflags | FileCheck %s --check-prefix=DUMP
// RUN: %dump %s --function=square %dflags | FileCheck %s --check-prefix=SQUARE
#include "gradcheck.h"
#include <cmath>
#include <vector>
using namespace gradcheck;

[[grad]] double filled_then_read(const double *x, double y) {
  double q[4];
  for (int i = 0; i < 4; ++i)
    q[i] = std::exp(x[i]);
  double s = 0;
  for (int i = 0; i < 4; ++i)
    s += q[i] * q[i] * y;
  return s;
}
// The second loop records only the product (for y's derivative); the
// reverse sweep reads q[i] again.
// DUMP: q[i] = _t0;
// DUMP: for (int i = 0; i < 4; ++i) {
// DUMP-NEXT: _t1 = q[i] * q[i];
// DUMP-NEXT: _stack.push(_t1);
// DUMP-NEXT: }
// DUMP: _d_q[i] += q[i] * _r2;
// DUMP-NEXT: _d_q[i] += _r2 * q[i];

// w is written in the loop: w[i] is recorded once per iteration, and
// 0.5 * s records nothing.
[[grad]] double square(const double *x, double y) {
  double w[3] = {x[0], x[1], x[2]};
  double s = 0;
  for (int i = 0; i < 3; ++i) {
    s += w[i] * w[i];
    w[(i + 1) % 3] *= y;
  }
  return 0.5 * s;
}
// SQUARE: _t0 = w[i];
// SQUARE-NEXT: _stack.push(_t0);
// SQUARE-NEXT: _t1 = w[(i + 1) % 3];
// SQUARE-NEXT: w[(i + 1) % 3] *= y;
// SQUARE-NEXT: _stack.push(_t1);
// SQUARE-NEXT: }

[[grad]] double before_after(const double *x, double y) {
  double a[4];
  for (int i = 0; i < 4; ++i)
    a[i] = std::sin(x[i] * y);
  double s = 0;
  for (int i = 0; i < 4; ++i)
    s += a[i] * a[i] * x[i];       // a unchanged after: re-read
  a[1] = s * a[2];                  // written after the reads above
  return s + a[1] * a[1];
}
[[grad]] double in_loop(const double *x, double y) {
  double a[3] = {x[0], x[1], x[2]};
  double s = 0;
  for (int k = 0; k < 3; ++k) {
    s += a[k] * a[(k + 1) % 3] * y; // written later in the same loop
    a[(k + 2) % 3] = std::cos(s);
  }
  return s * a[0];
}
[[grad]] double via_call(const double *x, double y) {
  double a[2] = {x[0] * y, x[1]};
  double s = a[0] * a[1];
  auto bump = [&a](double v) { a[1] = v * a[1]; };
  bump(y);                          // a lambda writes a after the read
  return s + a[1] * a[0];
}
void scale2(double *p, double c) { p[0] *= c; p[1] *= c; }
[[grad]] double via_helper(const double *x, double y) {
  double a[2] = {x[0], x[1] * y};
  double s = a[0] * a[1];
  scale2(a, y);                     // a helper writes a after the read
  return s * a[1] + a[0];
}
[[grad]] double vec_later(const double *x, double y) {
  std::vector<double> v(3);
  for (int i = 0; i < 3; ++i) v[i] = x[i] * y;
  double s = v[0] * v[1] * v[2];
  v.push_back(s);
  v[0] = v[3] * v[1];
  return s + v[0] * v[2];
}
[[grad]] double early_lambda(const double *x, double y) {
  double a[2] = {x[0], x[1]};
  auto f = [&a](double v) { a[0] = a[0] * v; };
  double s = a[0] * a[1] * y;      // the lambda is defined before, called after
  f(y);
  return s * a[0];
}
int main() {
  double x[4] = {0.3, 0.7, -0.4, 1.1}, y = 0.9;
#define CHECK(F)                                                               \
  {                                                                            \
    double dx[4] = {0, 0, 0, 0}, dy = 0;                                       \
    F##_pullback(x, y, 1.0, dx, &dy);                                          \
    auto g = [&](double yy) { return F(x, yy); };                              \
    expect(#F " dy", dy, fd(g, 0, y));                                         \
    for (int i = 0; i < 3; ++i) {                                              \
      auto h = [&](double xi) { double xx[4] = {x[0], x[1], x[2], x[3]}; xx[i] = xi; return F(xx, y); }; \
      expect(#F " dx", dx[i], fd(h, 0, x[i]));                                 \
    }                                                                          \
  }
  CHECK(filled_then_read) CHECK(square) CHECK(before_after) CHECK(in_loop) CHECK(via_call) CHECK(via_helper) CHECK(vec_later) CHECK(early_lambda)
  return failures();
}
// CHECK: ok filled_then_read dy
// CHECK-NEXT: ok filled_then_read dx
// CHECK-NEXT: ok filled_then_read dx
// CHECK-NEXT: ok filled_then_read dx
// CHECK-NEXT: ok square dy
// CHECK-NEXT: ok square dx
// CHECK-NEXT: ok square dx
// CHECK-NEXT: ok square dx
// CHECK-NEXT: ok before_after dy
// CHECK-NEXT: ok before_after dx
// CHECK-NEXT: ok before_after dx
// CHECK-NEXT: ok before_after dx
// CHECK-NEXT: ok in_loop dy
// CHECK-NEXT: ok in_loop dx
// CHECK-NEXT: ok in_loop dx
// CHECK-NEXT: ok in_loop dx
// CHECK-NEXT: ok via_call dy
// CHECK-NEXT: ok via_call dx
// CHECK-NEXT: ok via_call dx
// CHECK-NEXT: ok via_call dx
// CHECK-NEXT: ok via_helper dy
// CHECK-NEXT: ok via_helper dx
// CHECK-NEXT: ok via_helper dx
// CHECK-NEXT: ok via_helper dx
// CHECK-NEXT: ok vec_later dy
// CHECK-NEXT: ok vec_later dx
// CHECK-NEXT: ok vec_later dx
// CHECK-NEXT: ok vec_later dx
// CHECK-NEXT: ok early_lambda dy
// CHECK-NEXT: ok early_lambda dx
// CHECK-NEXT: ok early_lambda dx
// CHECK-NEXT: ok early_lambda dx
