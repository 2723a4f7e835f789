// `*this = e` and assignments of struct members of `this` (`v = v * 2.0`)
// in non-const member functions: the object's shadow (`*d_this`, or that
// member of it) takes the adjoint, which goes to `e`; the member functions
// are called on locals, in loops, after and before reads of the members
// they overwrite, and one is [[grad]] itself (its `d_this` in/out). (It was
// an error: "assignment to pointer dereference", "assignment to member
// access".) Reverse mode against finite differences.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s --function=resetAndRead %dflags | FileCheck %s --check-prefix=DUMP
#include "gradcheck.h"
#include <cmath>
#include <string>

struct V {
  double a, b;
  void reset(double x) { *this = V{x, 2 * x}; }
  void blend(double t, const V &o) {
    double keep = a * b;
    *this = V{a * (1 - t) + o.a * t, b + o.b * t * keep};
    a += std::sin(keep) * b;
  }
  void scaleBy(double s) {
    V c{a * s, b * s};
    if (s > 0)
      *this = c;
  }
  double s() const { return a * b; }
  [[grad]] double shift(double d) {
    double before = a + b;
    *this = V{b * d, a - d};
    return before * a + b;
  }
};
// DUMP: inline void V::reset_pullback(double x, double *d_x, V *d_this) {
// DUMP: *this = V{x, 2 * x};
// DUMP: V _r{{[0-9]+}} = *d_this;
// DUMP-NEXT: ::grad::detail::zero(*d_this);

V operator*(const V &v, double k) { return V{v.a * k, v.b * k}; }
struct W {
  V v;
  double w;
  void twice() {
    v = v * 2.0;
    *this = W{v, w * v.a};
  }
};

[[grad]] double resetAndRead(double x, double y) {
  V v{y, y};
  v.reset(x);
  return v.s() + y;
}

[[grad]] double blended(double x, double y) {
  V v{x, y}, o{y * y, x};
  double s = 0;
  for (int i = 0; i < 3; ++i) {
    v.blend(0.25 * (i + 1), o);
    v.scaleBy(i % 2 ? 0.9 : -1.0);
    s += v.s();
  }
  return s;
}

[[grad]] double members(double x, double y) {
  W w{{x, y}, x * y};
  w.twice();
  w.twice();
  return w.w + w.v.b;
}

template <class F> static double fd(F f, double &v) {
  double h = 1e-6, o = v;
  v = o + h;
  double a = f();
  v = o - h;
  double b = f();
  v = o;
  return (a - b) / (2 * h);
}

int main() {
  using gradcheck::expect;
  double x = 0.7, y = 1.3;
  auto XY = [&](const char *Name, auto F, auto Pb) {
    double dx = 0, dy = 0;
    Pb(x, y, 1.0, &dx, &dy);
    expect(std::string(Name) + ".dx", dx, fd([&] { return F(x, y); }, x));
    expect(std::string(Name) + ".dy", dy, fd([&] { return F(x, y); }, y));
  };
  XY("resetAndRead", resetAndRead, resetAndRead_pullback);
  XY("blended", blended, blended_pullback);
  XY("members", members, members_pullback);
  // CHECK: ok resetAndRead.dx
  // CHECK-NEXT: ok resetAndRead.dy
  // CHECK-NEXT: ok blended.dx
  // CHECK-NEXT: ok blended.dy
  // CHECK-NEXT: ok members.dx
  // CHECK-NEXT: ok members.dy
  V v{0.4, -1.2}, dv{0, 0};
  double d = 0.9, dd = 0;
  V c = v;
  c.shift_pullback(d, 1.0, &dd, &dv);
  auto F = [&] {
    V t = v;
    return t.shift(d);
  };
  expect("shift.dd", dd, fd(F, d));
  expect("shift.da", dv.a, fd(F, v.a));
  expect("shift.db", dv.b, fd(F, v.b));
  // CHECK-NEXT: ok shift.dd
  // CHECK-NEXT: ok shift.da
  // CHECK-NEXT: ok shift.db
  return gradcheck::failures();
}
