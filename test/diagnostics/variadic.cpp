// A call to a variadic function with an active argument is an error at the
// call; a variadic call whose result carries no derivative (printf) is fine.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s
#include <cstdio>

double vsum(int n, ...);

// CHECK: variadic.cpp:[[@LINE+3]]:10: error: grad: cannot differentiate call to variadic function 'vsum' in 'f'
// CHECK: variadic.cpp:[[@LINE+1]]:3: note: while differentiating 'f' requested here
[[grad]] double f(double x) {
  return vsum(2, x, x * x);
}

[[grad]] double traced(double x) {
  std::printf("x = %g\n", x);
  return x * x;
}
