// An extern "C" [[grad]] prototype in a header: every file that includes it
// sees a C-linkage pullback declaration, so the call from use.cpp links to
// the unmangled definition in def.cpp. A [[grad]] caller in use.cpp uses it
// too.
// RUN: rm -rf %t && split-file %s %t
// RUN: %gradxx -c %t/def.cpp -o %t/def.o
// RUN: %gradxx -c %t/use.cpp -o %t/use.o
// RUN: %gradxx %t/def.o %t/use.o -o %t/a.out
// RUN: %t/a.out | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: llvm-nm %t/use.o | FileCheck %s --check-prefix=USE
// USE: U cf_pullback{{$}}
// CHECK: ok cf.d0
// CHECK: ok twice.d0

//--- cf.h
#ifdef __cplusplus
extern "C" {
#endif
[[grad]] double cf(double x);
#ifdef __cplusplus
}
#endif

//--- def.cpp
#include "cf.h"
#include <cmath>
double cf(double x) { return std::exp(x) * x; }

//--- use.cpp
#include "cf.h"
#include "gradcheck.h"
[[grad]] double twice(double x) { return cf(x) * cf(x); }
int main() {
  gradcheck::check_grad("cf", cf, cf_pullback, 0.3);
  gradcheck::check_grad("twice", twice, twice_pullback, 0.3);
  return gradcheck::failures();
}
