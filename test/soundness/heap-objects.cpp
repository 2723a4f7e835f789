// Single heap objects: `double *p = new double(x)`, `T *t = new T{x, y}`,
// `S *s = new S{x, false}; s->get()`, `new S(a, b)` through a constructor.
// `delete p` ends what p points to as an overwrite does: a member call
// before it runs its pullback on a copy of the object kept at the call.
// The value the object starts with is the initializer's: its derivative
// flows from the object's shadow back to the initializer (reverse mode:
// in the reverse of the declaration, before the shadow is freed; forward
// mode: the initializer's tangent is stored into the tangent memory). Before
// (issue 49), the derivative through them was dropped: d/di 8 for 9, 0 for
// 1. Heap arrays (`new T[n]`) are in test/memory/heap.cpp.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
#include "fwdcheck.h"
#include <cmath>

struct T2 { double a, b; };
struct S {
  double v;
  bool flag;
  double get() const { return flag ? v : v * v; }
};
struct P {
  double x, y;
  P(double u, double w) : x(u * w), y(std::sin(u)) {}
  double sum() const { return x + 2 * y; }
};

[[grad, grad::forward]] double scalar(double x, double y) {
  double *p = new double(x * y);
  *p += x;
  double r = *p * *p * y;
  delete p;
  return r;
}

[[grad, grad::forward]] double braced(double x, double y) {
  double *p = new double{std::exp(x)};
  double r = *p * y;
  delete p;
  return r;
}

[[grad, grad::forward]] double aggregate(double x, double y) {
  T2 *t = new T2{x, y * x};
  t->a *= y;
  double r = t->a * 3 + t->b * t->b;
  delete t;
  return r;
}

[[grad]] double method(double x, double y) {
  S *s = new S{x * y, false};
  double r = s->get() + y;
  delete s;
  return r;
}

[[grad]] double ctor(double x, double y) {
  P *q = new P(x, y);
  double r = q->sum() * x;
  delete q;
  return r;
}

int main() {
  fwdcheck::both("scalar", scalar, scalar_pullback, scalar_pushforward, 1.3,
                 -0.7);
  // CHECK: ok scalar.d0
  // CHECK: ok scalar.fwd.x
  fwdcheck::both("braced", braced, braced_pullback, braced_pushforward, 1.3,
                 -0.7);
  // CHECK: ok braced.d0
  fwdcheck::both("aggregate", aggregate, aggregate_pullback,
                 aggregate_pushforward, 1.3, -0.7);
  // CHECK: ok aggregate.d1
  gradcheck::check_grad("method", method, method_pullback, 1.3, -0.7);
  // CHECK: ok method.d1
  gradcheck::check_grad("ctor", ctor, ctor_pullback, 1.3, -0.7);
  // CHECK: ok ctor.d1
  return gradcheck::failures();
}
