// A callable held in a function pointer variable has no visible body: a clean
// error at the argument that says what is needed, with the request note.
// RUN: not %gradxx -I%S/Inputs -fsyntax-only %s 2>&1 | %FileCheck-strict %s --implicit-check-not=error: --implicit-check-not=note:
#include <grad/grad.h>

#include <cmath>
#include <vector>

using V = std::vector<double>;

static double sq(double z) { return z * z; }

// A local function pointer is rejected at its declaration.
// CHECK: error-function-pointer.cpp:[[@LINE+3]]:3: error: grad: cannot differentiate local variable of type 'double (*)(double)' in 'local_pointer'
// CHECK: error-function-pointer.cpp:[[@LINE+1]]:3: note: while differentiating 'local_pointer' requested here
[[grad]] double local_pointer(const V &x) {
  double (*fp)(double) = sq;
  return grad::sum(grad::map(fp, x));
}

// CHECK: error-function-pointer.cpp:[[@LINE+3]]:36: error: grad: cannot differentiate callable passed to map/broadcast (a lambda or a function with a visible body is needed) in 'param_pointer'
// CHECK: error-function-pointer.cpp:[[@LINE+1]]:3: note: while differentiating 'param_pointer' requested here
[[grad]] double param_pointer(double (*fp)(double, double), const V &x) {
  return grad::sum(grad::broadcast(fp, x, 1.0));
}

// A declared function with no body.
double opaque(double);
// CHECK: error-function-pointer.cpp:[[@LINE+3]]:30: error: grad: cannot differentiate callable passed to map/broadcast (a lambda or a function with a visible body is needed) in 'no_body'
// CHECK: error-function-pointer.cpp:[[@LINE+1]]:3: note: while differentiating 'no_body' requested here
[[grad]] double no_body(const V &x) {
  return grad::sum(grad::map(opaque, x));
}
