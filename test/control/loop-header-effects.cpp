// Loop increments and conditions that update a differentiated variable,
// with continue in the body: the increment runs after every iteration (also
// one that continues) and is reversed first in the reverse iteration.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
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

// An assignment in the condition, evaluated once more than the body runs.
[[grad]] double halving(double r, double eps) {
  double acc = 0;
  while ((r *= 0.5) > eps) {
    if (acc > 100)
      continue;
    acc += r * r;
  }
  return acc + r;
}

int main() {
  using gradcheck::check_grad;
  check_grad("active_increment", active_increment, active_increment_pullback,
             0.8, 1.1);
  check_grad("active_step", active_step, active_step_pullback, 0.8, 1.3);
  check_grad("halving", halving, halving_pullback, 3.0, 0.1);
  return gradcheck::failures();
}

// CHECK: ok active_increment.d0
// CHECK: ok active_increment.d1
// CHECK: ok active_step.d0
// CHECK: ok active_step.d1
// CHECK: ok halving.d0
// CHECK: ok halving.d1
