// Overloads f(double) and f(double, double), each [[grad]], get overloaded
// pullbacks f_pullback(double, double, double *) and
// f_pullback(double, double, double, double *, double *); a float overload
// gets a float pullback.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
// DUMP: void f_pullback(double x, double d_ret, double *d_x);
// DUMP-NEXT: void f_pullback(double x, double y, double d_ret, double *d_x, double *d_y);
// DUMP-NEXT: void f_pullback(float x, float d_ret, float *d_x);
// DUMP-LABEL: void f_pullback(double x, double d_ret, double *d_x) {
// DUMP: [[P:_t[0-9]+]] = ::grad::detail::pair_cos(x);
// DUMP-NEXT: _d_x += d_ret * [[P]].__cos;
// DUMP-LABEL: void f_pullback(double x, double y, double d_ret, double *d_x, double *d_y) {
// DUMP-LABEL: void f_pullback(float x, float d_ret, float *d_x) {
#include "gradcheck.h"
#include <cmath>

[[grad]] double f(double x) { return std::sin(x); }
[[grad]] double f(double x, double y) { return x * y * y; }
[[grad]] float f(float x) { return x * x * x; }

int main() {
  double (*F1)(double) = f;
  double (*F2)(double, double) = f;
  void (*P1)(double, double, double *) = f_pullback;
  void (*P2)(double, double, double, double *, double *) = f_pullback;
  // CHECK: ok f1.d0
  gradcheck::check_grad("f1", F1, P1, 0.4);
  // CHECK: ok f2.d0
  // CHECK: ok f2.d1
  gradcheck::check_grad("f2", F2, P2, 0.4, -1.2);
  // Overload resolution on direct calls.
  double D = 0, DX = 0, DY = 0;
  f_pullback(0.4, 1.0, &D);
  f_pullback(0.4, -1.2, 1.0, &DX, &DY);
  // CHECK: ok direct1
  gradcheck::expect("direct1", D, std::cos(0.4));
  // CHECK: ok direct2
  gradcheck::expect("direct2", DY, 2 * 0.4 * -1.2);
  float DF = 0;
  f_pullback(0.5f, 1.0f, &DF);
  // CHECK: ok float
  gradcheck::expect("float", DF, 0.75);
  return gradcheck::failures();
}
