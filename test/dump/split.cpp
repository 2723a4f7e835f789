// grad-dump output of split derivatives (_grad_NAME_fwd/_rev and the thread's
// stack) compiles without the plugin and gives the plugin's numbers.
// RUN: rm -rf %t && split-file %s %t
// RUN: %dump %t/prims.cpp %dflags > %t/gen.inc
// RUN: %cxx -Wno-unknown-attributes -DFROM_DUMP -I%t %t/main.cpp -o %t/dumped
// RUN: %gradxx -I%t %t/main.cpp -o %t/plugin
// RUN: %t/dumped > %t/dumped.txt
// RUN: %t/plugin > %t/plugin.txt
// RUN: diff %t/dumped.txt %t/plugin.txt
// RUN: %FileCheck-strict %s --implicit-check-not=FAIL --input-file=%t/dumped.txt
// RUN: FileCheck %s --check-prefix=DUMP --input-file=%t/gen.inc
// DUMP: double _grad_g_fwd(double x, ::grad::detail::stack &_stack);
// DUMP: void _grad_g_rev(double x, double d_ret, double *d_x, ::grad::detail::stack &_stack);
// CHECK: f {{.+}}
// CHECK: ok f.d0
// CHECK: ok f.d1

//--- prims.h
#include <cmath>
#include <grad/grad.h>

inline double h(double x) { return std::sin(x) * x; }
inline double g1(double x) { return h(x) + std::cos(h(2 * x)); }
inline double g(double x) {
  double a = g1(x);
  return a > 0 ? a * g1(a) : -a;
}
[[grad]] inline double f(double x, double y) {
  double u = g(x * y) + g(y);
  return u * std::exp(-u * u);
}

//--- prims.cpp
#include "prims.h"

//--- main.cpp
#include "prims.h"
#ifdef FROM_DUMP
#include "gen.inc"
#endif
#include "gradcheck.h"
#include <cstdio>

int main() {
  double dx = 0, dy = 0;
  f_pullback(0.3, 0.5, 1.0, &dx, &dy);
  std::printf("f %a %a\n", dx, dy);
  gradcheck::check_grad("f", f, f_pullback, 0.3, 0.5);
  return gradcheck::failures();
}
