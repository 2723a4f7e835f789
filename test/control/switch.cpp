// switch on integers: case groups (also several labels on one group),
// default, inside a loop (the value goes on the tape), `continue` inside a
// switch in a loop, values against
// finite differences; case blocks in braces ending with `break`;
// a `break` nested in a case's statements: switch-break.cpp (fallthrough:
// switch-fallthrough.cpp).
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>
#include <grad/grad.h>
#include <vector>

[[grad]] double sw(double x, int k) {
  double y = x;
  switch (k) {
  case 0:
    y = x * x;
    break;
  case 1:
  case 2:
    y = std::sin(x) * y;
    break;
  default:
    y = 3 * x;
  }
  return y * x;
}

[[grad]] double swloop(double x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    switch (i % 3) {
    case 0:
      s += x * x;
      break;
    case 1:
      s = s * x;
      break;
    default:
      s -= std::exp(x);
      break;
    }
  }
  return s;
}

// `continue` inside a switch continues the enclosing loop: the loop
// tracks it as a jump (it did not, and the reverse sweep ran the rest of
// the body's reverse: a wrong gradient without a diagnostic).
[[grad]] double swcontinue(double x) {
  double s = 0;
  for (int i = 0; i < 6; ++i) {
    switch (i % 3) {
    case 0:
      s += x * i;
      break;
    case 1:
      if (s > 1)
        continue;
      s *= x;
      break;
    default:
      s = std::sin(s) + x;
    }
    s = s * x + 0.1;
  }
  return s;
}

// Case blocks in braces ending with `break` (the common style), one with
// a vector declared in the block, one with a nested if.
[[grad]] double swblock(double x, double y) {
  double s = 0;
  for (int i = 0; i < 5; ++i) {
    switch (i % 3) {
    case 0: {
      std::vector<double> v{x};
      v.push_back(y * i);
      s += v[0] * v[1];
      break;
    }
    case 1: {
      double t = s * x;
      if (t > 1)
        t = std::sqrt(t);
      s = t + y;
      break;
    }
    default:
      s += x;
      break;
    }
  }
  return s;
}

int main() {
  for (int k = 0; k < 4; ++k)
    gradcheck::check_grad("sw" + std::to_string(k),
                          [k](double x) { return sw(x, k); },
                          [k](double x, double s, double *d) {
                            sw_pullback(x, k, s, d);
                          },
                          0.7);
  // CHECK: ok sw0.d0
  // CHECK: ok sw1.d0
  // CHECK: ok sw2.d0
  // CHECK: ok sw3.d0
  gradcheck::check_grad("swloop", [](double x) { return swloop(x, 8); },
                        [](double x, double s, double *d) {
                          swloop_pullback(x, 8, s, d);
                        },
                        0.9);
  // CHECK: ok swloop.d0
  for (double x : {0.7, 1.3})
    gradcheck::check_grad("swcontinue", swcontinue,
                          [](double x, double s, double *d) {
                            swcontinue_pullback(x, s, d);
                          },
                          x);
  // CHECK-COUNT-2: ok swcontinue.d0
  gradcheck::check_grad("swblock", swblock, swblock_pullback, 0.8, 1.3);
  // CHECK: ok swblock.d0
  // CHECK: ok swblock.d1
  return gradcheck::failures();
}
