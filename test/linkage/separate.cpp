// Separate compilation: a header declares `[[grad]] double f(double)`; the
// file that defines f defines f_pullback with external linkage; another file
// only includes the header and calls f_pullback.
// RUN: rm -rf %t && split-file %s %t
// RUN: %gradxx -c %t/def.cpp -o %t/def.o 2>&1 | %FileCheck-strict %s --check-prefix=EMPTY --allow-empty
// RUN: %gradxx -c %t/use.cpp -o %t/use.o 2>&1 | %FileCheck-strict %s --check-prefix=EMPTY --allow-empty
// RUN: %gradxx %t/def.o %t/use.o -o %t/a.out
// RUN: %t/a.out | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: llvm-nm %t/def.o | FileCheck %s --check-prefix=DEF
// RUN: llvm-nm %t/use.o | FileCheck %s --check-prefix=USE
// EMPTY-NOT: {{.}}
// DEF: T _Z10f_pullbackddPd
// DEF: T _Z1fd
// USE: U _Z10f_pullbackddPd
// USE-NOT: T _Z10f_pullbackddPd
// CHECK: ok f.d0

//--- f.h
[[grad]] double f(double);

//--- def.cpp
#include "f.h"
#include <cmath>
double f(double x) { return x * std::sin(x); }

//--- use.cpp
#include "f.h"
#include "gradcheck.h"
int main() {
  gradcheck::check_grad("f", f, f_pullback, 0.7);
  return gradcheck::failures();
}
