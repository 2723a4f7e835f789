// Counted for loops: accumulators, overwrites, index arithmetic, loops that
// run zero times, and a non-canonical loop over a double counter.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "gradcheck.h"
#include <cmath>
#include <grad/grad.h>

// DUMP-LABEL: void power_pullback(double x, int n, double d_ret, double *d_x) {
// DUMP: for (int i = {{.*}}; i < n; ++i)
// DUMP: while
[[grad]] double power(double x, int n) {
  double p = 1;
  for (int i = 0; i < n; ++i)
    p = p * x;
  return p;
}

// The index feeds the value; count down; step of 3.
[[grad]] double indexed(double x, double y) {
  double s = 0;
  for (int i = 5; i > 0; --i)
    s = s * y + i * x;
  for (int k = 0; k < 10; k += 3)
    s += std::sin(k * x + s);
  return s;
}

// Two accumulators that read each other.
[[grad]] double coupled(double x, double y) {
  double a = x, b = y;
  for (int i = 0; i < 6; ++i) {
    double t = a;
    a = 0.5 * a + 0.3 * b * b;
    b = std::cos(t) - 0.2 * b;
  }
  return a * b;
}

// A loop whose counter is a double that is not differentiated.
[[grad]] double double_counter(double x) {
  double s = x;
  for (double c = 0; c < 1; c += 0.25)
    s = s * (1 + c) + x;
  return s;
}

double power_n(double x) { return power(x, 7); }
void power_n_pb(double x, double s, double *d) { power_pullback(x, 7, s, d); }
double power_0(double x) { return power(x, 0); }
void power_0_pb(double x, double s, double *d) { power_pullback(x, 0, s, d); }

int main() {
  using gradcheck::check_grad;
  // CHECK: ok power.d0
  check_grad("power", power_n, power_n_pb, 1.3);
  // CHECK: ok power0.d0
  check_grad("power0", power_0, power_0_pb, 1.3);
  // CHECK: ok indexed.d1
  check_grad("indexed", indexed, indexed_pullback, 0.3, 0.6);
  // CHECK: ok coupled.d1
  check_grad("coupled", coupled, coupled_pullback, 0.3, 0.6);
  // CHECK: ok double_counter.d0
  check_grad("double_counter", double_counter, double_counter_pullback, 0.7);
  // Closed form: d/dx x^7 = 7 x^6.
  double dx = 0;
  power_pullback(1.3, 7, 1.0, &dx);
  // CHECK: ok power.closed
  gradcheck::expect("power.closed", dx, 7 * std::pow(1.3, 6));
  return gradcheck::failures();
}
