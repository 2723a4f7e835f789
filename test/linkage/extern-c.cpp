// An extern "C" primal: its pullback has C language linkage too (unmangled
// symbol), so C-linkage declarations in another file reach it.
// RUN: rm -rf %t && split-file %s %t
// RUN: %gradxx -c %t/def.cpp -o %t/def.o
// RUN: %gradxx -c %t/use.cpp -o %t/use.o
// RUN: %gradxx %t/def.o %t/use.o -o %t/a.out
// RUN: %t/a.out | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: llvm-nm %t/def.o | FileCheck %s --check-prefix=NM
// NM-DAG: T cf{{$}}
// NM-DAG: T cf_pullback{{$}}
// NM-DAG: T cblock_pullback{{$}}
// RUN: %dump %t/def.cpp %dflags | FileCheck %s --check-prefix=DUMP
// DUMP: extern "C" {
// DUMP-NEXT: void cf_pullback(double x, double y, double d_ret, double *d_x, double *d_y);
// DUMP-NEXT: }
// DUMP-NEXT: extern "C" {
// DUMP-NEXT: void cblock_pullback(double x, double d_ret, double *d_x);
// DUMP-NEXT: }
// DUMP-EMPTY:
// DUMP-NEXT: extern "C" {
// DUMP-NEXT: void cf_pullback(double x, double y, double d_ret, double *d_x, double *d_y) {
// DUMP: extern "C" {
// DUMP-NEXT: void cblock_pullback(double x, double d_ret, double *d_x) {
// CHECK: ok cf.d0
// CHECK: ok cf.d1
// CHECK: ok cblock.d0

//--- def.cpp
extern "C" [[grad]] double cf(double x, double y) { return x * y * y; }
extern "C" {
[[grad]] double cblock(double x) { return x * x; }
}

//--- use.cpp
#include "gradcheck.h"
// Only C-linkage declarations, written by hand: no plugin involvement.
extern "C" double cf(double, double);
extern "C" void cf_pullback(double, double, double, double *, double *);
extern "C" double cblock(double);
extern "C" void cblock_pullback(double, double, double *);
int main() {
  gradcheck::check_grad("cf", cf, cf_pullback, 0.5, -1.5);
  gradcheck::check_grad("cblock", cblock, cblock_pullback, 0.5);
  return gradcheck::failures();
}
