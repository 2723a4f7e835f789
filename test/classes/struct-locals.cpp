// Local objects of class type (issue 13): aggregates, nested members and
// arrays, bases, std::pair, copies and assignment, braces returned from
// helpers, by-value parameters written in the body, classes whose default
// constructor does not zero (or does not exist): the shadow of an object is
// an object of the same type, zeroed member by member.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "vecgrad.h"
#include <array>
#include <cmath>
#include <utility>
struct Vec3 { double x, y, z; double dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; } };
struct NoDef { double a, b; NoDef(double a, double b) : a(a), b(b) {} };
struct Init { double a = 1.5; double b = 2.0; };
struct Base { double w; };
struct Derived : Base { double v; };
[[grad]] double byval(Vec3 p, double s) { p.x *= s; p.y = p.x + p.z; return p.y * p.x; }
[[grad]] double nodef(NoDef n, double s) { return n.a * s + n.b; }
// DUMP-LABEL: void nodefw_pullback({{.*}}) {
// DUMP: NoDef _d_n = ::grad::detail::zeroed<NoDef>();
// DUMP: (*d_n).a += _d_n.a;
[[grad]] double nodefw(NoDef n, double s) { n.a *= s; return n.a + n.b; }
// DUMP-LABEL: void defaults_pullback({{.*}}) {
// DUMP: Init _d_q = ::grad::detail::zeroed<Init>();
[[grad]] double defaults(double x) { Init q; q.a *= x; return q.a + q.b * x; }
[[grad]] double derived(double x, double y) { Derived d{{x}, y}; d.w *= d.v; return d.w + d.v; }
[[grad]] double arrstruct(double x, double y) {
  std::array<Vec3, 2> a{}; a[0] = Vec3{x, y, 1}; a[1] = a[0]; a[1].z = x * y; return a[1].x * a[1].z + a[0].y; }
[[grad]] double method(double x, double y) { Vec3 v{x, y, 2}; Vec3 w{y, x, x}; return v.dot(w); }
[[grad]] double methodw(double x, double y) { Vec3 v{x, y, 2}; v.z = x; return v.dot(v); }
static Vec3 cross(const Vec3 &a, const Vec3 &b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
[[grad]] double crossn(double x, double y) { Vec3 a{x, y, 1}; Vec3 b{y, 1, x}; Vec3 c = cross(a, b); return c.x * c.x + c.y * c.z; }
[[grad]] Vec3 mk(double x, double y) { Vec3 r{x * y, x, y}; r.z *= x; return r; }
[[grad]] double usemk(double x, double y) { Vec3 r = mk(x, y); r = mk(r.x, r.z); return r.x + r.y * r.z; }
struct Params { double a; double w[3]; Vec3 c; int n; };
struct Ctor { double u, v; Ctor(double a, double b) : u(a), v(b * 2) {} };
static double norm(const Vec3 &v) { return std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z); }
static Vec3 scale(const Vec3 &v, double s) { return Vec3{v.x * s, v.y * s, v.z * s}; }
static void addTo(Vec3 *acc, const Vec3 &v) { acc->x += v.x; acc->y += v.y; acc->z += v.z; }

[[grad]] double brace(double x, double y) { Vec3 v{x, y, x * y}; return v.x * v.y + v.z; }
[[grad]] double writes(double x, double y) {
  Vec3 v; v.x = x; v.y = y * x; v.z = 1; v.x += v.y; v.z *= v.x; return v.x * v.z; }
[[grad]] double copyparam(const Vec3 &p, double s) { Vec3 q = p; q.x *= s; return q.x + q.y * q.z; }
[[grad]] double nested(double x, double y) {
  Params P{x, {y, x, 2.0}, {y, y * x, 1.0}, 3};
  P.w[1] *= P.c.y; P.c.z = P.a + P.w[0];
  double s = 0; for (int i = 0; i < 3; ++i) s += P.w[i] * P.c.z;
  return s * P.n; }
[[grad]] double helpers(double x, double y) {
  Vec3 v{x, y, 1.0}; Vec3 w = scale(v, x); Vec3 acc{0, 0, 0}; addTo(&acc, w); addTo(&acc, v);
  return norm(acc); }
[[grad]] double assign(double x, double y) {
  Vec3 a{x, y, 0}; Vec3 b{y, x, x}; b = a; a.x = 3 * b.y; return a.x * b.x + b.z; }
[[grad]] double pairs(double x, double y) {
  std::pair<double, double> p{x, y}; p.first *= p.second; auto q = std::make_pair(x * x, y);
  return p.first + q.first * q.second; }
[[grad]] double loopstruct(const double *xs, int n) {
  Vec3 acc{0, 0, 0};
  for (int i = 0; i < n; ++i) { Vec3 t{xs[i], xs[i] * xs[i], 1}; acc.x += t.x * t.y; acc.y = acc.x * t.x; }
  return acc.x + acc.y; }

int main() {
  { double dx = 0, dy = 0; brace_pullback(0.7, 1.3, 1, &dx, &dy);
    vecgrad::check("brace", [](const std::vector<double>& V){ return brace(V[0], V[1]); }, {0.7, 1.3}, {dx, dy}); }
  { double dx = 0, dy = 0; writes_pullback(0.7, 1.3, 1, &dx, &dy);
    vecgrad::check("writes", [](const std::vector<double>& V){ return writes(V[0], V[1]); }, {0.7, 1.3}, {dx, dy}); }
  { Vec3 p{0.3, 0.5, 0.9}, dp{0, 0, 0}; double ds = 0; copyparam_pullback(p, 1.7, 1, &dp, &ds);
    vecgrad::check("copyparam", [](const std::vector<double>& V){ return copyparam(Vec3{V[0], V[1], V[2]}, V[3]); }, {0.3, 0.5, 0.9, 1.7}, {dp.x, dp.y, dp.z, ds}); }
  { double dx = 0, dy = 0; nested_pullback(0.7, 1.3, 1, &dx, &dy);
    vecgrad::check("nested", [](const std::vector<double>& V){ return nested(V[0], V[1]); }, {0.7, 1.3}, {dx, dy}); }
  { double dx = 0, dy = 0; helpers_pullback(0.7, 1.3, 1, &dx, &dy);
    vecgrad::check("helpers", [](const std::vector<double>& V){ return helpers(V[0], V[1]); }, {0.7, 1.3}, {dx, dy}); }
  { double dx = 0, dy = 0; assign_pullback(0.7, 1.3, 1, &dx, &dy);
    vecgrad::check("assign", [](const std::vector<double>& V){ return assign(V[0], V[1]); }, {0.7, 1.3}, {dx, dy}); }
  { double dx = 0, dy = 0; pairs_pullback(0.7, 1.3, 1, &dx, &dy);
    vecgrad::check("pairs", [](const std::vector<double>& V){ return pairs(V[0], V[1]); }, {0.7, 1.3}, {dx, dy}); }
  { std::vector<double> X{0.3, -0.4, 0.8}, D(3, 0.0); loopstruct_pullback(X.data(), 3, 1, D.data());
    vecgrad::check("loopstruct", [](const std::vector<double>& V){ return loopstruct(V.data(), 3); }, X, D); }
  
  { Vec3 p{0.3, 0.5, 0.9}, dp{0, 0, 0}; double ds = 0; byval_pullback(p, 1.7, 1, &dp, &ds);
    vecgrad::check("byval", [](const std::vector<double>& V){ return byval(Vec3{V[0], V[1], V[2]}, V[3]); }, {0.3, 0.5, 0.9, 1.7}, {dp.x, dp.y, dp.z, ds}); }
  { NoDef dn(0, 0); double ds = 0; nodef_pullback(NoDef(0.4, 0.6), 1.3, 1, &dn, &ds);
    vecgrad::check("nodef", [](const std::vector<double>& V){ return nodef(NoDef(V[0], V[1]), V[2]); }, {0.4, 0.6, 1.3}, {dn.a, dn.b, ds}); }
  { double dx = 0; defaults_pullback(0.7, 1, &dx);
    vecgrad::check("defaults", [](const std::vector<double>& V){ return defaults(V[0]); }, {0.7}, {dx}); }
#define XY(F) { double dx = 0, dy = 0; F##_pullback(0.7, 1.3, 1, &dx, &dy); \
    vecgrad::check(#F, [](const std::vector<double>& V){ return F(V[0], V[1]); }, {0.7, 1.3}, {dx, dy}); }
  XY(derived) XY(arrstruct) XY(method) XY(methodw) XY(crossn) XY(usemk)
    { NoDef dn(0, 0); double ds = 0; nodefw_pullback(NoDef(0.4, 0.6), 1.3, 1, &dn, &ds);
    vecgrad::check("nodefw", [](const std::vector<double>& V){ return nodefw(NoDef(V[0], V[1]), V[2]); }, {0.4, 0.6, 1.3}, {dn.a, dn.b, ds}); }
  // CHECK: ok brace.d0
  // CHECK: ok writes.d0
  // CHECK: ok copyparam.d0
  // CHECK: ok nested.d0
  // CHECK: ok helpers.d0
  // CHECK: ok assign.d0
  // CHECK: ok pairs.d0
  // CHECK: ok loopstruct.d0
  // CHECK: ok byval.d0
  // CHECK: ok nodef.d0
  // CHECK: ok defaults.d0
  // CHECK: ok derived.d0
  // CHECK: ok arrstruct.d0
  // CHECK: ok method.d0
  // CHECK: ok methodw.d0
  // CHECK: ok crossn.d0
  // CHECK: ok usemk.d0
  // CHECK: ok nodefw.d0
  return gradcheck::failures();
}
