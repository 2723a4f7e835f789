// [[grad("x")]] differentiates with respect to x only: w_pullback has d_x and
// no d_y. A caller that needs both adjoints gets a separate all-parameter
// variant, _grad_w_pullback_all, generated once for its two call sites.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
// DUMP: void w_pullback(double x, double y, double d_ret, double *d_x);
// DUMP: void both_pullback(double x, double y, double d_ret, double *d_x, double *d_y);
// DUMP: void _grad_w_pullback_all(double x, double y, double d_ret, double *d_x, double *d_y);
// DUMP-LABEL: void w_pullback(double x, double y, double d_ret, double *d_x) {
// DUMP-NOT: d_y
// DUMP-LABEL: void both_pullback(double x, double y, double d_ret, double *d_x, double *d_y) {
// DUMP-LABEL: void cw_pullback(double a, double b, double d_ret, double *d_a, double *d_b) {
// DUMP-COUNT-2: _grad_w_pullback_all(
// DUMP-NOT: w_pullback(
// DUMP-LABEL: void _grad_w_pullback_all(double x, double y, double d_ret, double *d_x, double *d_y) {
// DUMP-LABEL: void onlyb_pullback(double a, double b, double d_ret, double *d_b) {
// DUMP: _grad_w_pullback_all(
#include "gradcheck.h"
#include <cmath>

[[grad("x")]] double w(double x, double y) { return x * std::exp(y) * x; }
// Listing every parameter gives the ordinary full pullback.
[[grad("x, y")]] double both(double x, double y) { return x * y; }
[[grad]] double cw(double a, double b) { return w(a, b) + w(b, a * a); }
// Only b is requested, but w still needs its full variant (b reaches y).
[[grad("b")]] double onlyb(double a, double b) { return w(a, b); }

int main() {
  using gradcheck::expect;
  double DX = 0;
  w_pullback(0.5, 0.3, 1.0, &DX);
  // CHECK: ok w.dx
  expect("w.dx", DX, 2 * 0.5 * std::exp(0.3));
  double DA = 0, DB = 0;
  both_pullback(0.5, 0.3, 1.0, &DA, &DB);
  // CHECK: ok both.dy
  expect("both.dx", DA, 0.3);
  expect("both.dy", DB, 0.5);
  // CHECK: ok cw.d0
  // CHECK: ok cw.d1
  gradcheck::check_grad("cw", cw, cw_pullback, 0.5, 0.3);
  DB = 0;
  onlyb_pullback(0.5, 0.3, 1.0, &DB);
  // CHECK: ok onlyb.db
  expect("onlyb.db", DB, 0.25 * std::exp(0.3));
  return gradcheck::failures();
}
