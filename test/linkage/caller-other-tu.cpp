// A [[grad]] function calls a [[grad]] function whose body is in another
// file: it calls the declared pullback, which the defining file provides.
// Overloads declared in the header resolve the same way.
// RUN: rm -rf %t && split-file %s %t
// RUN: %gradxx -c %t/def.cpp -o %t/def.o
// RUN: %gradxx -c %t/use.cpp -o %t/use.o
// RUN: %gradxx %t/def.o %t/use.o -o %t/a.out
// RUN: %t/a.out | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: llvm-nm -C %t/use.o | FileCheck %s --check-prefix=USE
// USE-DAG: U p_pullback(double, double, double*)
// USE-DAG: U p_pullback(double, double, double, double*, double*)
// USE-DAG: T q_pullback(double, double, double*)
// CHECK: ok q.d0

//--- p.h
[[grad]] double p(double x);
[[grad]] double p(double x, double y);

//--- def.cpp
#include "p.h"
#include <cmath>
double p(double x) { return std::sin(x) * x; }
double p(double x, double y) { return x * y * y; }

//--- use.cpp
#include "p.h"
#include "gradcheck.h"
[[grad]] double q(double x) { return p(x) + p(x, 2 * x); }
int main() {
  gradcheck::check_grad("q", q, q_pullback, 0.7);
  return gradcheck::failures();
}
