// Pullbacks of functions in namespaces are printed inside their namespace
// (nested, anonymous and inline namespaces), and the printed code compiles
// without the plugin and gives the plugin's numbers.
// RUN: rm -rf %t && split-file %s %t
// RUN: %dump %t/prims.cpp %dflags > %t/gen.inc
// RUN: FileCheck %s --check-prefix=DUMP --input-file=%t/gen.inc
// RUN: %cxx -Wno-unknown-attributes -DFROM_DUMP -I%t %t/main.cpp -o %t/dumped
// RUN: %gradxx -I%t %t/main.cpp -o %t/plugin
// RUN: %t/dumped > %t/dumped.txt
// RUN: %t/plugin > %t/plugin.txt
// RUN: diff %t/dumped.txt %t/plugin.txt
// RUN: %FileCheck-strict %s --implicit-check-not=FAIL --input-file=%t/dumped.txt
// DUMP: namespace a {
// DUMP-NEXT: namespace b {
// DUMP-NEXT: void f_pullback(double x, double d_ret, double *d_x);
// DUMP-NEXT: }
// DUMP-NEXT: }
// DUMP: namespace {
// DUMP-NEXT: void hidden_pullback(double x, double d_ret, double *d_x);
// DUMP-NEXT: }
// DUMP: inline namespace v2 {
// DUMP-NEXT: void g_pullback(double x, double y, double d_ret, double *d_x, double *d_y);
// DUMP-NEXT: }
// DUMP-EMPTY:
// DUMP-NEXT: namespace a {
// DUMP-NEXT: namespace b {
// DUMP-NEXT: void f_pullback(double x, double d_ret, double *d_x) {
// DUMP: hidden_pullback
// DUMP: g_pullback
// CHECK: a::b::f {{.+}}
// CHECK-NEXT: ok a::b::f
// CHECK-NEXT: hidden {{.+}}
// CHECK-NEXT: ok hidden
// CHECK-NEXT: v2::g {{.+}}
// CHECK-NEXT: ok v2::g

//--- prims.h
#include <cmath>
namespace a::b {
[[grad]] double f(double x) { return std::exp(x) * x; }
} // namespace a::b
namespace {
[[grad]] double hidden(double x) { return a::b::f(x) / (1 + x * x); }
} // namespace
inline namespace v2 {
[[grad]] double g(double x, double y) { return std::atan2(y, x); }
} // namespace v2

//--- prims.cpp
#include "prims.h"

//--- main.cpp
#include "prims.h"
#ifdef FROM_DUMP
#include "gen.inc"
#endif
#include "gradcheck.h"
int main() {
  double D = 0, E = 0;
  a::b::f_pullback(0.3, 1.0, &D);
  std::printf("a::b::f %a\n", D);
  gradcheck::expect("a::b::f", D, gradcheck::fd(a::b::f, 0, 0.3));
  D = 0;
  hidden_pullback(0.3, 1.0, &D);
  std::printf("hidden %a\n", D);
  gradcheck::expect("hidden", D, gradcheck::fd(hidden, 0, 0.3));
  D = 0;
  v2::g_pullback(0.3, 0.4, 1.0, &D, &E);
  std::printf("v2::g %a %a\n", D, E);
  gradcheck::expect("v2::g", D, -0.4 / 0.25);
  return gradcheck::failures();
}
