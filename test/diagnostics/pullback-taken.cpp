// [[grad]] on f when the user already declared something else named
// f_pullback (a function of another signature, or a variable) is an error
// at the attribute that shows the expected signature; it must not silently
// overload or shadow it.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

void f_pullback(double x, double *d_x);
// CHECK: pullback-taken.cpp:[[@LINE+1]]:3: error: grad: 'f_pullback' is already declared with a different signature; expected 'void f_pullback(double x, double d_ret, double *d_x)'
[[grad]] double f(double x) { return x * x; }

int g_pullback;
// CHECK: pullback-taken.cpp:[[@LINE+1]]:3: error: grad: 'g_pullback' is already declared with a different signature; expected 'void g_pullback(double x, double d_ret, double *d_x)'
[[grad]] double g(double x) { return x * x; }
