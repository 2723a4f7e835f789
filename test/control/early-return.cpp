// Early and multiple returns outside loops.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "gradcheck.h"
#include <cmath>

// Returns outside loops need no tape.
// DUMP-LABEL: void clamp_like_pullback(
// DUMP-NOT: tape
// DUMP: {{^}$}}
[[grad]] double clamp_like(double x, double y) {
  if (x > 2)
    return 2 * y;
  if (x < -2)
    return -2 * y + x;
  double t = x * y;
  if (t > 1) {
    t = t * t;
    return t + x;
  }
  t = std::sin(t);
  return t * x;
}

// A return in a nested block after locals were overwritten.
[[grad]] double nested_return(double x, double y) {
  double a = x * y;
  a = a + x;
  if (a > 0) {
    double b = a * a;
    if (y > 0) {
      b = b * y;
      return b - a;
    }
    a = b;
  }
  a = a * y;
  return a;
}

// All paths return from inside if/else.
[[grad]] double both_branches(double x, double y) {
  if (x * y > 0.5)
    return std::exp(x) * y;
  else
    return std::log(1 + y * y) * x;
}

int main() {
  using gradcheck::check_grad;
  // CHECK: ok clamp_like.d0
  check_grad("clamp_like", clamp_like, clamp_like_pullback, 2.5, 0.3);
  check_grad("clamp_like", clamp_like, clamp_like_pullback, -2.5, 0.3);
  check_grad("clamp_like", clamp_like, clamp_like_pullback, 1.5, 1.3);
  // CHECK: ok clamp_like.d1
  check_grad("clamp_like", clamp_like, clamp_like_pullback, 0.5, 0.3);
  // CHECK: ok nested_return.d0
  check_grad("nested_return", nested_return, nested_return_pullback, 0.5, 0.3);
  check_grad("nested_return", nested_return, nested_return_pullback, 0.5, -0.3);
  check_grad("nested_return", nested_return, nested_return_pullback, -0.5,
             0.3);
  // CHECK: ok both_branches.d1
  check_grad("both_branches", both_branches, both_branches_pullback, 0.9, 0.8);
  check_grad("both_branches", both_branches, both_branches_pullback, 0.2, 0.8);
  return gradcheck::failures();
}
