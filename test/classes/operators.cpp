// Overloaded operators differentiated like any callee: free and member
// operators on structs (`a + b`, `2.0 * a`, `-c`, `c[2]` returning a value,
// `a < b` replayed), temporaries as operands (`2.0 * a + Vec3{y, 1, x}`),
// `[[grad]]` on operators (pullbacks `operator_star_pullback`,
// `operator_subscript_pullback`), a conversion function used implicitly
// (`conversion_pullback`), and compound assignment through a free
// `V &operator+=(V &, const V &)` returning its left operand (no seed; the
// call is a side effect of its statement).
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "vecgrad.h"
#include <cmath>
struct Vec3 {
  double x, y, z;
  Vec3 operator+(const Vec3 &o) const { return {x + o.x, y + o.y, z + o.z}; }
  Vec3 operator-() const { return {-x, -y, -z}; }
  double operator[](int i) const { return i == 0 ? x : i == 1 ? y : z; }
  double dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
};
static Vec3 operator*(double s, const Vec3 &v) { return {s * v.x, s * v.y, s * v.z}; }
static Vec3 operator-(const Vec3 &a, const Vec3 &b) { return a + (-b); }
// DUMP: void operator_star_pullback(const Vec3 &a, const Vec3 &b, const Vec3 &d_ret, Vec3 *d_a, Vec3 *d_b);
[[grad]] Vec3 operator*(const Vec3 &a, const Vec3 &b) { return {a.x * b.x, a.y * b.y, a.z * b.z}; }
static bool operator<(const Vec3 &a, const Vec3 &b) { return a.x < b.x; }
// DUMP-LABEL: void ops_pullback({{.*}}) {
// DUMP: Vec3 b = _o{{[0-9]+}}.operator+(_t{{[0-9]+}});
[[grad]] double ops(double x, double y) {
  Vec3 a{x, y, x * y};
  Vec3 b = 2.0 * a + Vec3{y, 1, x};
  Vec3 c = b - a * b;
  double s = a < c ? c[0] : c[1];
  return c.dot(a) + c[2] * b[0] + (-c)[1] + s;
}
struct V2 { double a, b; };
static V2 &operator+=(V2 &p, const V2 &q) { p.a += q.a; p.b += q.b; return p; }
static V2 operator*(const V2 &p, double s) { return {p.a * s, p.b * s}; }
[[grad]] double accumulate(double x, double y) {
  V2 acc{0, 0};
  for (int i = 0; i < 3; ++i)
    acc += V2{x, y} * (i + 1.0);
  acc += V2{acc.b, x};
  return acc.a * acc.b + acc.b * acc.b;
}
// A conversion function (pullback `conversion_pullback`) used implicitly.
struct Area {
  double w, h;
  operator double() const { return w * h; }
};
[[grad]] double convert(double x, double y) {
  Area a{x, y * x};
  double s = a;
  return s * x + static_cast<double>(Area{y, 2.0});
}
// A later function (clang's parent map, built for the one above, does not
// know it): discarded `s += ...` in a block and at the top level.
[[grad]] double later(double x, double y) {
  V2 s{x, y};
  if (x > 0) {
    s += V2{y, x};
  }
  s += s;
  return s.a * s.b;
}
struct Poly {
  double c[3];
  double operator()(double x) const { return c[0] + x * (c[1] + x * c[2]); }
  [[grad]] double operator[](int i) const { return c[i] * c[i]; }
};
[[grad]] double poly(const Poly &p, double x) { return p(x) * p[1]; }

int main() {
#define XY(F) { double dx = 0, dy = 0; F##_pullback(0.7, 1.3, 1, &dx, &dy); \
    vecgrad::check(#F, [](const std::vector<double>& V){ return F(V[0], V[1]); }, {0.7, 1.3}, {dx, dy}); }
  XY(ops) XY(accumulate) XY(convert) XY(later)
  // CHECK: ok ops.d0
  // CHECK: ok ops.d1
  // CHECK: ok accumulate.d0
  // CHECK: ok accumulate.d1
  // CHECK: ok convert.d0
  // CHECK: ok convert.d1
  // CHECK: ok later.d0
  // CHECK: ok later.d1
  // The pullbacks of [[grad]] operators, called by their names.
  Vec3 da{}, db{};
  operator_star_pullback(Vec3{1, 2, 3}, Vec3{4, 5, 6}, Vec3{1, 1, 1}, &da, &db);
  gradcheck::expect("star.da", da.x + 2 * da.y + 3 * da.z, 4 + 10 + 18.0);
  gradcheck::expect("star.db", db.x + 2 * db.y + 3 * db.z, 1 + 4 + 9.0);
  // CHECK: ok star.da
  // CHECK: ok star.db
  Poly p{{1, 2, 3}}, dq{};
  p.operator_subscript_pullback(2, 1.0, &dq);
  gradcheck::expect("subscript", dq.c[2], 6.0);
  // CHECK: ok subscript
  Poly dp{};
  double dx = 0;
  poly_pullback(p, 0.5, 1.0, &dp, &dx);
  vecgrad::check("poly", [](const std::vector<double> &V) { Poly q{{V[0], V[1], V[2]}}; return poly(q, V[3]); },
                 {1, 2, 3, 0.5}, {dp.c[0], dp.c[1], dp.c[2], dx});
  // CHECK-COUNT-4: ok poly.d
  return gradcheck::failures();
}
