// Callees from a header differentiated on demand in two files that are
// linked together: an inline function, a constexpr function and a function
// template instantiation. Each pullback is generated in both files, so it
// must be inline (a weak linkonce_odr symbol) like its primal.
// RUN: rm -rf %t && split-file %s %t
// RUN: %gradxx -O0 -c %t/a.cpp -o %t/a.o
// RUN: %gradxx -O0 -c %t/b.cpp -o %t/b.o
// RUN: llvm-nm -C %t/a.o | FileCheck %s --check-prefix=NM
// NM-DAG: W cube_pullback(double, double, double*)
// NM-DAG: W helper_pullback(double, double, double*)
// NM-DAG: W sq_pullback(double, double, double*)
// RUN: %gradxx %t/a.o %t/b.o -o %t/a.out
// RUN: %t/a.out | %FileCheck-strict %s --implicit-check-not=FAIL
// CHECK: ok fa.d0
// CHECK: ok fb.d0

//--- h.h
#include <cmath>
inline double helper(double x) { return std::exp(x); }
constexpr double cube(double x) { return x * x * x; }
template <class T> T sq(T x) { return x * x; }

//--- a.cpp
#include "h.h"
#include "gradcheck.h"
[[grad]] double fa(double x) { return helper(x) + cube(x) + sq(x); }
void runB();
int main() {
  gradcheck::check_grad("fa", fa, fa_pullback, 0.5);
  runB();
  return gradcheck::failures();
}

//--- b.cpp
#include "h.h"
#include "gradcheck.h"
[[grad]] double fb(double x) { return helper(x) * cube(x) * sq(x); }
void runB() { gradcheck::check_grad("fb", fb, fb_pullback, 0.5); }
