// A call to a function with no body, no rule and no user pullback: an error
// at the call, a note with the exact pullback to write (see
// no-body-suggested.cpp, which compiles it) and the [[grad]] site.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

// CHECK: no-body.cpp:[[@LINE+5]]:10: error: grad: cannot differentiate call to 'smooth' in 'f': it has no visible body, no derivative rule and no user pullback
// CHECK: no-body.cpp:[[@LINE+2]]:8: note: declare a pullback to supply the derivative: 'void smooth_pullback(double t, double k, double d_ret, double *d_t, double *d_k)'
// CHECK: no-body.cpp:[[@LINE+2]]:3: note: while differentiating 'f' requested here
double smooth(double t, double k);
[[grad]] double f(double x) {
  return smooth(x, 2 * x) * x;
}

// Unnamed parameters get invented names.
// CHECK: no-body.cpp:[[@LINE+5]]:10: error: grad: cannot differentiate call to 'step' in 'g': it has no visible body, no derivative rule and no user pullback
// CHECK: no-body.cpp:[[@LINE+2]]:8: note: declare a pullback to supply the derivative: 'void step_pullback(double p0, int p1, double d_ret, double *d_p0)'
// CHECK: no-body.cpp:[[@LINE+2]]:3: note: while differentiating 'g' requested here
double step(double, int);
[[grad]] double g(double x) {
  return step(x, 3);
}
