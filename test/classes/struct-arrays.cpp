// Local arrays of structs (`Pt pts[3] = {{x, y}, ...}`, uninitialised
// `Pt tmp[2]`): members of elements read and written in loops, elements
// copied and assigned whole, passed to helpers as `const Pt *`, and to a
// helper that writes through `Pt *`.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
#include "vecgrad.h"
#include <cmath>
struct Pt { double x, y; };
static double area(const Pt *p, int n) {
  double a = 0;
  for (int i = 0; i < n; ++i) {
    const Pt &u = p[i], &v = p[(i + 1) % n];
    a += u.x * v.y - v.x * u.y;
  }
  return 0.5 * a;
}
static void shift(Pt *p, int n, double d) {
  for (int i = 0; i < n; ++i) {
    p[i].x += d * p[i].y;
    p[i].y *= 1.0 + d;
  }
}
[[grad]] double loops(double x, double y) {
  Pt pts[3] = {{x, y}, {y, 1.0}, {2.0, x * y}};
  Pt tmp[2];
  for (int i = 0; i < 2; ++i) {
    tmp[i].x = pts[i].x * pts[i + 1].y;
    tmp[i].y = pts[i].y + pts[i + 1].x;
  }
  double s = 0;
  for (int i = 0; i < 2; ++i)
    s += tmp[i].x * tmp[i].y;
  return s + pts[2].y;
}
[[grad]] double whole(double x, double y) {
  Pt pts[3] = {{x, 0.5}, {y, x}, {1.0, y * y}};
  Pt q = pts[1];
  pts[0] = pts[2];
  pts[2] = Pt{q.y * x, q.x};
  return pts[0].x * pts[2].x + pts[1].y * q.x;
}
[[grad]] double polygon(double x, double y) {
  Pt tri[3] = {{0.0, 0.0}, {x, 0.5}, {y, x * y}};
  double a = area(tri, 3);
  shift(tri, 3, 0.1 * x);
  return a * area(tri, 3);
}
int main() {
#define XY(F) { double dx = 0, dy = 0; F##_pullback(0.7, 1.3, 1, &dx, &dy); \
    vecgrad::check(#F, [](const std::vector<double>& V){ return F(V[0], V[1]); }, {0.7, 1.3}, {dx, dy}); }
  XY(loops) XY(whole) XY(polygon)
  // CHECK-COUNT-2: ok loops.d
  // CHECK-COUNT-2: ok whole.d
  // CHECK-COUNT-2: ok polygon.d
  return gradcheck::failures();
}
