// Every unsupported construct of a function is reported in one compile, one
// error per statement, at the construct, named as written. A statement that
// uses a variable declared by a failed one is not reported again.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s
#include <cmath>

void opaque(double *p);
double (*table)(double) = nullptr;
static double *either(double *p, double *q) { return *p > *q ? p : q; }

[[grad]] double f(double x, double y) {
  double a = x * y;
  // CHECK-DAG: all-errors.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate call to 'opaque' in 'f': it has no visible body, no derivative rule and no user pullback
  opaque(&a);
  // CHECK-DAG: all-errors.cpp:[[@LINE+1]]:14: error: grad: cannot differentiate call through the function pointer 'table' in 'f'
  double b = table(a);
  double c = b * 2; // follows from the error above: not reported
  double *m = either(&a, &x);
  // CHECK-DAG: all-errors.cpp:[[@LINE+1]]:4: error: grad: cannot differentiate pointer 'm' whose target the plugin cannot track in 'f'
  *m *= 2;
  // CHECK-DAG: all-errors.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate inline assembly in 'f'
  asm("nop");
  // CHECK-DAG: all-errors.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate 'try' block in 'f'
  try {
    a += 1;
  } catch (...) {
  }
  return a + c + y;
}
// CHECK: 5 errors generated
