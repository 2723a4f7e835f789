// Lambdas as local functions (issue 13): capture-free, capturing by value
// and by reference (also a struct, read member by member), immediately
// invoked, and writing what they capture by reference. A call of a local
// lambda is a call of its lifted function (parameters, then captures), which
// is differentiated like any helper; what a lambda captures gets adjoints.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "vecgrad.h"
#include <cmath>
struct Vec3 { double x, y, z; };
[[grad]] double plainl(double x, double y) {
  auto sq = [](double a) { return a * a; };
  return sq(x) + sq(x * y);
}
[[grad]] double capval(double x, double y) {
  double k = y * 2;
  auto f = [k](double a) { return std::sin(a * k); };
  return f(x) * f(y);
}
[[grad]] double capref(double x, double y) {
  auto f = [&](double a) { return a * x + y; };
  double s = 0;
  for (int i = 0; i < 3; ++i) s += f(i * 0.5);
  return s;
}
[[grad]] double iife(double x, double y) {
  double z = [&]() { return x * y + std::exp(x); }();
  return z * z;
}
[[grad]] double capstruct(double x, double y) {
  Vec3 p{x, y, x * y};
  auto len = [&p](double s) { return std::sqrt(p.x * p.x + p.y * p.y) * s + p.z; };
  return len(2.0) + len(y);
}
// The lambda writes 'acc' through its reference: the call is reversed by
// the lifted function's reverse half, with acc's adjoint in/out.
// DUMP-LABEL: void writecap_pullback({{.*}}) {
// DUMP: ::_grad__grad_lambda_{{[0-9]+}}_fwd(y, acc, x, _stack);
// DUMP: ::_grad_lambda_{{[0-9]+}}(calls);
// DUMP: ::_grad__grad_lambda_{{[0-9]+}}_rev(2 * x, &_g{{[0-9]+}}, &_d_acc, &_d_x, _stack);
[[grad]] double writecap(double x, double y) {
  double acc = 0;
  auto add = [&](double a) { acc += a * x; };
  add(y); add(2 * x);
  int calls = 0;
  auto count = [&calls]() { ++calls; };
  count();
  return acc * calls;
}
[[grad]] double writecap2(double x, double y) {
  double s = x, t = y;
  auto rot = [&](double c) { double u = c * s - t; t = c * t + s; s = u; };
  for (int i = 0; i < 3; ++i) rot(0.5 + i * 0.1);
  return s * t;
}
int main() {
#define XY(F) { double dx = 0, dy = 0; F##_pullback(0.7, 1.3, 1, &dx, &dy); \
    vecgrad::check(#F, [](const std::vector<double>& V){ return F(V[0], V[1]); }, {0.7, 1.3}, {dx, dy}); }
  XY(plainl) XY(capval) XY(capref) XY(iife) XY(capstruct) XY(writecap) XY(writecap2)
  // CHECK: ok plainl.d0
  // CHECK: ok plainl.d1
  // CHECK: ok capval.d0
  // CHECK: ok capval.d1
  // CHECK: ok capref.d0
  // CHECK: ok capref.d1
  // CHECK: ok iife.d0
  // CHECK: ok iife.d1
  // CHECK: ok capstruct.d0
  // CHECK: ok capstruct.d1
  // CHECK: ok writecap.d0
  // CHECK: ok writecap.d1
  // CHECK: ok writecap2.d0
  // CHECK: ok writecap2.d1
  return gradcheck::failures();
}
