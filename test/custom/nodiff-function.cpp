// [[grad::nodiff]] on a function: its calls are constants. The gradient
// excludes it, no pullback is generated or required for it (even without a
// body), and the generated code calls it only for its value.
// RUN: %gradxx %s -o %t 2>&1 | count 0
// RUN: %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP --implicit-check-not=noisy_pullback --implicit-check-not=table_pullback
#include "gradcheck.h"

[[grad::nodiff]] double noisy(double x) { return x * x; }
[[grad::nodiff]] double table(double x); // defined below, after use

// DUMP-LABEL: void f_pullback(double x, double d_ret, double *d_x) {
// DUMP: noisy(x)
[[grad]] double f(double x) { return noisy(x) * x; }

// DUMP-LABEL: void g_pullback(double x, double d_ret, double *d_x) {
// DUMP: table(x)
[[grad]] double g(double x) { return table(x) * x + x; }

double table(double x) { return 3 * x; }

int main() {
  double dx = 0;
  f_pullback(1.5, 1.0, &dx);
  // CHECK: ok f.dx
  gradcheck::expect("f.dx", dx, 1.5 * 1.5); // d/dx of c*x with c = noisy(x)
  dx = 0;
  g_pullback(2.0, 1.0, &dx);
  // CHECK: ok g.dx
  gradcheck::expect("g.dx", dx, 3 * 2.0 + 1);
  return gradcheck::failures();
}
