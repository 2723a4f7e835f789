// Newton iterations with a data-dependent trip count, checked against the
// closed form (sqrt) and the implicit-function derivative (x = cos(x)).
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>
#include <grad/grad.h>

// sqrt(a) by Newton on f(x) = x^2 - a.
[[grad]] double newton_sqrt(double a) {
  double x = a > 1 ? a : 1.0;
  double f = x * x - a;
  while (std::fabs(f) > 1e-13 * a) {
    x = x - f / (2 * x);
    f = x * x - a;
  }
  return x;
}

// The fixed point of x = c * cos(x): g(x, c) = x - c cos(x) = 0.
[[grad]] double fixed_cos(double c) {
  double x = 0.5;
  double f = x - c * std::cos(x);
  while (std::fabs(f) > 1e-14) {
    x = x - f / (1 + c * std::sin(x));
    f = x - c * std::cos(x);
  }
  return x;
}

int main() {
  using gradcheck::expect;
  for (double A : {0.25, 2.0, 9.0, 1234.5}) {
    double D = 0;
    newton_sqrt_pullback(A, 1.0, &D);
    // CHECK: ok sqrt.value.0.25
    // CHECK: ok sqrt.d.0.25
    // CHECK: ok sqrt.d.1234.5
    char Name[64];
    std::snprintf(Name, sizeof Name, "sqrt.value.%g", A);
    expect(Name, newton_sqrt(A), std::sqrt(A), 1e-12);
    std::snprintf(Name, sizeof Name, "sqrt.d.%g", A);
    expect(Name, D, 0.5 / std::sqrt(A));
  }
  // dx/dc = cos(x) / (1 + c sin(x)).
  for (double C : {1.0, 0.5, 0.8}) {
    double X = fixed_cos(C), D = 0;
    fixed_cos_pullback(C, 1.0, &D);
    char Name[64];
    std::snprintf(Name, sizeof Name, "fixed_cos.d.%g", C);
    // CHECK: ok fixed_cos.d.1
    // CHECK: ok fixed_cos.d.0.8
    expect(Name, D, std::cos(X) / (1 + C * std::sin(X)));
  }
  return gradcheck::failures();
}
