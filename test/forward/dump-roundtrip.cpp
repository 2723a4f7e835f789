// grad-dump prints pushforwards and Hessian-vector products as code that
// compiles without the plugin (given the runtime header) and computes the
// same numbers as the plugin's: main.cpp is built with the plugin and with
// plain clang plus the dumped gen.inc; both print identical results.
// RUN: rm -rf %t && split-file %s %t
// RUN: %dump %t/prims.cpp %dflags > %t/gen.inc
// RUN: %cxx -Wno-unknown-attributes -DFROM_DUMP -I%t %t/main.cpp -o %t/dumped
// RUN: %gradxx -I%t %t/main.cpp -o %t/plugin
// RUN: %t/dumped > %t/dumped.txt
// RUN: %t/plugin > %t/plugin.txt
// RUN: diff %t/dumped.txt %t/plugin.txt
// RUN: FileCheck %s --input-file=%t/dumped.txt
// RUN: FileCheck %s --check-prefix=DUMP --input-file=%t/gen.inc
// DUMP: ::grad::dual<double> poly_pushforward(double x, double y, double t_x, double t_y) {
// DUMP: void walk_pushforward(const double *x, int n, double *out, const double *t_x, double *t_out) {
// DUMP: void walk_pushforward(const double *x, int n, double *out, const ::grad::lanes<double, 2UL> *t_x, ::grad::lanes<double, 2UL> *t_out) {
// DUMP: void rosen_hvp(const double *x, int n, const double *v_x, double *d_x) {
// CHECK: poly {{-?0x[0-9a-f.p+-]+}} {{-?0x[0-9a-f.p+-]+}}{{$}}
// CHECK: walk {{-?0x[0-9a-f.p+-]+}} {{-?0x[0-9a-f.p+-]+}}{{$}}
// CHECK: hvp {{-?0x[0-9a-f.p+-]+}} {{-?0x[0-9a-f.p+-]+}} {{-?0x[0-9a-f.p+-]+}}{{$}}
// CHECK-COUNT-3: sw {{-?0x[0-9a-f.p+-]+}} {{-?0x[0-9a-f.p+-]+}}{{$}}
// CHECK: lanes {{-?0x[0-9a-f.p+-]+}} {{-?0x[0-9a-f.p+-]+}} {{-?0x[0-9a-f.p+-]+}}{{$}}

//--- prims.cpp
#include <cmath>
#include <initializer_list>
[[grad::forward]] double poly(double x, double y) {
  double s = 0;
  for (int i = 0; i < 4; ++i)
    s = s * x + std::sin(y * i);
  return s;
}
[[grad::forward("lanes=2")]] void walk(const double *x, int n, double *out) {
  const double *p = x;
  double acc = 0;
  while (p != x + n)
    acc += std::exp(*p++);
  *out = acc;
}
[[grad::forward]] double sw(double x, int k) {
  double s = x;
  for (double e : {1.0, 2.0}) {
    switch (k) {
    case 0:
      s *= e * x;
      [[fallthrough]];
    case 1:
      s += std::sin(x * s);
      break;
    default:
      s = s * s - e;
    }
  }
  return s;
}
[[grad::hessian]] double rosen(const double *x, int n) {
  double s = 0;
  for (int i = 0; i + 1 < n; ++i) {
    double a = x[i + 1] - x[i] * x[i];
    s += 100 * a * a + (1 - x[i]) * (1 - x[i]);
  }
  return s;
}

//--- main.cpp
#include <cstdio>
#include "prims.cpp"
#ifdef FROM_DUMP
#include "gen.inc"
#endif
int main() {
  auto r = poly_pushforward(0.3, 0.7, 1.0, -0.5);
  std::printf("poly %a %a\n", r.val, r.der[0]);
  double x[3] = {0.2, -0.4, 0.9}, t[3] = {1, 0.5, -1}, out = 0, tout = 0;
  walk_pushforward(x, 3, &out, t, &tout);
  std::printf("walk %a %a\n", out, tout);
  double d[3] = {0, 0, 0};
  rosen_hvp(x, 3, t, d);
  std::printf("hvp %a %a %a\n", d[0], d[1], d[2]);
  for (int k = 0; k < 3; ++k) {
    auto q = sw_pushforward(0.6, k, 1.0);
    std::printf("sw %a %a\n", q.val, q.der[0]);
  }
  grad::lanes<double, 2> tl[3] = {{{1, 0}}, {{0.5, 1}}, {{-1, 0}}}, tlo{};
  out = 0;
  walk_pushforward(x, 3, &out, tl, &tlo);
  std::printf("lanes %a %a %a\n", out, tlo.der[0], tlo.der[1]);
}
