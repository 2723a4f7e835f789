// A static primal gets a static pullback: two files may each define a static
// `g` and both pullbacks link side by side; neither is exported.
// RUN: rm -rf %t && split-file %s %t
// RUN: %gradxx -c %t/a.cpp -o %t/a.o
// RUN: %gradxx -c %t/b.cpp -o %t/b.o
// RUN: %gradxx %t/a.o %t/b.o -o %t/a.out
// RUN: %t/a.out | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: llvm-nm %t/a.o | FileCheck %s --check-prefix=NM
// NM-NOT: T {{.*}}g_pullback
// NM: t _ZL10g_pullbackddPd
// NM-NOT: T {{.*}}g_pullback
// RUN: %dump %t/a.cpp %dflags | FileCheck %s --check-prefix=DUMP
// DUMP-LABEL: static void g_pullback(double x, double d_ret, double *d_x) {
// CHECK: ok a.g.d0
// CHECK: ok b.g.d0

//--- a.cpp
#include "gradcheck.h"
void runB();
[[grad]] static double g(double x) { return x * x * x; }
// Keep g_pullback out of line so that it shows up in the symbol table.
[[gnu::used]] static auto *KeepG = &g_pullback;
int main() {
  gradcheck::check_grad("a.g", g, g_pullback, 0.7);
  runB();
  return gradcheck::failures();
}

//--- b.cpp
#include "gradcheck.h"
[[grad]] static double g(double x) { return 2 * x; }
void runB() {
  double d = 0;
  g_pullback(0.7, 1.0, &d);
  gradcheck::expect("b.g.d0", d, 2);
}
