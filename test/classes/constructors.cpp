// Construction through user-written constructors that copy their parameters
// into members (`Vec3(double x, double y, double z) : x(x), y(y), z(z) {}`,
// an empty body; members set from constants are left out): locals built
// with parentheses or braces, temporaries passed to helpers by const
// reference (`add(v, Vec3(y, x, x))`: recorded, with a local adjoint),
// returned from helpers, explicit single-argument constructors
// (`Meter(y)`), and classes without a default constructor (shadows are
// zero bytes, never a default construction).
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
int main() {
#define XY(F) { double dx = 0, dy = 0; F##_pullback(0.7, 1.3, 1, &dx, &dy); \
    vecgrad::check(#F, [](const std::vector<double>& V){ return F(V[0], V[1]); }, {0.7, 1.3}, {dx, dy}); }
  XY(ctor1) XY(ctor2) XY(ctor3)
  // CHECK: ok ctor1.d0
  // CHECK: ok ctor1.d1
  // CHECK: ok ctor2.d0
  // CHECK: ok ctor2.d1
  // CHECK: ok ctor3.d0
  // CHECK: ok ctor3.d1
  return gradcheck::failures();
}
