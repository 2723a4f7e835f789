// std::min, std::max and std::abs: partials follow the library definitions
// (min(a, b) is b < a ? b : a, max(a, b) is a < b ? b : a), so ties send the
// adjoint to the first argument.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "gradcheck.h"
#include <algorithm>
#include <cmath>

// DUMP-LABEL: void min2_pullback(double a, double b, double d_ret, double *d_a, double *d_b) {
// DUMP: _d_b += d_ret * (b < a ? 1. : 0.);
// DUMP: _d_a += d_ret * (b < a ? 0. : 1.);
[[grad]] double min2(double a, double b) { return std::min(a, b); }

// DUMP-LABEL: void max2_pullback(double a, double b, double d_ret, double *d_a, double *d_b) {
// DUMP: _d_b += d_ret * (a < b ? 1. : 0.);
// DUMP: _d_a += d_ret * (a < b ? 0. : 1.);
[[grad]] double max2(double a, double b) { return std::max(a, b); }

// DUMP-LABEL: void absd_pullback(double x, double d_ret, double *d_x) {
// DUMP: _d_x += d_ret * (x < 0. ? -1. : 1.);
[[grad]] double absd(double x) { return std::abs(x); }

// DUMP-LABEL: void absf_pullback(float x, float d_ret, float *d_x) {
// DUMP: _d_x += d_ret * (x < 0.F ? -1.F : 1.F);
[[grad]] float absf(float x) { return std::abs(x); }
[[grad]] long double absl(long double x) { return std::abs(x); }
[[grad]] float minf(float a, float b) { return std::min(a, b); }
[[grad]] long double maxl(long double a, long double b) {
  return std::max(a, b);
}

// Arguments that are expressions: the adjoint reaches x through x * x.
[[grad]] double clamp_sq(double x, double lo, double hi) {
  return std::max(lo, std::min(x * x, hi));
}

// std::clamp has its own rule (min(max(v, lo), hi), as libstdc++ defines it).
[[grad]] double stdclamp(double x, double lo, double hi) {
  return std::clamp(x * x, lo, hi) * std::clamp(std::sin(x), -0.5, 0.5);
}

int main() {
  using gradcheck::check_grad;
  using gradcheck::expect;
  // CHECK: ok min2<.d0
  // CHECK: ok min2<.d1
  check_grad("min2<", min2, min2_pullback, 0.5, 1.5);
  check_grad("min2>", min2, min2_pullback, 1.5, 0.5);
  check_grad("max2<", max2, max2_pullback, 0.5, 1.5);
  check_grad("max2>", max2, max2_pullback, 1.5, 0.5);
  // CHECK: ok absd-.d0
  check_grad("absd-", absd, absd_pullback, -0.5);
  check_grad("absd+", absd, absd_pullback, 0.5);

  double da = 0, db = 0;
  // CHECK: ok min2=.da
  min2_pullback(1.0, 1.0, 1.0, &da, &db);
  expect("min2=.da", da, 1);
  expect("min2=.db", db, 0);
  da = db = 0;
  max2_pullback(1.0, 1.0, 1.0, &da, &db);
  expect("max2=.da", da, 1);
  expect("max2=.db", db, 0);

  float fx = 0;
  absf_pullback(-2.0f, 3.0f, &fx);
  expect("absf", fx, -3);
  long double lx = 0;
  absl_pullback(2.0L, 3.0L, &lx);
  expect("absl", lx, 3, 1e-12);
  float fa = 0, fb = 0;
  minf_pullback(0.25f, -0.5f, 2.0f, &fa, &fb);
  expect("minf.da", fa, 0);
  expect("minf.db", fb, 2);
  long double la = 0, lb = 0;
  maxl_pullback(0.25L, -0.5L, 2.0L, &la, &lb);
  expect("maxl.da", la, 2, 1e-12);
  expect("maxl.db", lb, 0, 1e-12);

  // CHECK: ok clamp_mid.d2
  check_grad("clamp_mid", clamp_sq, clamp_sq_pullback, 0.8, 0.1, 2.0);
  check_grad("clamp_hi", clamp_sq, clamp_sq_pullback, 1.8, 0.1, 2.0);
  // CHECK: ok clamp_lo.d2
  check_grad("clamp_lo", clamp_sq, clamp_sq_pullback, 0.2, 0.1, 2.0);
  // CHECK: ok stdclamp_mid.d0
  check_grad("stdclamp_mid", stdclamp, stdclamp_pullback, 0.5, 0.1, 0.9);
  // CHECK: ok stdclamp_lo.d1
  check_grad("stdclamp_lo", stdclamp, stdclamp_pullback, 0.2, 0.1, 0.9);
  // CHECK: ok stdclamp_hi.d2
  check_grad("stdclamp_hi", stdclamp, stdclamp_pullback, 1.2, 0.1, 0.9);
  return gradcheck::failures();
}
