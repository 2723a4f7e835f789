// Recursion with the base case in a conditional expression: the pullback
// calls itself (f(x, n) = x^(n+1), so d/dx is (n+1) x^n).
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
// A recursive function calls functions that call functions: it is split
// into forward and reverse halves, so each level's forward sweep runs once.
// DUMP-LABEL: void power_pullback(double x, int n, double d_ret, double *d_x) {
// DUMP: ::_grad_power_fwd(x, n, _stack)
// DUMP: ::_grad_power_rev(x, n, d_ret, d_x, _stack);
// The index n - 1 is recomputed, not stored.
// DUMP-LABEL: void _grad_power_rev(double x, int n, double d_ret, double *d_x, ::grad::detail::stack &_stack) {
// DUMP: ::_grad_power_rev(x, n - 1, x * d_ret, &_g{{[0-9]+}}, _stack);
// DUMP-NOT: void power_pullback(
#include "gradcheck.h"
#include <cmath>

[[grad]] double power(double x, int n) {
  return n == 0 ? x : x * power(x, n - 1);
}

// The base case in an if statement (one return at the end).
[[grad]] double fact(double x, int n) {
  double r = 1.0;
  if (n > 0)
    r = x * fact(x, n - 1);
  return r;
}

// A wrt-restricted function calling itself: the recursive call needs every
// adjoint, so it goes through the all-parameter variant.
// DUMP-LABEL: void wr_pullback(double x, double y, int n, double d_ret, double *d_x) {
// DUMP: _grad_wr_rev(x, y, n, d_ret, d_x, _stack);
// DUMP-LABEL: void _grad_wr_rev(double x, double y, int n, double d_ret, double *d_x, ::grad::detail::stack &_stack) {
// DUMP: _grad_wr_rev_0({{.*}}, _stack);
// DUMP-LABEL: void _grad_wr_pullback_all(double x, double y, int n, double d_ret, double *d_x, double *d_y) {
[[grad("x")]] double wr(double x, double y, int n) {
  return n == 0 ? x * y : wr(x * y, y, n - 1);
}

// Mutual recursion through a callee without [[grad]].
double odd(double x, int n);
double even(double x, int n) { return n <= 0 ? x : std::sin(odd(x, n - 1)); }
double odd(double x, int n) { return x * even(x, n - 1); }
[[grad]] double mutual(double x, int n) { return even(x, n); }

int main() {
  using gradcheck::expect;
  for (int N : {0, 1, 3, 7}) {
    double D = 0;
    power_pullback(1.1, N, 1.0, &D);
    // CHECK: ok power.0
    // CHECK: ok power.7
    expect("power." + std::to_string(N), D, (N + 1) * std::pow(1.1, N));
  }
  for (int N : {0, 2, 4}) {
    double D = 0;
    mutual_pullback(0.8, N, 1.0, &D);
    // CHECK: ok mutual.4
    expect("mutual." + std::to_string(N), D,
           gradcheck::fd([N](double X) { return mutual(X, N); }, 0, 0.8));
  }
  double D = 0;
  fact_pullback(1.1, 4, 1.0, &D);
  // CHECK: ok fact
  expect("fact", D, 4 * std::pow(1.1, 3));
  D = 0;
  wr_pullback(1.5, 0.5, 3, 1.0, &D);
  // CHECK: ok wr
  expect("wr", D, std::pow(0.5, 4));
  return gradcheck::failures();
}
