// Calls keep the callee they had in the source: in a namespace that declares
// its own `sin` and `exp`, the dumped replay of std::sin(x) and
// std::exp(x) must still call the standard ones (qualified), so the dumped
// code gives the plugin's numbers.
// RUN: rm -rf %t && split-file %s %t
// RUN: %dump %t/prims.cpp %dflags > %t/gen.inc
// RUN: FileCheck %s --check-prefix=DUMP --input-file=%t/gen.inc
// RUN: %cxx -Wno-unknown-attributes -DFROM_DUMP -I%t %t/main.cpp -o %t/dumped
// RUN: %gradxx -I%t %t/main.cpp -o %t/plugin
// RUN: %t/dumped > %t/dumped.txt
// RUN: %t/plugin > %t/plugin.txt
// RUN: diff %t/dumped.txt %t/plugin.txt
// RUN: %FileCheck-strict %s --implicit-check-not=FAIL --input-file=%t/dumped.txt
// DUMP-LABEL: void f_pullback(double x, double d_ret, double *d_x) {
// DUMP-NOT: {{[^:]}}sin(x)
// DUMP: ::grad::detail::sin_cos(x)
// DUMP-LABEL: void g_pullback(double x, double d_ret, double *d_x) {
// DUMP-NOT: {{[^:]}}exp(x)
// CHECK: ok geo::f
// CHECK: ok geo::g

//--- prims.h
#include <cmath>
namespace geo {
// Unrelated functions that happen to be called sin and exp.
inline double sin(double x) { return 2 * x; }
inline double exp(double x) { return x + 1; }
[[grad]] double f(double x) { return std::sin(x) * x; }
[[grad]] double g(double x) { return x > 0 ? std::exp(x) : x; }
} // namespace geo

//--- prims.cpp
#include "prims.h"

//--- main.cpp
#include "prims.h"
#ifdef FROM_DUMP
#include "gen.inc"
#endif
#include "gradcheck.h"
int main() {
  double D = 0;
  geo::f_pullback(0.5, 1.0, &D);
  std::printf("geo::f %a\n", D);
  gradcheck::expect("geo::f", D, std::sin(0.5) + 0.5 * std::cos(0.5));
  D = 0;
  geo::g_pullback(0.5, 1.0, &D);
  std::printf("geo::g %a\n", D);
  gradcheck::expect("geo::g", D, std::exp(0.5));
  return gradcheck::failures();
}
