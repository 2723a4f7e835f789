// break: data-dependent exits from for/while/do, from an inner loop only,
// and after overwrites in the same iteration.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>
#include <grad/grad.h>

[[grad]] double for_break(double x, double y) {
  double s = y;
  for (int i = 0; i < 100; ++i) {
    s = s * x + 0.5;
    if (s > 3)
      break;
    s = s + y;
  }
  return s;
}

[[grad]] double while_break(double x) {
  double s = x;
  int i = 0;
  while (true) {
    s = s * 1.3 + x * x;
    if (++i >= 7)
      break;
  }
  return s;
}

[[grad]] double do_break(double x, double y) {
  double s = x;
  do {
    s = s * y;
    if (s > 2)
      break;
    s = s + 1;
  } while (s < 50);
  return s;
}

// The inner break leaves the inner loop only.
[[grad]] double nested_break(double x, double y) {
  double s = 0;
  for (int i = 0; i < 5; ++i) {
    double t = x * (i + 1);
    for (int j = 0; j < 10; ++j) {
      t = t * y + x;
      if (t > 4)
        break;
    }
    s += t;
  }
  return s;
}

int main() {
  using gradcheck::check_grad;
  // CHECK: ok for_break.d0
  // CHECK: ok for_break.d1
  check_grad("for_break", for_break, for_break_pullback, 1.3, 0.4);
  // Never breaks.
  check_grad("for_break", for_break, for_break_pullback, 0.3, 0.4);
  // CHECK: ok while_break.d0
  check_grad("while_break", while_break, while_break_pullback, 0.6);
  // CHECK: ok do_break.d0
  check_grad("do_break", do_break, do_break_pullback, 0.9, 1.7);
  check_grad("do_break", do_break, do_break_pullback, 0.9, 1.2);
  // CHECK: ok nested_break.d1
  check_grad("nested_break", nested_break, nested_break_pullback, 0.7, 1.3);
  return gradcheck::failures();
}
