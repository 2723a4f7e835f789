// Callees differentiated on demand with default arguments (also split
// ones), const reference
// and float parameters, calls nested in arguments, and callees in another
// namespace (one of them static) called qualified.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
// DUMP-LABEL: void f_pullback(double x, double d_ret, double *d_x) {
// DUMP: ::A::sh_pullback(x, d_ret, &_g{{[0-9]+}});
// DUMP: ::A::h_pullback(x, d_ret, &_g{{[0-9]+}});
// DUMP-LABEL: void h_pullback(double x, double d_ret, double *d_x) {
// DUMP-LABEL: static void sh_pullback({{\[\[maybe_unused\]\]}} double x, double d_ret, double *d_x) {
// DUMP-LABEL: void g_pullback(double x, double d_ret, double *d_x) {
// DUMP: float _g[[F:[0-9]+]] = 0.F;
// DUMP-NEXT: fl_pullback(x, d_ret, &_g[[F]]);
// DUMP: dflt_pullback(x, 2., d_ret, &_g{{[0-9]+}}, &_g{{[0-9]+}});
// DUMP-LABEL: void dflt_pullback(double x, double s, double d_ret, double *d_x, double *d_s) {
// DUMP-LABEL: void cref_pullback(const double &x, double d_ret, double *d_x) {
// DUMP-LABEL: void fl_pullback(float x, float d_ret, float *d_x) {
#include "gradcheck.h"
#include <cmath>

namespace A {
double h(double x) { return x * x; }
static double sh(double x) { return 3 * x; }
} // namespace A
namespace B {
[[grad]] double f(double x) { return A::h(x) + A::sh(x); }
} // namespace B

double dflt(double x, double s = 2.0) { return s * x; }
double cref(const double &x) { return x * std::sin(x); }
float fl(float x) { return x * x; }
[[grad]] double g(double x) {
  return dflt(x) + cref(x) + fl(x) + dflt(cref(x), x);
}

// A helper writing through a pointer (a split derivative, whose halves
// have no default arguments: the constant is passed as written).
void scale(double *p, double s = 2.0) { p[0] *= s * p[1]; }
[[grad]] double sc(double x, double y) {
  double a[2] = {x, y};
  scale(a);
  scale(a, 0.5);
  return a[0] * x;
}

int main() {
  // CHECK: ok B::f.d0
  gradcheck::check_grad("B::f", B::f, B::f_pullback, 1.5);
  double D = 0;
  g_pullback(1.5, 1.0, &D);
  double C = 1.5 * std::sin(1.5), DC = std::sin(1.5) + 1.5 * std::cos(1.5);
  // CHECK: ok g
  // d/dx [2x + c(x) + x^2 + x c(x)] with the float square rounded.
  gradcheck::expect("g", D, 2 + DC + 3 + C + 1.5 * DC, 1e-6);
  // CHECK: ok sc.d1
  gradcheck::check_grad("sc", sc, sc_pullback, 0.7, 1.3);
  return gradcheck::failures();
}
