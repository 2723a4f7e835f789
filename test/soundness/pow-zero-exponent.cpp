// pow(x, y) at y == 0: d/dx is 0 (the rule's `y * pow(x, y - 1)` is 0 * inf
// at x == 0, NaN before issue 49); its row in rules.def has a y == 0 case,
// which every mode expands.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "fwdcheck.h"
#include <cmath>

[[grad, grad::forward]] double zeroExp(double x, double y) {
  return std::pow(x, 0.0) + x * y;
}

int main() {
  double dx = 0, dy = 0;
  zeroExp_pullback(0.0, 2.0, 1.0, &dx, &dy);
  gradcheck::expect("rev.dx", dx, 2.0);
  // CHECK: ok rev.dx
  gradcheck::expect("fwd.dx", zeroExp_pushforward(0.0, 2.0, 1.0, 0.0).der[0],
                    2.0);
  // CHECK: ok fwd.dx
  return gradcheck::failures();
}
