// continue: skips the rest of the body; in a for loop the increment still
// runs (also a non-trivial one); also in nested loops and while loops.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>
#include <grad/grad.h>

[[grad]] double skip_odd(double x, double y) {
  double s = 0;
  for (int i = 0; i < 10; ++i) {
    s = s * 0.5 + x;
    if (i % 2)
      continue;
    s = s * y;
  }
  return s;
}

// A data-dependent continue.
[[grad]] double skip_big(double x, double y) {
  double s = y;
  for (int i = 0; i < 8; ++i) {
    double t = std::sin(s * x + i);
    if (t > 0.3)
      continue;
    s = s + t * t;
  }
  return s;
}

// A non-trivial increment: i = 2*i + 1 runs after continue, too.
[[grad]] double odd_increment(double x, double y) {
  double s = x;
  for (int i = 1; i < 100; i = 2 * i + 1) {
    s = s * y + i * x;
    if (i == 3 || s > 5)
      continue;
    s = std::sin(s);
  }
  return s;
}

[[grad]] double while_continue(double x, double y) {
  double s = x;
  int i = 0;
  while (i < 6) {
    ++i;
    s = s * y;
    if (i == 3)
      continue;
    s += x;
  }
  return s;
}

[[grad]] double nested_continue(double x, double y) {
  double s = x;
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) {
      if (j == i)
        continue;
      s = s * y + j * x;
    }
    if (i == 1)
      continue;
    s = std::tanh(s);
  }
  return s;
}

int main() {
  using gradcheck::check_grad;
  // CHECK: ok skip_odd.d0
  // CHECK: ok skip_odd.d1
  check_grad("skip_odd", skip_odd, skip_odd_pullback, 0.7, 1.3);
  // CHECK: ok skip_big.d1
  check_grad("skip_big", skip_big, skip_big_pullback, 0.7, 0.3);
  // CHECK: ok odd_increment.d0
  // CHECK: ok odd_increment.d1
  check_grad("odd_increment", odd_increment, odd_increment_pullback, 0.3, 0.9);
  // CHECK: ok while_continue.d1
  check_grad("while_continue", while_continue, while_continue_pullback, 0.8,
             1.1);
  // CHECK: ok nested_continue.d1
  check_grad("nested_continue", nested_continue, nested_continue_pullback, 0.3,
             0.7);
  return gradcheck::failures();
}
