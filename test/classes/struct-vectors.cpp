// std::vector of structs: locals built by push_back / emplace_back of
// braces and temporaries, sized (`std::vector<Pt> ps(3)`) and written
// member by member, from braces, copied from a parameter; range-based for
// over them by reference and by value; back(); helpers taking
// `const std::vector<Pt> &`. Adjoints are vectors of the same structs,
// sized and zeroed member by member and accumulated in a loop.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "vecgrad.h"
#include <cmath>
#include <vector>
struct Pt { double x, y; };
static double len(const std::vector<Pt> &ps) {
  double s = 0;
  for (const Pt &p : ps)
    s += std::sqrt(p.x * p.x + p.y * p.y);
  return s;
}
// DUMP-LABEL: void v1_pullback({{.*}}) {
// DUMP: _d_ps.assign(ps.size(), {});
[[grad]] double v1(double a, double b) {
  std::vector<Pt> ps;
  ps.push_back({a, b});
  ps.push_back(Pt{b, a * b});
  return len(ps);
}
[[grad]] double v2(double a, double b) {
  std::vector<Pt> ps(3);
  for (int i = 0; i < 3; ++i) {
    ps[i].x = a * i;
    ps[i].y = b + i;
  }
  double s = 0;
  for (auto &p : ps)
    s += p.x * p.y;
  for (Pt p : ps)
    s += std::sin(p.x + p.y);
  return s + ps[1].x;
}
[[grad]] double v3(const std::vector<Pt> &in, double a) {
  std::vector<Pt> out = in;
  for (auto &p : out)
    p.x *= a;
  return len(out) * out.back().y;
}
[[grad]] double v4(double a, double b) {
  std::vector<Pt> ps{{a, b}, {b, a}};
  ps[0] = ps[1];
  ps.back().y *= a;
  return ps[0].x * ps.back().y;
}
int main() {
#define XY(F) { double dx = 0, dy = 0; F##_pullback(0.7, 1.3, 1, &dx, &dy); \
    vecgrad::check(#F, [](const std::vector<double>& V){ return F(V[0], V[1]); }, {0.7, 1.3}, {dx, dy}); }
  XY(v1) XY(v2) XY(v4)
  {
    std::vector<Pt> in{{0.5, -1.0}, {2.0, 0.25}};
    std::vector<Pt> din(2, Pt{0, 0});
    double da = 0;
    v3_pullback(in, 1.5, 1.0, &din, &da);
    vecgrad::check("v3", [](const std::vector<double> &X) {
      return v3({{X[0], X[1]}, {X[2], X[3]}}, X[4]);
    }, {0.5, -1.0, 2.0, 0.25, 1.5}, {din[0].x, din[0].y, din[1].x, din[1].y, da});
  }
  // CHECK: ok v1.d0
  // CHECK: ok v1.d1
  // CHECK: ok v2.d0
  // CHECK: ok v2.d1
  // CHECK: ok v4.d0
  // CHECK: ok v4.d1
  // CHECK: ok v3.d0
  // CHECK: ok v3.d1
  // CHECK: ok v3.d2
  // CHECK: ok v3.d3
  // CHECK: ok v3.d4
  return gradcheck::failures();
}
