// Every one-argument rule of rules.def, spelled std::NAME (double, float and
// long double overloads), plain C NAME, NAMEf and NAMEl, each at a point
// inside its domain. double adjoints are checked against finite differences
// and a closed form (1e-6), float against the closed form evaluated in long
// double (1e-5), long double against the closed form (1e-9).
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "gradcheck.h"
#include <cmath>
#include <math.h>

// R(NAME, POINT, d NAME(x) / dx written over long double x).
#define UNARY_RULES(R)                                                         \
  R(sin, 0.7, cosl(x))                                                         \
  R(cos, 0.7, -sinl(x))                                                        \
  R(tan, 0.7, 1 / (cosl(x) * cosl(x)))                                         \
  R(asin, 0.3, 1 / sqrtl(1 - x * x))                                           \
  R(acos, 0.3, -1 / sqrtl(1 - x * x))                                          \
  R(atan, 0.7, 1 / (1 + x * x))                                                \
  R(sinh, 0.7, coshl(x))                                                       \
  R(cosh, 0.7, sinhl(x))                                                       \
  R(tanh, 0.7, 1 / (coshl(x) * coshl(x)))                                      \
  R(asinh, 0.7, 1 / sqrtl(x * x + 1))                                          \
  R(acosh, 1.7, 1 / sqrtl(x * x - 1))                                          \
  R(atanh, 0.3, 1 / (1 - x * x))                                               \
  R(exp, 0.7, expl(x))                                                         \
  R(exp2, 0.7, exp2l(x) * logl(2.0L))                                          \
  R(expm1, 0.7, expl(x))                                                       \
  R(log, 1.3, 1 / x)                                                           \
  R(log2, 1.3, 1 / (x * logl(2.0L)))                                           \
  R(log10, 1.3, 1 / (x * logl(10.0L)))                                         \
  R(log1p, 0.7, 1 / (1 + x))                                                   \
  R(sqrt, 1.3, 1 / (2 * sqrtl(x)))                                             \
  R(cbrt, 1.3, 1 / (3 * cbrtl(x) * cbrtl(x)))                                  \
  R(erf, 0.7, 2 / sqrtl(M_PI) * expl(-x * x))                                  \
  R(erfc, 0.7, -2 / sqrtl(M_PI) * expl(-x * x))                                \
  R(fabs, -0.8, -1.0L)                                                         \
  R(floor, 0.7, 0.0L)                                                          \
  R(ceil, 0.7, 0.0L)                                                           \
  R(trunc, 0.7, 0.0L)                                                          \
  R(round, 0.7, 0.0L)

// Six [[grad]] functions per rule.
#define DEFINE(NAME, POINT, DERIV)                                             \
  [[grad]] double std_##NAME(double x) { return std::NAME(x); }                \
  [[grad]] float stdf_##NAME(float x) { return std::NAME(x); }                 \
  [[grad]] long double stdl_##NAME(long double x) { return std::NAME(x); }     \
  [[grad]] double c_##NAME(double x) { return NAME(x); }                       \
  [[grad]] float cf_##NAME(float x) { return NAME##f(x); }                     \
  [[grad]] long double cl_##NAME(long double x) { return NAME##l(x); }
UNARY_RULES(DEFINE)

// DUMP-LABEL: void std_sin_pullback(double x, double d_ret, double *d_x) {
// DUMP: [[P:_t[0-9]+]] = ::grad::detail::pair_cos(x);
// DUMP-NEXT: _d_x += d_ret * [[P]].__cos;
// DUMP-LABEL: void stdf_sin_pullback(float x, float d_ret, float *d_x) {
// DUMP: [[P:_t[0-9]+]] = ::grad::detail::pair_cos(x);
// DUMP-NEXT: _d_x += d_ret * [[P]].__cos;
// DUMP-LABEL: void stdl_sin_pullback(long double x, long double d_ret, long double *d_x) {
// DUMP-LABEL: void c_sin_pullback(double x, double d_ret, double *d_x) {
// DUMP-LABEL: void cf_sin_pullback(float x, float d_ret, float *d_x) {
// DUMP: [[P:_t[0-9]+]] = ::grad::detail::pair_cos(x);
// DUMP-NEXT: _d_x += d_ret * [[P]].__cos;
// DUMP-LABEL: void cl_sin_pullback(long double x, long double d_ret, long double *d_x) {
// DUMP-LABEL: void cf_tanh_pullback(float x, float d_ret, float *d_x) {
// DUMP: _t0 = ::tanhf(x);
// DUMP: _d_x += d_ret * (1.F - _t0 * _t0);
// DUMP-LABEL: void cf_exp2_pullback(float x, float d_ret, float *d_x) {
// DUMP: _d_x += d_ret * (_t0 * 0.693147182F);
// DUMP-LABEL: void cl_round_pullback(

static int Checked = 0;

template <class PB, class T>
static void checkOne(const char *Name, PB Pb, T X, long double Want,
                     long double Tol) {
  T D = 0;
  Pb(X, T(1), &D);
  gradcheck::expect(Name, D, Want, Tol);
  ++Checked;
}

#define CHECK(NAME, POINT, DERIV)                                              \
  {                                                                            \
    gradcheck::check_grad("fd.std_" #NAME, std_##NAME, std_##NAME##_pullback,  \
                          POINT);                                              \
    gradcheck::check_grad("fd.c_" #NAME, c_##NAME, c_##NAME##_pullback,        \
                          POINT);                                              \
    long double x = POINT;                                                     \
    long double Want = DERIV;                                                  \
    checkOne("std_" #NAME, std_##NAME##_pullback, double(POINT), Want, 1e-6);  \
    checkOne("c_" #NAME, c_##NAME##_pullback, double(POINT), Want, 1e-6);      \
    checkOne("stdl_" #NAME, stdl_##NAME##_pullback, x, Want, 1e-9);            \
    checkOne("cl_" #NAME, cl_##NAME##_pullback, x, Want, 1e-9);                \
    x = (long double)(float)POINT;                                             \
    Want = DERIV;                                                              \
    checkOne("stdf_" #NAME, stdf_##NAME##_pullback, float(POINT), Want, 1e-5); \
    checkOne("cf_" #NAME, cf_##NAME##_pullback, float(POINT), Want, 1e-5);     \
  }

int main() {
  UNARY_RULES(CHECK)
  // fabs and std::abs on the positive side, and std::abs on double.
  checkOne("fabs+", std_fabs_pullback, 0.8, 1.0L, 1e-6);
  checkOne("fabsf+", cf_fabs_pullback, 0.8f, 1.0L, 1e-6);
  // CHECK: ok fd.std_sin.d0
  // CHECK: ok cl_sin
  // CHECK: ok cf_acosh
  // CHECK: ok stdl_erfc
  // CHECK: ok cf_round
  // CHECK: ok fabsf+
  // CHECK: checked 170
  std::printf("checked %d\n", Checked);
  return gradcheck::failures();
}
