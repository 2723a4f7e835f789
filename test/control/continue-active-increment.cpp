// Loop increments that update a differentiated variable are not supported
// yet: a clear error at the increment (docs/supported.md), never a wrong
// gradient. Move such an increment into the loop body to differentiate it.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | FileCheck %s
#include "gradcheck.h"
#include <cmath>
#include <grad/grad.h>

// Continue that updates a double loop variable in the increment.
[[grad]] double active_increment(double x, double y) {
  double s = 0;
  int k = 0;
  for (double u = x; k < 6; u = u * y, ++k) {
    if (k == 2)
      continue;
    s += u * u;
  }
  return s;
}

// A non-trivial increment of an active double counter, with continue.
[[grad]] double active_step(double x, double y) {
  double s = 0;
  for (double u = x; u < 4; u = u * y + 0.5) {
    if (u > 2 && u < 3)
      continue;
    s += u * x;
  }
  return s;
}

int main() {
  using gradcheck::check_grad;
  check_grad("active_increment", active_increment, active_increment_pullback,
             0.8, 1.1);
  check_grad("active_step", active_step, active_step_pullback, 0.8, 1.3);
  return gradcheck::failures();
}

// CHECK: continue-active-increment.cpp:13:29: error: grad: cannot differentiate assignment inside an expression in 'active_increment'
// CHECK: continue-active-increment.cpp:10:3: note: while differentiating 'active_increment' requested here
// CHECK: continue-active-increment.cpp:24:29: error: grad: cannot differentiate loop increment of a differentiated variable in 'active_step'
