// Objects that keep their elements in a container, built from braces that
// carry derivatives: `return {a * b, a + b};` from a helper returning a
// std::vector (also a helper differentiated in two halves), aggregates with
// a vector member (`Grid g{{x, 2 * x}, 0.5};`, `M2 m{2, 2, {x, y, x * y,
// 1.0}};`, `Grid g{two(x, y), x};`, also in a loop), and vectors of vectors
// (`{{x, y}, {y, x * y}}`), and such objects and vectors copied from a
// conditional (`Grid g = x > 0.5 ? a : b;`). (Each was an error: "brace
// initialisation of 'std::vector<double>'", "initializer of 'g' of type
// 'Grid' that carries derivatives", "conditional operator (internal
// error)".)
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s --function=two %dflags | FileCheck %s --check-prefix=TWO
// RUN: %dump %s --function=loop_owner %dflags | FileCheck %s --check-prefix=LOOP
#include "gradcheck.h"
#include <cmath>
#include <vector>
using namespace gradcheck;

struct Grid {
  std::vector<double> h;
  double scale;
};
struct M2 {
  int r, c;
  std::vector<double> d;
};

std::vector<double> two(double a, double b) { return {a * b, std::sin(a) + b}; }
// TWO-LABEL: void two_pullback(double a, double b, const std::vector<double> &d_ret, double *d_a, double *d_b) {
// TWO: double _r0 = d_ret[0UL];
// TWO-NEXT: _d_b += a * _r0;
// TWO-NEXT: _d_a += _r0 * b;
// TWO-NEXT: double _r1 = d_ret[1UL];
// TWO-NEXT: _d_b += _r1;
// TWO-NEXT: _d_a += _r1 * _t{{[0-9]+}}.__cos;

// Called at depth 2: differentiated in two halves.
std::vector<double> twice(double a, double b) {
  std::vector<double> t = two(a, b);
  return {t[0] * 2, t[1] * t[0]};
}

[[grad]] double returned(double x, double y) {
  std::vector<double> v = two(x, y);
  return v[0] * v[1];
}

[[grad]] double split_return(double x, double y) {
  std::vector<double> v = twice(x, y);
  return v[0] + v[1] * x;
}

[[grad]] double brace_owner(double x, double y) {
  Grid g{{x, 2 * x}, y};
  g.h[1] *= g.h[0];
  return g.h[0] * g.h[1] * g.scale;
}

[[grad]] double call_inside(double x, double y) {
  Grid g{two(x, y), x};
  return g.h[0] * g.h[1] * g.scale;
}

[[grad]] double aggregate_owner(double x, double y) {
  M2 m{2, 2, {x, y, x * y, 1.0}};
  m.d[3] = m.d[0] * m.d[2];
  return m.d[3] + m.d[1];
}

[[grad]] double nested(double x, double y) {
  std::vector<std::vector<double>> a{{x, y}, {y, x * y}};
  a[1][0] *= a[0][0];
  return a[0][1] * a[1][1] + a[1][0];
}

[[grad]] double loop_braced(double x, double y) {
  double s = 0;
  for (int i = 1; i < 4; ++i) {
    std::vector<double> v{x * i, y / i};
    s += v[0] * v[1] + std::sin(v[0]);
  }
  return s;
}

[[grad]] double loop_owner(double x, double y) {
  double s = 0;
  for (int i = 1; i < 4; ++i) {
    Grid g{{x * i, y}, 0.5 * i};
    g.h[1] *= g.h[0];
    s += g.h[1] * g.scale;
  }
  return s;
}
// The object as written, its shadow a copy zeroed, saved per iteration.
// LOOP: Grid g = Grid{std::vector<double>{x * i, y}, 0.5 * i};
// LOOP-NEXT: _d_g_s0.emplace(g);
// LOOP-NEXT: ::grad::detail::zero(_d_g.h);
// LOOP-NEXT: _d_g.scale = 0.;
// LOOP: _d_g_s0.save();
// LOOP: _d_g_s0.restore();
// LOOP: const std::vector<double> &_r0 = _d_g.h;
// LOOP-NEXT: _d_x += _r0[0UL] * i;
// LOOP-NEXT: _d_y += _r0[1UL];

[[grad]] double chosen(double x, double y) {
  Grid a{{x, y}, 1.0};
  Grid b{{y, x * x}, 2.0};
  Grid g = x > 0.5 ? a : b;
  g.h[0] *= g.h[1];
  return g.h[0] * g.scale + a.h[1];
}

[[grad]] double chosen_rows(double x, double y) {
  std::vector<std::vector<double>> a{{x, y}};
  std::vector<std::vector<double>> b{{y, x}};
  std::vector<std::vector<double>> c = y > 1 ? a : b;
  return c[0][0] * c[0][1] * a[0][0];
}

[[grad]] double chosen_vector(double x, double y) {
  std::vector<double> a{x, y};
  std::vector<double> b{y, x * y};
  std::vector<double> c = y > 1 ? a : b;
  c[0] *= a[1];
  return c[0] * c[1];
}

int main() {
  double X = 0.7, Y = 1.3;
#define CHECK2(F)                                                              \
  {                                                                            \
    double dx = 0, dy = 0;                                                     \
    F##_pullback(X, Y, 1.0, &dx, &dy);                                         \
    expect(#F " dx", dx, fd(F, 0, X, Y));                                      \
    expect(#F " dy", dy, fd(F, 1, X, Y));                                      \
  }
  CHECK2(returned)
  CHECK2(split_return)
  CHECK2(brace_owner)
  CHECK2(call_inside)
  CHECK2(aggregate_owner)
  CHECK2(nested)
  CHECK2(loop_braced)
  CHECK2(loop_owner)
  CHECK2(chosen)
  CHECK2(chosen_rows)
  CHECK2(chosen_vector)
  X = 0.3, Y = 0.8; // the other branches
  CHECK2(chosen)
  CHECK2(chosen_rows)
  CHECK2(chosen_vector)
  return failures();
}
// CHECK: ok returned dx
// CHECK-NEXT: ok returned dy
// CHECK-NEXT: ok split_return dx
// CHECK-NEXT: ok split_return dy
// CHECK-NEXT: ok brace_owner dx
// CHECK-NEXT: ok brace_owner dy
// CHECK-NEXT: ok call_inside dx
// CHECK-NEXT: ok call_inside dy
// CHECK-NEXT: ok aggregate_owner dx
// CHECK-NEXT: ok aggregate_owner dy
// CHECK-NEXT: ok nested dx
// CHECK-NEXT: ok nested dy
// CHECK-NEXT: ok loop_braced dx
// CHECK-NEXT: ok loop_braced dy
// CHECK-NEXT: ok loop_owner dx
// CHECK-NEXT: ok loop_owner dy
// CHECK-NEXT: ok chosen dx
// CHECK-NEXT: ok chosen dy
// CHECK-NEXT: ok chosen_rows dx
// CHECK-NEXT: ok chosen_rows dy
// CHECK-NEXT: ok chosen_vector dx
// CHECK-NEXT: ok chosen_vector dy
// CHECK-NEXT: ok chosen dx
// CHECK-NEXT: ok chosen dy
// CHECK-NEXT: ok chosen_rows dx
// CHECK-NEXT: ok chosen_rows dy
// CHECK-NEXT: ok chosen_vector dx
// CHECK-NEXT: ok chosen_vector dy
