// A [[grad]] prototype followed by an inline definition (both in a header
// included by two files): the function is inline, so its pullback must be
// inline too (linkonce_odr, a weak symbol) and the two objects link.
// RUN: rm -rf %t && split-file %s %t
// RUN: %gradxx -O0 -c %t/a.cpp -o %t/a.o
// RUN: %gradxx -O0 -c %t/b.cpp -o %t/b.o
// RUN: llvm-nm %t/a.o | FileCheck %s --check-prefix=NM
// NM: W _Z14proto_pullbackddPd
// RUN: %gradxx %t/a.o %t/b.o -o %t/a.out
// RUN: %t/a.out | %FileCheck-strict %s --implicit-check-not=FAIL
// CHECK: ok a.proto.d0
// CHECK: ok b.proto.d0

//--- h.h
#include <cmath>
[[grad]] double proto(double);
inline double proto(double x) { return std::sin(x) * x; }

//--- a.cpp
#include "h.h"
#include "gradcheck.h"
void runB();
int main() {
  gradcheck::check_grad("a.proto", proto, proto_pullback, 0.5);
  runB();
  return gradcheck::failures();
}

//--- b.cpp
#include "h.h"
#include "gradcheck.h"
void runB() { gradcheck::check_grad("b.proto", proto, proto_pullback, 0.5); }
