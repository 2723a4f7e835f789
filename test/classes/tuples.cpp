// std::tuple values and structured bindings of tuple-like objects: tuple
// locals from braces, std::make_tuple and helpers returning tuples (their
// seed is `const std::tuple<...> &`), std::get<I> reads and writes, and
// `auto [a, b] = pair`, `auto [a, b, n] = tuple`, `auto &[a, b] = p`
// (written through), whose names are std::get<I> of the hidden object.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "vecgrad.h"
#include <cmath>
#include <tuple>
#include <utility>
static std::tuple<double, double, int> split(double x, double y) { return {x * y, x + y, 2}; }
static std::pair<double, double> mp(double x, double y) { return {x * y, x - y}; }
// DUMP-LABEL: void t1_pullback({{.*}}) {
// DUMP: ::std::get<0UL>(_d_t) += d_ret * ::std::get<1UL>(t);
[[grad]] double t1(double x, double y) { std::tuple<double, double> t{x * y, y}; return std::get<0>(t) * std::get<1>(t); }
[[grad]] double t2(double x, double y) { auto t = std::make_tuple(x, y * y); std::get<1>(t) *= x; return std::get<0>(t) + std::get<1>(t); }
// DUMP-LABEL: void t3_pullback({{.*}}) {
// DUMP: double &a = ::std::get<0UL>(_b{{[0-9]+}});
[[grad]] double t3(double x, double y) { auto [a, b] = mp(x, y); return a * b; }
[[grad]] double t4(double x, double y) { auto [a, b, n] = split(x, y); return a * b * n; }
[[grad]] double t5(double x, double y) { std::pair<double, double> p{x, y}; auto &[a, b] = p; a *= b; return p.first + b * std::sin(a); }
[[grad]] double t6(double x, double y) { auto t = split(x, y); return std::get<0>(t) * std::get<1>(t) + std::get<2>(t); }
[[grad]] double t7(double x, double y) {
  std::tuple<double, double> t{x, y};
  auto &[u, v] = t;
  for (int i = 0; i < 3; ++i)
    u = u * v + std::get<1>(t);
  return std::get<0>(t);
}
// A copy of a named pair, and bindings without derivatives.
[[grad]] double t8(double x, double y) {
  std::pair<double, double> p{x * y, y};
  auto [a, b] = p;
  return a * b;
}
[[grad]] double t9(double x, double y) {
  std::pair<int, int> d{2, 3};
  auto [n, m] = d;
  return x * n + m * y;
}
int main() {
#define XY(F) { double dx = 0, dy = 0; F##_pullback(0.7, 1.3, 1, &dx, &dy); \
    vecgrad::check(#F, [](const std::vector<double>& V){ return F(V[0], V[1]); }, {0.7, 1.3}, {dx, dy}); }
  XY(t1) XY(t2) XY(t3) XY(t4) XY(t5) XY(t6) XY(t7) XY(t8) XY(t9)
  // CHECK: ok t1.d0
  // CHECK: ok t1.d1
  // CHECK: ok t2.d0
  // CHECK: ok t2.d1
  // CHECK: ok t3.d0
  // CHECK: ok t3.d1
  // CHECK: ok t4.d0
  // CHECK: ok t4.d1
  // CHECK: ok t5.d0
  // CHECK: ok t5.d1
  // CHECK: ok t6.d0
  // CHECK: ok t6.d1
  // CHECK: ok t7.d0
  // CHECK: ok t7.d1
  // CHECK: ok t8.d0
  // CHECK: ok t8.d1
  // CHECK: ok t9.d0
  // CHECK: ok t9.d1
  return gradcheck::failures();
}
