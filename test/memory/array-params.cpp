// Parameters that are arrays of arrays (`const double m[2][2]`,
// `double m[][2]`, `const double t[2][2][2]`): the adjoint is a pointer to
// rows of the same shape, `double (*d_m)[2]`; references to arrays
// (`const double (&a)[3]`, `double (&a)[3]` written, `const Pt (&p)[2]`,
// `const double (&m)[2][2]`): an adjoint pointer of the same extent. Before,
// both got no adjoint at all: a helper reading a local array through them
// gave a zero gradient without a diagnostic.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "vecgrad.h"
#include <cmath>
// DUMP: static void det2_pullback(const double (*m)[2], double d_ret, double (*d_m)[2])
static double det2(const double m[2][2]) { return m[0][0] * m[1][1] - m[0][1] * m[1][0]; }
static void scale2(double m[][2], int n, double s) {
  for (int i = 0; i < n; ++i) {
    m[i][0] *= s;
    m[i][1] *= s * m[i][0];
  }
}
static double tr3(const double t[2][2][2]) { return t[0][0][0] * t[1][1][1] + t[0][1][0] * t[1][0][1]; }
[[grad]] double p1(double x, double y) {
  double m[2][2] = {{x, y}, {-y, 2 * x}};
  return det2(m);
}
[[grad]] double p2(double x, double y) {
  double m[3][2] = {{x, y}, {-y, 2 * x}, {x * y, 1}};
  scale2(m, 3, y);
  return det2(m) + m[2][1] * m[2][0];
}
[[grad]] double p3(double x, double y) {
  double t[2][2][2] = {{{x, y}, {y, x}}, {{x * x, y}, {1, x * y}}};
  return tr3(t);
}
static double sum3(const double (&a)[3]) { return a[0] * a[1] + a[2]; }
static void dbl(double (&a)[3]) {
  for (double &e : a)
    e *= e;
}
static double det(const double (&m)[2][2]) { return m[0][0] * m[1][1] - m[0][1] * m[1][0]; }
struct Pt { double x, y; };
static double dist(const Pt (&p)[2]) { return std::hypot(p[0].x - p[1].x, p[0].y - p[1].y); }
[[grad]] double r1(double x, double y) {
  double a[3] = {x, y, x * y};
  dbl(a);
  return sum3(a);
}
[[grad]] double r2(double x, double y) {
  double m[2][2] = {{x, y}, {y * y, x}};
  Pt p[2] = {{x, y}, {y, 2 * x}};
  return det(m) * dist(p);
}
// DUMP: void r3_pullback(const double (&a)[3], double y, double d_ret, double *d_a, double *d_y)
[[grad]] double r3(const double (&a)[3], double y) { return a[0] * y + a[2] * a[1]; }
// The ABI of a [[grad]] function with such a parameter.
[[grad]] double frob(const double a[][3], int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 3; ++j)
      s += a[i][j] * a[i][j] * (i + 1);
  return std::sqrt(s);
}
int main() {
#define XY(F) { double dx = 0, dy = 0; F##_pullback(0.7, 1.3, 1, &dx, &dy); \
    vecgrad::check(#F, [](const std::vector<double>& V){ return F(V[0], V[1]); }, {0.7, 1.3}, {dx, dy}); }
  XY(p1) XY(p2) XY(p3) XY(r1) XY(r2)
  {
    double a[3] = {0.5, 1.5, -2}, da[3] = {}, dy = 0;
    r3_pullback(a, 0.3, 1, da, &dy);
    vecgrad::check("r3", [](const std::vector<double> &V) {
      double b[3] = {V[0], V[1], V[2]};
      return r3(b, V[3]);
    }, {0.5, 1.5, -2, 0.3}, {da[0], da[1], da[2], dy});
  }
  {
    double a[2][3] = {{0.5, -1.0, 2.0}, {0.25, 1.5, -0.75}}, da[2][3] = {};
    frob_pullback(a, 2, 1.0, da);
    vecgrad::check("frob", [](const std::vector<double> &V) {
      double b[2][3] = {{V[0], V[1], V[2]}, {V[3], V[4], V[5]}};
      return frob(b, 2);
    }, {0.5, -1.0, 2.0, 0.25, 1.5, -0.75},
       {da[0][0], da[0][1], da[0][2], da[1][0], da[1][1], da[1][2]});
  }
  // CHECK-COUNT-2: ok p1.d
  // CHECK-COUNT-2: ok p2.d
  // CHECK-COUNT-2: ok p3.d
  // CHECK-COUNT-2: ok r1.d
  // CHECK-COUNT-2: ok r2.d
  // CHECK-COUNT-4: ok r3.d
  // CHECK-COUNT-6: ok frob.d
  return gradcheck::failures();
}
