// A user NAME_pullback whose signature does not match the ABI is an error at
// the user's declaration that shows the expected signature, with a note at
// the call that needed it.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

double cube(double x) { return x * x * x; }
// CHECK: mismatch.cpp:[[@LINE+1]]:8: error: grad: user pullback 'cube_pullback' does not match the ABI of 'cube'; expected 'void cube_pullback(double x, double d_ret, double *d_x)'
double cube_pullback(double x, double d_ret) { return 3 * x * x * d_ret; }

// CHECK: mismatch.cpp:[[@LINE+1]]:38: note: while differentiating 'cube', called here
[[grad]] double f(double x) { return cube(x) + x; }

// A float pullback for a double function is a mismatch too.
double lin(double t, int n);
// CHECK: mismatch.cpp:[[@LINE+1]]:6: error: grad: user pullback 'lin_pullback' does not match the ABI of 'lin'; expected 'void lin_pullback(double t, int n, double d_ret, double *d_t)'
void lin_pullback(float t, int n, float d_ret, float *d_t);
// CHECK: mismatch.cpp:[[@LINE+1]]:38: note: while differentiating 'lin', called here
[[grad]] double g(double x) { return lin(x, 2); }
