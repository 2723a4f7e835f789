// while loops: counted with an explicit counter, and data-dependent.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>
#include <grad/grad.h>

[[grad]] double counted(double x, double y) {
  int i = 0;
  double s = y;
  while (i < 8) {
    s = s * x + y;
    ++i;
  }
  return s;
}

// Halve until small: the trip count depends on x (piecewise smooth).
[[grad]] double halve(double x, double y) {
  double v = x * x + 1;
  double r = y;
  while (v > 0.1) {
    v = v * 0.5;
    r = r * std::cos(v) + v;
  }
  return r + v;
}

// Never entered.
[[grad]] double zero_trip(double x) {
  double s = x;
  while (s > 100)
    s = s - x * x;
  return s * s;
}

int main() {
  using gradcheck::check_grad;
  // CHECK: ok counted.d0
  // CHECK: ok counted.d1
  check_grad("counted", counted, counted_pullback, 0.7, 1.1);
  // CHECK: ok halve.d0
  // CHECK: ok halve.d1
  check_grad("halve", halve, halve_pullback, 1.7, 0.4);
  check_grad("halve", halve, halve_pullback, -3.1, 0.4);
  // CHECK: ok zero_trip.d0
  check_grad("zero_trip", zero_trip, zero_trip_pullback, 1.5);
  return gradcheck::failures();
}
