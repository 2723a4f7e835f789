// An inline primal in a header included by two files: its pullback is inline
// too (a weak, linkonce_odr definition in each object), so linking both files
// gives no duplicate symbols; both files call it.
// RUN: rm -rf %t && split-file %s %t
// RUN: %gradxx -O0 -c %t/a.cpp -o %t/a.o
// RUN: %gradxx -O0 -c %t/b.cpp -o %t/b.o
// RUN: %gradxx %t/a.o %t/b.o -o %t/a.out
// RUN: %t/a.out | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -O0 -S -emit-llvm %t/b.cpp -o - | FileCheck %s --check-prefix=IR
// IR: define linkonce_odr {{.*}}void @_Z10h_pullbackddPd(
// RUN: llvm-nm %t/a.o %t/b.o | FileCheck %s --check-prefix=NM
// NM: a.o:
// NM: W _Z10h_pullbackddPd
// NM: b.o:
// NM: W _Z10h_pullbackddPd
// RUN: %dump %t/a.cpp %dflags | FileCheck %s --check-prefix=DUMP
// DUMP-LABEL: inline void h_pullback(double x, double d_ret, double *d_x) {
// CHECK: ok a.h.d0
// CHECK: ok b.h.d0

//--- h.h
#include <cmath>
[[grad]] inline double h(double x) { return std::exp(x) * x; }

//--- a.cpp
#include "h.h"
#include "gradcheck.h"
void runB();
int main() {
  gradcheck::check_grad("a.h", h, h_pullback, 0.3);
  runB();
  return gradcheck::failures();
}

//--- b.cpp
#include "h.h"
#include "gradcheck.h"
void runB() { gradcheck::check_grad("b.h", h, h_pullback, -0.4); }
