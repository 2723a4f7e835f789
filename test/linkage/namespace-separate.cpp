// A [[grad]] prototype in a namespace in a header, defined in one file and
// called qualified (ns::f_pullback) from another.
// RUN: rm -rf %t && split-file %s %t
// RUN: %gradxx -c %t/def.cpp -o %t/def.o
// RUN: %gradxx -c %t/use.cpp -o %t/use.o
// RUN: %gradxx %t/def.o %t/use.o -o %t/a.out
// RUN: %t/a.out | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: llvm-nm -C %t/def.o | FileCheck %s --check-prefix=NM
// NM: T lib::detail::f_pullback(double, double, double*)
// CHECK: ok lib::detail::f.d0

//--- f.h
namespace lib::detail {
[[grad]] double f(double);
}

//--- def.cpp
#include "f.h"
namespace lib {
namespace detail {
double f(double x) { return x * x * x; }
} // namespace detail
} // namespace lib

//--- use.cpp
#include "f.h"
#include "gradcheck.h"
int main() {
  gradcheck::check_grad("lib::detail::f", lib::detail::f,
                        lib::detail::f_pullback, 0.7);
  return gradcheck::failures();
}
