// A file with errors: grad-dump still prints the derivatives that have none
// (and that call none that failed), says on stderr which pullbacks it
// skipped, with their declarations, and exits nonzero. What it prints
// compiles with -Wall -Wextra -Werror next to the primals.
// RUN: rm -rf %t && split-file %s %t
// RUN: not %dump %t/bad.cpp %dflags > %t/gen.inc 2> %t/err.txt
// RUN: FileCheck %s --check-prefix=ERR --input-file=%t/err.txt
// RUN: FileCheck %s --check-prefix=DUMP --input-file=%t/gen.inc
// RUN: %cxx -Wall -Wextra -Werror -Wno-unknown-attributes -fsyntax-only -I%t %t/use.cpp

// ERR: bad.cpp:7:15: error: grad: cannot differentiate 'goto' in 'helper'
// ERR: bad.cpp:12:42: error: use of undeclared identifier 'undefined_thing'
// ERR: bad.cpp:16:3: error: no matching function for call to 'f_pullback'
// ERR: note: 'f_pullback' is declared by clang-grad as 'void f_pullback(double x, double d_ret, double *d_x)'
// ERR-DAG: grad-dump: skipped 'void g_pullback(double x, double d_ret, double *d_x)': it calls a derivative that has errors (above)
// ERR-DAG: grad-dump: skipped 'void h_pullback(double x, double d_ret, double *d_x)': it calls a derivative that has errors (above)
// ERR-DAG: grad-dump: skipped 'void k_pullback(double x, double d_ret, double *d_x)': 'k' cannot be differentiated (errors above)
// ERR-NOT: skipped

// DUMP: void f_pullback(double x, double d_ret, double *d_x);
// DUMP-NEXT: void ok2_pullback(double x, double y, double d_ret, double *d_x, double *d_y);
// DUMP-NOT: g_pullback
// DUMP-NOT: h_pullback
// DUMP-NOT: k_pullback
// DUMP-NOT: _grad_

//--- bad.cpp
#include <cmath>
[[grad]] double f(double x) { return std::sin(x) * x; }
static double helper(double x) {
  double s = x;
again:
  s = s * x;
  if (s < 10) goto again;
  return s;
}
[[grad]] double g(double x) { return helper(x) + x; }
[[grad]] double h(double x) { return g(x) * 2; }
[[grad]] double k(double x) { return x * undefined_thing; }
[[grad]] double ok2(double x, double y) { return f(x) * y; }
int main() {
  double dx;
  f_pullback(1.0, &dx);
}
//--- use.cpp
#include <cmath>
double f(double x) { return std::sin(x) * x; }
double ok2(double x, double y) { return f(x) * y; }
#include "gen.inc"
int main() {
  double dx = 0, dy = 0;
  ok2_pullback(1.0, 2.0, 1.0, &dx, &dy);
  return dx == 0;
}
