// Non-const member functions called on differentiated objects: `a.add(x)`,
// `p.step(dt, f)` in a loop, `v += w` through a member operator returning
// `*this`, a method returning a value after changing its object, and a
// member function calling another one on `this`. The forward sweep keeps a
// copy of the object as it was before the call; the reverse sweep calls the
// method's pullback on that copy with the object's adjoint in/out.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "vecgrad.h"
#include <cmath>
struct Acc {
  double s = 0, q = 0;
  void add(double v) { s += v * v; q = q * v + s; }
  double take(double k) { double r = s * k; s *= 0.5; return r; }
  void scale(double k) { s *= k; q *= k; }
  void twice(double v) { add(v); this->add(v * 0.5); }
};
struct Particle {
  double x, v;
  void step(double dt, double f) { v += dt * f; x += dt * v; }
  double energy() const { return 0.5 * v * v + x * x; }
};
struct V2 {
  double a, b;
  V2 &operator+=(const V2 &o) { a += o.a; b += o.b * a; return *this; }
};
// DUMP-LABEL: void acc_pullback({{.*}}) {
// DUMP: _o{{[0-9]+}} = a;
// DUMP-NEXT: a.add(x);
// DUMP: _o{{[0-9]+}}.add_pullback(x, {{.*}}, &_d_a);
[[grad]] double acc(double x, double y) {
  Acc a;
  a.add(x);
  a.add(2 * y);
  double t = a.take(y) + a.take(x);
  a.scale(t);
  a.twice(y);
  return a.s + a.q * x;
}
[[grad]] double orbit(double x, double y) {
  Particle p{x, y};
  for (int i = 0; i < 5; ++i)
    p.step(0.1, -std::sin(p.x) * y);
  return p.energy();
}
[[grad]] double sums(double x, double y) {
  V2 s{x, y};
  for (int i = 0; i < 3; ++i)
    s += V2{y * i, x};
  return s.a * s.b;
}
// A struct parameter changed by its own methods.
[[grad]] double param(Particle p, double f) {
  p.step(0.5, f);
  p.step(0.25, f * p.x);
  return p.energy();
}
// On elements of arrays and vectors (also in loops) and through pointers:
// the object's adjoint is the element's shadow, or the pointer's.
struct Pt {
  double x, y;
  double norm() const { return std::sqrt(x * x + y * y); }
  void step(double s) { x += s * y; y *= std::cos(s * x); }
};
[[grad]] double elems(double x, double y) {
  Pt pts[2] = {{x, y}, {y, 2 * x}};
  pts[1].step(x);
  pts[0].step(pts[1].y);
  return pts[1].norm() * pts[0].x;
}
[[grad]] double viaptr(double x, double y) {
  Pt pts[2] = {{x, y}, {y, 2 * x}};
  Pt *p = &pts[1];
  p->step(y);
  p->step(x);
  const Pt *q = pts;
  return p->norm() + q->norm() * pts[1].x;
}
[[grad]] double invec(double x, double y) {
  std::vector<Pt> v{{x, y}, {y, x}};
  for (int i = 0; i < 2; ++i)
    v[i].step(x * i + y);
  return v[0].norm() * v[1].y;
}

int main() {
#define XY(F) { double dx = 0, dy = 0; F##_pullback(0.7, 1.3, 1, &dx, &dy); \
    vecgrad::check(#F, [](const std::vector<double>& V){ return F(V[0], V[1]); }, {0.7, 1.3}, {dx, dy}); }
  XY(acc) XY(orbit) XY(sums) XY(elems) XY(viaptr) XY(invec)
  // CHECK-COUNT-2: ok acc.d
  // CHECK-COUNT-2: ok orbit.d
  // CHECK-COUNT-2: ok sums.d
  // CHECK-COUNT-2: ok elems.d
  // CHECK-COUNT-2: ok viaptr.d
  // CHECK-COUNT-2: ok invec.d
  Particle p{0.4, -0.3}, dp{};
  double df = 0;
  param_pullback(p, 0.8, 1.0, &dp, &df);
  vecgrad::check("param", [](const std::vector<double> &V) { return param(Particle{V[0], V[1]}, V[2]); },
                 {0.4, -0.3, 0.8}, {dp.x, dp.v, df});
  // CHECK-COUNT-3: ok param.d
  return gradcheck::failures();
}
