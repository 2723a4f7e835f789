// The two- and three-argument rules of rules.def (atan2, pow, hypot, fmod,
// fma, fmin, fmax), spelled std::NAME (double, float, long double), plain C
// NAME, NAMEf and NAMEl, at points inside each domain. double adjoints are
// checked against finite differences and closed forms (1e-6), float against
// the closed form in long double (1e-5), long double against it (1e-9).
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "gradcheck.h"
#include <cmath>
#include <math.h>

// R(NAME, A, B, d/da, d/db) with the partials over long double a, b.
#define BINARY_RULES(R)                                                        \
  R(atan2, 0.6, -1.3, b / (a * a + b * b), -a / (a * a + b * b))               \
  R(pow, 1.7, 2.3, b * powl(a, b - 1), powl(a, b) * logl(a))                   \
  R(hypot, 0.6, -1.3, a / hypotl(a, b), b / hypotl(a, b))                      \
  R(fmod, 5.3, 1.7, 1.0L, -truncl(a / b))                                      \
  R(fmin, 0.6, -1.3, 0.0L, 1.0L)                                               \
  R(fmax, 0.6, -1.3, 1.0L, 0.0L)

#define DEFINE(NAME, A, B, DA, DB)                                             \
  [[grad]] double std_##NAME(double a, double b) { return std::NAME(a, b); }   \
  [[grad]] float stdf_##NAME(float a, float b) { return std::NAME(a, b); }     \
  [[grad]] long double stdl_##NAME(long double a, long double b) {             \
    return std::NAME(a, b);                                                    \
  }                                                                            \
  [[grad]] double c_##NAME(double a, double b) { return NAME(a, b); }          \
  [[grad]] float cf_##NAME(float a, float b) { return NAME##f(a, b); }         \
  [[grad]] long double cl_##NAME(long double a, long double b) {               \
    return NAME##l(a, b);                                                      \
  }
BINARY_RULES(DEFINE)

// DUMP-LABEL: void std_atan2_pullback(double a, double b, double d_ret, double *d_a, double *d_b) {
// DUMP: _d_a += d_ret * (b / (a * a + b * b > 0. ? a * a + b * b : 1.));
// DUMP: _d_b += d_ret * (-a / (a * a + b * b > 0. ? a * a + b * b : 1.));
// DUMP-LABEL: void cf_pow_pullback(float a, float b, float d_ret, float *d_a, float *d_b) {
// DUMP: _t0 = ::powf(a, b);
// DUMP: _d_b += d_ret * (a > 0.F ? _t0 * ::std::log(a) : 0.F);
// DUMP: _d_a += d_ret * (b == 0.F ? 0.F : b * ::std::pow(a, b - 1.F));
// DUMP-LABEL: void std_fmod_pullback(
// DUMP: _d_b += d_ret * -::std::trunc(a / b);

[[grad]] double std_fma(double a, double b, double c) {
  return std::fma(a, b, c);
}
[[grad]] float stdf_fma(float a, float b, float c) { return std::fma(a, b, c); }
[[grad]] long double stdl_fma(long double a, long double b, long double c) {
  return std::fma(a, b, c);
}
[[grad]] double c_fma(double a, double b, double c) { return fma(a, b, c); }
[[grad]] float cf_fma(float a, float b, float c) { return fmaf(a, b, c); }
[[grad]] long double cl_fma(long double a, long double b, long double c) {
  return fmal(a, b, c);
}
// DUMP-LABEL: void std_fma_pullback(double a, double b, {{\[\[maybe_unused\]\]}} double c, double d_ret, double *d_a, double *d_b, double *d_c) {
// DUMP: _d_a += d_ret * b;
// DUMP: _d_b += d_ret * a;

// pow with a negative base and an integer exponent: d/da is b a^(b-1).
[[grad]] double neg_pow(double a, double b) { return std::pow(a, b); }

static int Checked = 0;

template <class PB, class T>
static void check2(const std::string &Name, PB Pb, T A, T B, long double WA,
                   long double WB, long double Tol) {
  T DA = 0, DB = 0;
  Pb(A, B, T(1), &DA, &DB);
  gradcheck::expect(Name + ".da", DA, WA, Tol);
  gradcheck::expect(Name + ".db", DB, WB, Tol);
  ++Checked;
}

template <class PB, class T>
static void check3(const std::string &Name, PB Pb, T A, T B, T C,
                   long double Tol) {
  T D[3] = {0, 0, 0};
  Pb(A, B, C, T(1), &D[0], &D[1], &D[2]);
  gradcheck::expect(Name + ".da", D[0], B, Tol);
  gradcheck::expect(Name + ".db", D[1], A, Tol);
  gradcheck::expect(Name + ".dc", D[2], 1, Tol);
  ++Checked;
}

#define CHECK(NAME, A, B, DA, DB)                                              \
  {                                                                            \
    gradcheck::check_grad("fd.std_" #NAME, std_##NAME, std_##NAME##_pullback,  \
                          A, B);                                               \
    gradcheck::check_grad("fd.c_" #NAME, c_##NAME, c_##NAME##_pullback, A, B); \
    long double a = A, b = B;                                                  \
    long double WA = DA, WB = DB;                                              \
    check2("std_" #NAME, std_##NAME##_pullback, double(A), double(B), WA, WB,  \
           1e-6);                                                              \
    check2("c_" #NAME, c_##NAME##_pullback, double(A), double(B), WA, WB,      \
           1e-6);                                                              \
    check2("stdl_" #NAME, stdl_##NAME##_pullback, a, b, WA, WB, 1e-9);         \
    check2("cl_" #NAME, cl_##NAME##_pullback, a, b, WA, WB, 1e-9);             \
    a = (float)A;                                                              \
    b = (float)B;                                                              \
    WA = DA;                                                                   \
    WB = DB;                                                                   \
    check2("stdf_" #NAME, stdf_##NAME##_pullback, float(A), float(B), WA, WB,  \
           1e-5);                                                              \
    check2("cf_" #NAME, cf_##NAME##_pullback, float(A), float(B), WA, WB,      \
           1e-5);                                                              \
  }

int main() {
  BINARY_RULES(CHECK)
  // fmin/fmax with the other argument smaller.
  check2("fmin<", std_fmin_pullback, -1.3, 0.6, 1.0L, 0.0L, 1e-6);
  check2("fmax<", cf_fmax_pullback, -1.3f, 0.6f, 0.0L, 1.0L, 1e-6);

  gradcheck::check_grad("fd.std_fma", std_fma, std_fma_pullback, 0.6, -1.3, 2.1);
  gradcheck::check_grad("fd.c_fma", c_fma, c_fma_pullback, 0.6, -1.3, 2.1);
  check3("std_fma", std_fma_pullback, 0.6, -1.3, 2.1, 1e-6);
  check3("c_fma", c_fma_pullback, 0.6, -1.3, 2.1, 1e-6);
  check3("stdf_fma", stdf_fma_pullback, 0.6f, -1.3f, 2.1f, 1e-6);
  check3("cf_fma", cf_fma_pullback, 0.6f, -1.3f, 2.1f, 1e-6);
  check3("stdl_fma", stdl_fma_pullback, 0.6L, -1.3L, 2.1L, 1e-9);
  check3("cl_fma", cl_fma_pullback, 0.6L, -1.3L, 2.1L, 1e-9);

  // d/da (-1.5)^3 = 3 * 2.25; d/db is taken as 0 off the real domain.
  check2("neg_pow", neg_pow_pullback, -1.5, 3.0, 6.75L, 0.0L, 1e-12);

  // CHECK: ok fd.std_atan2.d0
  // CHECK: ok cl_pow.db
  // CHECK: ok cf_hypot.da
  // CHECK: ok stdl_fmod.db
  // CHECK: ok cf_fma.dc
  // CHECK: ok neg_pow.db
  // CHECK: checked 45
  std::printf("checked %d\n", Checked);
  return gradcheck::failures();
}
