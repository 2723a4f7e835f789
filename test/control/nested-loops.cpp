// Nested loops, 2 and 3 deep, with values overwritten at every level, inner
// trip counts that depend on the outer index, and mixed loop kinds.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>
#include <grad/grad.h>

[[grad]] double two_deep(double x, double y) {
  double s = x;
  for (int i = 0; i < 4; ++i) {
    double t = s * y;
    for (int j = 0; j < 3; ++j)
      t = std::sin(t) + x * j;
    s = s * 0.5 + t;
  }
  return s;
}

// Triangular: the inner bound is the outer index.
[[grad]] double triangular(double x, double y) {
  double s = 0;
  for (int i = 0; i < 6; ++i) {
    double p = 1;
    for (int j = 0; j < i; ++j)
      p = p * x;
    s = s * y + p;
  }
  return s;
}

[[grad]] double three_deep(double x, double y, double z) {
  double a = x;
  for (int i = 0; i < 3; ++i) {
    double b = a * y;
    for (int j = 0; j < 3; ++j) {
      double c = b + z;
      for (int k = 0; k < 2; ++k)
        c = c * std::cos(c) + y;
      b = b * 0.5 + c * z;
    }
    a = std::tanh(a + b);
  }
  return a;
}

// while inside for inside do.
[[grad]] double mixed(double x, double y) {
  double s = x;
  int n = 0;
  do {
    for (int i = 0; i < 3; ++i) {
      int k = 0;
      while (k < i + 1) {
        s = s * y + std::sin(s);
        ++k;
      }
      s = s / (1 + s * s);
    }
    ++n;
  } while (n < 2);
  return s;
}

int main() {
  using gradcheck::check_grad;
  // CHECK: ok two_deep.d0
  // CHECK: ok two_deep.d1
  check_grad("two_deep", two_deep, two_deep_pullback, 0.3, 0.8);
  // CHECK: ok triangular.d1
  check_grad("triangular", triangular, triangular_pullback, 1.1, 0.8);
  // CHECK: ok three_deep.d0
  // CHECK: ok three_deep.d1
  // CHECK: ok three_deep.d2
  check_grad("three_deep", three_deep, three_deep_pullback, 0.3, 0.4, -0.2);
  // CHECK: ok mixed.d1
  check_grad("mixed", mixed, mixed_pullback, 0.3, 0.9);
  return gradcheck::failures();
}
