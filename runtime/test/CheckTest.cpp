//===- CheckTest.cpp - grad::check against hand-written derivatives -------===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// grad::check with derivatives written by hand (no plugin): right ones
/// pass, deliberately wrong ones (a wrong partial, `=` instead of `+=`, a
/// wrong pushforward value) are reported with the component that differs.
///
//===----------------------------------------------------------------------===//

#include "grad/check.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

namespace {

double f(double x, double y) { return std::sin(x) * y + std::exp(x * y); }
void fPullback(double x, double y, double d, double *dx, double *dy) {
  *dx += d * (std::cos(x) * y + y * std::exp(x * y));
  *dy += d * (std::sin(x) + x * std::exp(x * y));
}
// df/dy is missing a factor: wrong by x e^{xy}.
void fWrongPullback(double x, double y, double d, double *dx, double *dy) {
  *dx += d * (std::cos(x) * y + y * std::exp(x * y));
  *dy += d * (std::sin(x) + 2 * x * std::exp(x * y));
}
// Right partials, but overwrites instead of accumulating.
void fAssigningPullback(double x, double y, double d, double *dx, double *dy) {
  *dx = d * (std::cos(x) * y + y * std::exp(x * y));
  *dy = d * (std::sin(x) + x * std::exp(x * y));
}
grad::dual<double> fPushforward(double x, double y, double tx, double ty) {
  double e = std::exp(x * y);
  return {f(x, y),
          {(std::cos(x) * y + y * e) * tx + (std::sin(x) + x * e) * ty}};
}
grad::dual<double> fOffValuePushforward(double x, double y, double tx,
                                        double ty) {
  grad::dual<double> r = fPushforward(x, y, tx, ty);
  r.val += 0.5;
  return r;
}

// Horner's rule over a pointer with a length.
double horner(const double *c, int n, double x) {
  double p = 0;
  for (int i = n - 1; i >= 0; --i)
    p = p * x + c[i];
  return p;
}
void hornerPullback(const double *c, int n, double x, double d, double *dc,
                    double *dx) {
  double xk = 1, dp = 0;
  for (int i = 0; i < n; ++i, xk *= x)
    dc[i] += d * xk;
  for (int i = n - 1; i >= 1; --i)
    dp = dp * x + i * c[i];
  *dx += d * dp;
}

double weighted(const std::vector<double> &v, double k) {
  double r = 0;
  for (double e : v)
    r += k * e * e;
  return r;
}
// The pullback of a wrt list without k: no adjoint for it.
void weightedPullback(const std::vector<double> &v, double k, double d,
                      std::vector<double> *dv) {
  for (std::size_t i = 0; i < v.size(); ++i)
    (*dv)[i] += 2 * k * v[i] * d;
}

double norm3(const std::array<double, 3> &a) {
  return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}
void norm3Pullback(const std::array<double, 3> &a, double d,
                   std::array<double, 3> *da) {
  double n = norm3(a);
  for (int i = 0; i < 3; ++i)
    (*da)[i] += d * a[i] / n;
}

float cube(float x) { return x * x * x; }
void cubePullback(float x, float d, float *dx) { *dx += 3 * x * x * d; }

// x is in/out: f reads it, doubles it and returns the square.
double twice(double &x) {
  x *= 2;
  return x * x;
}
void twicePullback(double &x, double d, double *dx) {
  *dx += d * 8 * x;
  x *= 2;
}

// Independent of y: its derivative is zero up to rounding.
double onlyX(double x, double y) { return x * x + 0 * y; }
void onlyXPullback(double x, double, double d, double *dx, double *dy) {
  *dx += 2 * x * d;
  *dy += 0;
}

// An overloaded pullback name: the checker's parameter type picks one.
double sq(double x) { return x * x; }
void sqPullback(double x, double d, double *dx) { *dx += 2 * x * d; }
void sqPullback(double x, grad::lanes<double, 2> d,
                grad::lanes<double, 2> *dx) {
  *dx += d * (2 * x);
}

grad::check_options quiet() { return {.out = nullptr}; }

TEST(CheckTest, RightPullbackPasses) {
  std::ostringstream OS;
  grad::check_result R = grad::check({.out = &OS}, f, fPullback, 0.5, 2.0);
  EXPECT_TRUE(R.ok) << OS.str();
  EXPECT_TRUE(bool(R));
  ASSERT_EQ(R.rows.size(), 2u);
  EXPECT_EQ(R.rows[0].param, "#0");
  EXPECT_EQ(R.rows[0].index, -1);
  EXPECT_NEAR(R.rows[0].analytic, 7.1917288, 1e-6);
  EXPECT_NEAR(R.rows[1].numeric, 1.8385665, 1e-6);
  EXPECT_LT(R.max_error, 1e-9);
  EXPECT_TRUE(R.accumulates);
  EXPECT_NE(OS.str().find("grad::check: ok"), std::string::npos);
}

TEST(CheckTest, WrongPartialIsReported) {
  std::ostringstream OS;
  grad::check_result R = grad::check({.names = {"x", "y"}, .out = &OS}, f,
                                     fWrongPullback, 0.5, 2.0);
  EXPECT_FALSE(R.ok);
  ASSERT_EQ(R.rows.size(), 2u);
  EXPECT_TRUE(R.rows[0].ok);
  EXPECT_FALSE(R.rows[1].ok);
  EXPECT_EQ(R.rows[1].param, "y");
  // Off by x e^{xy} = 1.359 on 1.839.
  EXPECT_NEAR(R.rows[1].error, 1.3591409 / 3.1977074, 1e-6);
  EXPECT_NEAR(R.max_error, R.rows[1].error, 0);
  const std::string Out = OS.str();
  EXPECT_NE(Out.find("  y "), std::string::npos) << Out;
  EXPECT_NE(Out.find("FAIL\n"), std::string::npos) << Out;
  EXPECT_NE(Out.find("grad::check: FAIL: 1 of 2 components differ"),
            std::string::npos)
      << Out;
}

TEST(CheckTest, AssigningAdjointsIsReported) {
  std::ostringstream OS;
  grad::check_result R =
      grad::check({.out = &OS}, f, fAssigningPullback, 0.5, 2.0);
  EXPECT_FALSE(R.ok);
  EXPECT_FALSE(R.accumulates);
  for (const grad::check_row &Row : R.rows)
    EXPECT_TRUE(Row.ok); // the first call's values are right
  EXPECT_NE(OS.str().find("adjoints do not accumulate"), std::string::npos)
      << OS.str();
}

TEST(CheckTest, Pushforward) {
  EXPECT_TRUE(grad::check(quiet(), f, fPushforward, 0.5, 2.0).ok);
  std::ostringstream OS;
  grad::check_result R =
      grad::check({.out = &OS}, f, fOffValuePushforward, 0.5, 2.0);
  EXPECT_FALSE(R.ok);
  EXPECT_FALSE(R.value_matches);
  EXPECT_NE(OS.str().find("is not f's value"), std::string::npos) << OS.str();
}

TEST(CheckTest, PointerParameterTakesItsValues) {
  double C[4] = {1.0, -2.0, 0.5, 3.0};
  grad::check_result R =
      grad::check(quiet(), horner, hornerPullback, C, 4, 0.8);
  EXPECT_TRUE(R.ok);
  ASSERT_EQ(R.rows.size(), 5u); // c[0..3], x; n has no derivative
  for (int I = 0; I < 4; ++I) {
    EXPECT_EQ(R.rows[I].arg, 0u);
    EXPECT_EQ(R.rows[I].index, I);
    EXPECT_NEAR(R.rows[I].analytic, std::pow(0.8, I), 1e-12);
  }
  EXPECT_EQ(R.rows[4].arg, 2u);
  EXPECT_EQ(C[0], 1.0); // the inputs are copied, never perturbed in place
  // A std::vector works for a pointer parameter too.
  EXPECT_TRUE(grad::check(quiet(), horner, hornerPullback,
                          std::vector<double>{1.0, -2.0, 0.5, 3.0}, 4, 0.8)
                  .ok);
}

TEST(CheckTest, ContainersAndNodiff) {
  grad::check_result R =
      grad::check(quiet(), weighted, weightedPullback,
                  std::vector<double>{1.0, -2.0, 3.0}, grad::nodiff(0.5));
  EXPECT_TRUE(R.ok);
  ASSERT_EQ(R.rows.size(), 3u);
  EXPECT_NEAR(R.rows[1].analytic, -2.0, 1e-12);
  EXPECT_TRUE(grad::check(quiet(), norm3, norm3Pullback,
                          std::array<double, 3>{1.0, 2.0, -2.0})
                  .ok);
}

TEST(CheckTest, FloatFunctionPassesWithDefaults) {
  grad::check_result R = grad::check(quiet(), cube, cubePullback, 1.3f);
  EXPECT_TRUE(R.ok) << R.rows[0].analytic << " " << R.rows[0].numeric;
}

TEST(CheckTest, InOutParameter) {
  grad::check_result R = grad::check(quiet(), twice, twicePullback, 0.75);
  EXPECT_TRUE(R.ok);
  EXPECT_NEAR(R.rows[0].analytic, 6.0, 1e-12);
}

TEST(CheckTest, ZeroDerivativeIsNotAFailure) {
  grad::check_result R = grad::check(quiet(), onlyX, onlyXPullback, 1e3, 2.0);
  EXPECT_TRUE(R.ok) << R.rows[1].numeric;
  EXPECT_EQ(R.rows[1].analytic, 0.0);
}

TEST(CheckTest, OverloadedPullbackAndLambdas) {
  grad::lanes<double, 2> DX{};
  sqPullback(1.5, grad::lanes<double, 2>{{1.0, 2.0}}, &DX);
  EXPECT_EQ(DX.der[1], 6.0);
  EXPECT_TRUE(grad::check(quiet(), sq, sqPullback, 1.5).ok);
  EXPECT_TRUE(grad::check(
                  quiet(), f,
                  [](double x, double y, double d, double *dx, double *dy) {
                    fPullback(x, y, d, dx, dy);
                  },
                  0.5, 2.0)
                  .ok);
  EXPECT_TRUE(grad::check(
                  quiet(), f,
                  [](double x, double y, double tx, double ty) {
                    return fPushforward(x, y, tx, ty);
                  },
                  0.5, 2.0)
                  .ok);
  EXPECT_FALSE(grad::check(
                   quiet(), f,
                   [](double x, double y, double d, double *dx, double *dy) {
                     fWrongPullback(x, y, d, dx, dy);
                   },
                   0.5, 2.0)
                   .ok);
}

TEST(CheckTest, Tolerances) {
  // A derivative off by 1e-5 relative: fails at the default 1e-6,
  // passes at 1e-4 and with an absolute tolerance.
  auto Off = [](double x, double d, double *dx) {
    *dx += 2 * x * d * (1 + 1e-5);
  };
  EXPECT_FALSE(grad::check(quiet(), sq, Off, 1.5).ok);
  EXPECT_TRUE(grad::check({.rtol = 1e-4, .out = nullptr}, sq, Off, 1.5).ok);
  EXPECT_TRUE(grad::check({.atol = 1e-4, .out = nullptr}, sq, Off, 1.5).ok);
  auto NaN = [](double, double, double *dx) { *dx += std::nan(""); };
  grad::check_result R = grad::check(quiet(), sq, NaN, 1.5);
  EXPECT_FALSE(R.ok);
  EXPECT_TRUE(std::isnan(R.max_error));
}

TEST(CheckTest, ReportFormat) {
  std::ostringstream OS;
  grad::check({.names = {"x", "y"}, .out = &OS}, f, fWrongPullback, 0.5, 2.0);
  std::istringstream In(OS.str());
  std::string Head, Columns, RowX, RowY, Tail;
  std::getline(In, Head);
  std::getline(In, Columns);
  std::getline(In, RowX);
  std::getline(In, RowY);
  std::getline(In, Tail);
  EXPECT_EQ(Head, "grad::check pullback: 2 components, rtol 1.0e-06");
  for (const char *C :
       {"parameter", "index", "analytic", "numeric", "rel error"})
    EXPECT_NE(Columns.find(C), std::string::npos) << Columns;
  EXPECT_EQ(RowX.substr(0, 4), "  x ");
  EXPECT_EQ(RowX.substr(RowX.size() - 4), "  ok");
  EXPECT_NE(RowX.find("7.191728781e+00"), std::string::npos) << RowX;
  EXPECT_EQ(RowY.substr(RowY.size() - 4), "FAIL");
  EXPECT_EQ(Tail.rfind("grad::check: FAIL", 0), 0u) << Tail;

  std::ostringstream Failures;
  grad::check({.names = {"x", "y"}, .out = &Failures, .failures_only = true}, f,
              fWrongPullback, 0.5, 2.0);
  EXPECT_EQ(Failures.str().find("  x "), std::string::npos) << Failures.str();
  EXPECT_NE(Failures.str().find("  y "), std::string::npos);
}

} // namespace
