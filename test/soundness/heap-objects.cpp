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
#include <functional>

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

// An initializer that makes temporaries (a full expression with cleanups
// around the `new`): before, the activity analysis looked at the wrapper,
// a pointer, and took the object for a constant (every member's
// derivative lost).
[[grad, grad::forward]] double functional(double x, double y) {
  T2 *t = new T2{x, std::multiplies<>{}(y, std::negate<>{}(x))};
  double r = t->a * y + 0.5 * t->b;
  delete t;
  return r;
}

struct HS {
  double v;
  bool flip;
  double get() const { return flip ? -v : v * v; }
};

// Heap objects allocated in a loop body, used through a member call and an
// interior pointer, with jumps out of the body (before: "internal error: no
// offset"; with the shadow pointer restored after the uses, gradient 3 for
// 6). The shadow pointer is restored with the block that declares it.
[[grad]] double loop(double x, double y) {
  double s = 0;
  for (int i = 0; i < 3; ++i) {
    HS *h = new HS{x * (i + 1), i == 1};
    h->v *= 0.5 * y + 0.5;
    double *p = &h->v;
    *p += std::sin(x);
    s += h->get() * y;
    delete h;
  }
  return s;
}
[[grad]] double jumps(double x, double y) {
  double s = 0;
  for (int i = 0; i < 4; ++i) {
    if (i == 2)
      continue;
    double *q = new double[2];
    q[0] = x * i;
    q[1] = y * q[0];
    HS *h = new HS{q[1] + x, i == 3};
    if (i == 3) {
      s += h->get();
      delete h;
      delete[] q;
      break;
    }
    s += h->get() * q[0];
    delete h;
    delete[] q;
  }
  return s;
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
  fwdcheck::both("functional", functional, functional_pullback,
                 functional_pushforward, 1.3, -0.7);
  // CHECK: ok functional.d0
  // CHECK: ok functional.d1
  // CHECK: ok functional.fwd.y
  gradcheck::check_grad("loop", loop, loop_pullback, 1.3, -0.7);
  // CHECK: ok loop.d0
  // CHECK: ok loop.d1
  gradcheck::check_grad("jumps", jumps, jumps_pullback, 1.3, -0.7);
  // CHECK: ok jumps.d0
  // CHECK: ok jumps.d1
  return gradcheck::failures();
}
