// A user pullback must be declared before the plugin generates one: the
// plugin defines NAME_pullback as soon as NAME's body is complete, so a
// later definition is a redefinition (docs/custom-derivatives.md says so).
// RUN: not %gradxx -fsyntax-only %s 2>&1 | FileCheck %s

double sq(double x) { return x * x; }
[[grad]] double f(double x) { return sq(x); }
// CHECK: declared-late.cpp:[[@LINE+1]]:6: error: redefinition of 'sq_pullback'
void sq_pullback(double x, double d_ret, double *d_x) { *d_x += 30 * d_ret; }
