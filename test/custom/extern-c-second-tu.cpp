// A C function without a body, with a hand-written pullback: the plugin
// calls the user's pullback and generates none for it. The C function is
// defined in a second translation unit, compiled without the plugin.
// RUN: rm -rf %t && split-file %s %t
// RUN: %gradxx -c %t/main.cpp -o %t/main.o 2>&1 | count 0
// RUN: %cxx -c %t/softplus.cpp -o %t/softplus.o
// RUN: %cxx %t/main.o %t/softplus.o -o %t/a.out
// RUN: %t/a.out | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %t/main.cpp %dflags | FileCheck %s --check-prefix=DUMP

//--- main.cpp
#include "gradcheck.h"
#include <cmath>

extern "C" double softplus(double x);
extern "C" void softplus_pullback(double x, double d_ret, double *d_x) {
  *d_x += d_ret / (1 + std::exp(-x));
}

// DUMP-NOT: softplus_pullback(double x, double d_ret, double *d_x) {
// DUMP-LABEL: void f_pullback(double x, double y, double d_ret, double *d_x, double *d_y) {
// DUMP: softplus_pullback(
// DUMP-NOT: softplus_pullback(double x, double d_ret, double *d_x) {
[[grad]] double f(double x, double y) { return softplus(x * y) + x; }

int main() {
  // CHECK: ok f.d0
  // CHECK: ok f.d1
  gradcheck::check_grad("f", f, f_pullback, 0.3, -1.7);
  return gradcheck::failures();
}

//--- softplus.cpp
#include <cmath>
extern "C" double softplus(double x) { return std::log1p(std::exp(x)); }
