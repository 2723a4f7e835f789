// if / else-if / else chains, nested ifs and conditions on active values.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "gradcheck.h"
#include <cmath>

// Straight-line code with branches needs no tape.
// DUMP-LABEL: void chain_pullback(double x, double y, double d_ret, double *d_x, double *d_y) {
// DUMP-NOT: tape
// DUMP: {{^}$}}
[[grad]] double chain(double x, double y) {
  double r;
  if (x < -1)
    r = x * y;
  else if (x < 0)
    r = x * x - y;
  else if (x < 1) {
    r = std::sin(x) * y;
    r = r * r + x;
  } else
    r = y / x;
  return r;
}

[[grad]] double nested(double x, double y) {
  double r = x;
  if (x > 0) {
    if (y > 0)
      r = r * y;
    else
      r = r - y * y;
    r *= x;
  } else {
    if (y > x)
      r += std::exp(y);
  }
  return r * y;
}

// Only the taken branch's overwrite may contribute.
[[grad]] double overwrite_in_branch(double x, double y) {
  double a = x + y;
  if (a > 1) {
    a = a * a;
    a = a * x;
  } else {
    a = y * a;
  }
  return a + x;
}

// The condition reads a value that is overwritten later.
[[grad]] double cond_then_overwrite(double x, double y) {
  double t = x * y;
  double r = 0;
  if (t > 0.5)
    r = t * x;
  t = y * y;
  if (t < 1)
    r += t * x;
  else
    r -= t;
  return r;
}

int main() {
  using gradcheck::check_grad;
  // CHECK: ok chain.d0
  check_grad("chain", chain, chain_pullback, -1.5, 0.7);
  check_grad("chain", chain, chain_pullback, -0.5, 0.7);
  check_grad("chain", chain, chain_pullback, 0.5, 0.7);
  check_grad("chain", chain, chain_pullback, 1.5, 0.7);
  // CHECK: ok nested.d1
  check_grad("nested", nested, nested_pullback, 0.5, 0.7);
  check_grad("nested", nested, nested_pullback, 0.5, -0.7);
  check_grad("nested", nested, nested_pullback, -0.5, 0.7);
  check_grad("nested", nested, nested_pullback, -0.5, -0.7);
  // CHECK: ok overwrite_in_branch.d1
  check_grad("overwrite_in_branch", overwrite_in_branch,
             overwrite_in_branch_pullback, 0.9, 0.8);
  check_grad("overwrite_in_branch", overwrite_in_branch,
             overwrite_in_branch_pullback, 0.1, 0.2);
  // CHECK: ok cond_then_overwrite.d0
  check_grad("cond_then_overwrite", cond_then_overwrite,
             cond_then_overwrite_pullback, 0.9, 0.8);
  check_grad("cond_then_overwrite", cond_then_overwrite,
             cond_then_overwrite_pullback, 0.3, 1.2);
  return gradcheck::failures();
}
