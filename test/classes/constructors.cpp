// Construction through user-written constructors that copy their parameters
// into members (`Vec3(double x, double y, double z) : x(x), y(y), z(z) {}`,
// an empty body; members set from constants are left out): locals built
// with parentheses or braces, temporaries passed to helpers by const
// reference (`add(v, Vec3(y, x, x))`: recorded, with a local adjoint),
// returned from helpers, explicit single-argument constructors
// (`Meter(y)`), and classes without a default constructor (shadows are
// zero bytes, never a default construction); member calls on temporaries.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "vecgrad.h"
#include <cmath>
struct Vec3 {
  double x, y, z;
  Vec3(double x, double y, double z) : x(x), y(y), z(z) {}
  double norm() const { return std::sqrt(x * x + y * y + z * z); }
};
struct Meter { double v; int unit = 1; explicit Meter(double v) : v(v) {} };
static Vec3 add(const Vec3 &a, const Vec3 &b) { return Vec3(a.x + b.x, a.y + b.y, a.z + b.z); }
// DUMP-LABEL: void ctor1_pullback({{.*}}) {
// DUMP: Vec3 v(x, y, x * y);
// DUMP: _d_y += _d_v.y;
[[grad]] double ctor1(double x, double y) { Vec3 v(x, y, x * y); return v.x * v.z + v.y; }
[[grad]] double ctor2(double x, double y) { Vec3 v{x, y, 1.0}; Vec3 w = add(v, Vec3(y, x, x)); return w.norm(); }
[[grad]] double ctor3(double x, double y) { Meter m(5 * x); Meter n = Meter(y); return m.v * n.v; }
// A member call on a temporary (its value is kept, its adjoint goes to the
// constructor's arguments), and on an object written after the call (the
// pullback is called on the value the object had at the call).
// DUMP-LABEL: void ctor4_pullback({{.*}}) {
// DUMP: _o{{[0-9]+}} = Vec3(x, y, 2.);
[[grad]] double ctor4(double x, double y) { return Vec3(x, y, 2.0).norm() * x; }
[[grad]] double keep(double x, double y) {
  Vec3 v{x, y, 1.0};
  double r = v.norm();
  v.x = 5 * y;
  v.y *= r;
  return r * v.x + v.norm();
}
int main() {
#define XY(F) { double dx = 0, dy = 0; F##_pullback(0.7, 1.3, 1, &dx, &dy); \
    vecgrad::check(#F, [](const std::vector<double>& V){ return F(V[0], V[1]); }, {0.7, 1.3}, {dx, dy}); }
  XY(ctor1) XY(ctor2) XY(ctor3) XY(ctor4) XY(keep)
  // CHECK: ok ctor1.d0
  // CHECK: ok ctor1.d1
  // CHECK: ok ctor2.d0
  // CHECK: ok ctor2.d1
  // CHECK: ok ctor3.d0
  // CHECK: ok ctor3.d1
  // CHECK: ok ctor4.d1
  // CHECK: ok keep.d1
  return gradcheck::failures();
}
