// do-while loops: the body runs at least once.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>
#include <grad/grad.h>

[[grad]] double once(double x, double y) {
  double s = x;
  do {
    s = s * y + 1;
  } while (s > 100);
  return s;
}

[[grad]] double counted(double x, double y) {
  double s = x;
  int i = 0;
  do {
    s = std::sin(s) * y + x;
    i++;
  } while (i < 5);
  return s;
}

// Trip count depends on x.
[[grad]] double grow(double x, double y) {
  double s = x * x + 0.1;
  double r = y;
  do {
    s = s * 1.5;
    r = r * y + s;
  } while (s < 3);
  return r;
}

int main() {
  using gradcheck::check_grad;
  // CHECK: ok once.d0
  // CHECK: ok once.d1
  check_grad("once", once, once_pullback, 0.7, 1.1);
  // CHECK: ok counted.d0
  check_grad("counted", counted, counted_pullback, 0.7, 1.1);
  // CHECK: ok grow.d1
  check_grad("grow", grow, grow_pullback, 0.7, 0.9);
  check_grad("grow", grow, grow_pullback, 1.7, 0.9);
  return gradcheck::failures();
}
