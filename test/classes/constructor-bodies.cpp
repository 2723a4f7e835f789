// Constructors that compute members or have a body, differentiated on
// demand: `constructor_pullback(args..., adjoints..., T *d_this)` replays the
// member initialisers as assignments and the body on an object of zero
// bytes and sends the built object's adjoint back to the arguments. Locals
// (parentheses, braces, `auto p = T(...)`), temporaries and their members
// (`Gauss{b, a}.inv`), members of class type copied or built from braces,
// array members, default member initialisers, loops in the body, pointer
// parameters, constructions in loops and in helpers that return them,
// non-const member calls in the body.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "vecgrad.h"
#include <cmath>
#include <grad/grad.h>
struct Polar {
  double r, t, x, y;
  Polar(double r, double t) : r(r), t(2 * t) {
    x = r * std::cos(this->t);
    y = r * std::sin(this->t);
  }
};
struct Gauss {
  double mu, inv;
  int n = 3;
  Gauss(double mu, double s = 2.0) : mu(mu), inv(1 / (s * s)) {}
  double logp(double z) const { return -0.5 * (z - mu) * (z - mu) * inv * n; }
};
struct Vec3 { double x, y, z; };
struct Box {
  Vec3 lo, hi;
  double vol;
  Box(const Vec3 &a, double s) : lo(a), hi{a.x + s, a.y + s, a.z * s} {
    vol = (hi.x - lo.x) * (hi.y - lo.y) * (hi.z - lo.z);
  }
};
struct Stats {
  double mean = 0, var = 0;
  Stats(const double *xs, int n) {
    for (int i = 0; i < n; ++i)
      mean += xs[i];
    mean /= n;
    for (int i = 0; i < n; ++i)
      var += (xs[i] - mean) * (xs[i] - mean);
    var /= n;
  }
};
struct Poly {
  double c[3];
  Poly(double a, double b) : c{a, b, a * b} { c[2] += c[0] * c[1]; }
  double at(double x) const { return c[0] + x * (c[1] + x * c[2]); }
};
struct Acc {
  double s, q = 0;
  void add(double v) { s += v; q += v * v; }
  Acc(double a, double b) : s(a) { add(a * b); add(std::exp(b)); }
};
static Polar mk(double a, double b) { return Polar(a, b); }
struct P3 {
  double x, y, z;
  P3(double a, double b, double c) : x(a * b), y(b - c) { z = c * x + 0.5 * y; }
  double lam(double t) const { return x * t + y + z; }
};
// A callee differentiated in two halves (a call chain with a branch: its
// forward half pushes a flag) in both the temporary's constructor and the
// method's argument: the object is evaluated first, so its adjoint goes
// back last (it went first: a wrong gradient without a diagnostic).
static double k7(double x) { return std::sin(x) * x; }
static double k8(double x) { return k7(x) + x * x; }
static double k9(double x, double y) {
  double t = k8(x) * y;
  if (t > 0.1)
    t = t * x;
  else
    t = std::sin(t);
  return std::tanh(t) + y;
}

// DUMP-LABEL: void f1_pullback({{.*}}) {
// DUMP: Polar p = Polar(a, b);
// DUMP: Polar _g{{[0-9]+}} = _d_p;
// DUMP-NEXT: ::grad::detail::zeroed<Polar>().constructor_pullback(a, b, &_d_a, &_d_b, &_g{{[0-9]+}});
// DUMP-LABEL: inline void Polar::constructor_pullback(double r, double t, double *d_r, double *d_t, Polar *d_this) {
// DUMP: this->r = r;
// DUMP-NEXT: this->t = 2 * t;
[[grad]] double f1(double a, double b) { Polar p(a, b); return p.x * p.y + p.r; }
[[grad]] double f2(double a, double b) { return Gauss(a, b).logp(1.5) + Gauss{b, a}.inv + Gauss(a).logp(b); }
[[grad]] double f3(double a, double b) { Vec3 v{a, b, a * b}; Box bx(v, b); return bx.vol + bx.hi.z; }
[[grad]] double f4(double a, double b) { double xs[3] = {a, b, a * b}; Stats s(xs, 3); return s.var + s.mean * s.mean; }
[[grad]] double f5(double a, double b) { auto p = Polar(a, b); Polar q{b, a}; p = q; return p.x + q.y; }
[[grad]] double f6(double a, double b) {
  double s = 0;
  for (int i = 1; i <= 3; ++i) {
    Polar p(a * i, b);
    s += p.x * p.y;
  }
  return s;
}
[[grad]] double f7(double a, double b) { return mk(a, b).y * mk(b, a).x; }
[[grad]] double f8(double a, double b) { Poly p(a, b); return p.at(b) * Poly(b, a).c[2]; }
[[grad]] double f9(double a, double b) { Acc c(a, b); return c.s * c.q; }
[[grad]] double f10(double a, double b) { double t = -a; return P3(a, t, k9(t, b)).lam(k9(b, t)); }

int main() {
#define XY(F) { double dx = 0, dy = 0; F##_pullback(0.7, 1.3, 1, &dx, &dy); \
    vecgrad::check(#F, [](const std::vector<double>& V){ return F(V[0], V[1]); }, {0.7, 1.3}, {dx, dy}); }
  XY(f1) XY(f2) XY(f3) XY(f4) XY(f5) XY(f6) XY(f7) XY(f8) XY(f9) XY(f10)
  // CHECK: ok f1.d0
  // CHECK: ok f1.d1
  // CHECK: ok f2.d0
  // CHECK: ok f2.d1
  // CHECK: ok f3.d0
  // CHECK: ok f3.d1
  // CHECK: ok f4.d0
  // CHECK: ok f4.d1
  // CHECK: ok f5.d0
  // CHECK: ok f5.d1
  // CHECK: ok f6.d0
  // CHECK: ok f6.d1
  // CHECK: ok f7.d0
  // CHECK: ok f7.d1
  // CHECK: ok f8.d0
  // CHECK: ok f8.d1
  // CHECK: ok f9.d0
  // CHECK: ok f9.d1
  // CHECK: ok f10.d0
  // CHECK: ok f10.d1
  return gradcheck::failures();
}
