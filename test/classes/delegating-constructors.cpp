// Delegating constructors (`Vec3(double s) : Vec3(s, s, s) {}`): the
// target's member initializers run with its parameters replaced by the
// arguments (a target with an empty body that copies parameters or
// constants into members, integer members and default member initializers
// included), then the delegating constructor's own body. A target that
// computes a member is an error at the delegation (this was an error for
// every delegating constructor).
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | FileCheck %s --check-prefix=ERR --implicit-check-not=error:
#include "vecgrad.h"
#include <cmath>

struct Vec3 {
  double x, y, z;
  Vec3(double a, double b, double c) : x(a), y(b), z(c) {}
  Vec3(double s) : Vec3(s, s, s) {}
  Vec3() : Vec3(0, 0, 0) {}
  double norm() const { return std::sqrt(x * x + y * y + z * z); }
};

struct Scaled {
  double a, b;
  int n = 2;
  int k;
  Scaled(double p, double q, int k) : a(p), b(q), k(k) {}
  Scaled(double s) : Scaled(s, 2 * s, 3) { b += std::sin(s) * n * k; }
};

[[grad]] double uniform(double x, double y) {
  Vec3 v(x);
  Vec3 w;
  w.y = y;
  w.z = x * y;
  return v.norm() * Vec3(y).norm() + w.norm() + Vec3(x * y).z;
}

[[grad]] double scaled(double x, double y) {
  Scaled s(x);
  Scaled t(y * x);
  return s.a * s.b + t.b * y + s.n * t.k;
}

#ifdef ERRORS
struct Polar {
  double x, y;
  Polar(double r, double t, int) : x(r * std::cos(t)), y(r * std::sin(t)) {}
  // ERR: delegating-constructors.cpp:[[@LINE+1]]:21: error: grad: cannot differentiate delegating constructor (its target computes member 'x': initialize the members here instead) in 'Polar'
  Polar(double r) : Polar(r, 0.5, 0) {}
};
[[grad]] double polar(double x) {
  Polar p(x);
  return p.x + p.y;
}
#endif

int main() {
#define XY(F) { double dx = 0, dy = 0; F##_pullback(0.7, 1.3, 1, &dx, &dy); \
    vecgrad::check(#F, [](const std::vector<double>& V){ return F(V[0], V[1]); }, {0.7, 1.3}, {dx, dy}); }
  XY(uniform) XY(scaled)
  // CHECK: ok uniform.d0
  // CHECK: ok uniform.d1
  // CHECK: ok scaled.d0
  // CHECK: ok scaled.d1
  return gradcheck::failures();
}
