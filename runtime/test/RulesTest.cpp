//===- RulesTest.cpp - Every rules.def row against finite differences -----===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Expands rules.def a third time (after rules.h and dual.h) into a table of
// (eval, partial) functions and checks every partial of every row against a
// five-point central difference, in float, double and long double. A new row
// needs no new test code: the test points are found by evaluating the row.
//
//===----------------------------------------------------------------------===//

#include "grad/core.h"
#include "grad/rules.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

namespace {

template <class T> struct Rule {
  const char *Name;
  int Arity;
  T (*Eval)(const T *Args);
  T (*Partial)(int Arg, const T *Args, T Y);
};

template <class T> std::vector<Rule<T>> allRules() {
  using namespace grad::rules;
  std::vector<Rule<T>> Rules;
#define GRAD_RULE1(Name, DX)                                                   \
  Rules.push_back(                                                             \
      {#Name, 1, [](const T *A) { return Name##_eval<T>(A[0]); },              \
       [](int, const T *A, T Y) { return Name##_dx<T>(A[0], Y); }});
// The partial over x alone is checked as a row of its own.
#define GRAD_RULE1X(Name, DX, DXX)                                             \
  GRAD_RULE1(Name, DX)                                                         \
  Rules.push_back(                                                             \
      {#Name "_dxx", 1, [](const T *A) { return Name##_eval<T>(A[0]); },       \
       [](int, const T *A, T) { return Name##_dxx<T>(A[0]); }});
#define GRAD_RULE2(Name, DA, DB)                                               \
  Rules.push_back({#Name, 2,                                                   \
                   [](const T *A) { return Name##_eval<T>(A[0], A[1]); },      \
                   [](int K, const T *A, T Y) {                                \
                     return K == 0 ? Name##_da<T>(A[0], A[1], Y)               \
                                   : Name##_db<T>(A[0], A[1], Y);              \
                   }});
#define GRAD_RULE3(Name, DA, DB, DC)                                           \
  Rules.push_back(                                                             \
      {#Name, 3, [](const T *A) { return Name##_eval<T>(A[0], A[1], A[2]); },  \
       [](int K, const T *A, T Y) {                                            \
         return K == 0   ? Name##_da<T>(A[0], A[1], A[2], Y)                   \
                : K == 1 ? Name##_db<T>(A[0], A[1], A[2], Y)                   \
                         : Name##_dc<T>(A[0], A[1], A[2], Y);                  \
       }});
#include "grad/rules.def"
  return Rules;
}

// Dyadic test points (exact in float) away from integers and half-integers,
// where the piecewise rules (floor, round, fmod, ...) jump. Points outside a
// row's domain are skipped because the row evaluates to a non-finite value.
constexpr double UnaryPoints[] = {-3.6875, -2.3125, -1.3125, -0.6875,
                                  -0.3125, 0.1875,  0.4375,  0.6875,
                                  1.3125,  2.3125,  3.6875};
constexpr double NaryPoints[] = {-1.3125, -0.3125, 0.4375,
                                 0.6875,  1.3125,  2.3125};
// Each partial must be checked at this many points at least.
constexpr int MinPoints = 3;

template <class T> struct Checker {
  static constexpr T Eps = std::numeric_limits<T>::epsilon();
  // A five-point difference with step h ~ eps^(1/5) has truncation and
  // rounding errors of order eps^(4/5) relative to the scale below.
  const T Tol = T(64) * std::pow(Eps, T(0.8));

  const Rule<T> &R;

  explicit Checker(const Rule<T> &R) : R(R) {}

  // A power of two (so every stencil point is exact) near
  // eps^(1/5) * max(1, |x|) / 4.
  static T stepFor(T X) {
    T H = std::pow(Eps, T(0.2)) * std::fmax(T(1), std::fabs(X)) / 4;
    return std::ldexp(T(1), std::ilogb(H));
  }

  // d/dArgs[K] by the five-point stencil; Ok becomes false on a non-finite
  // value.
  T difference(std::array<T, 3> Args, int K, T H, bool &Ok) const {
    auto At = [&](T Shift) {
      std::array<T, 3> P = Args;
      P[K] += Shift;
      T V = R.Eval(P.data());
      Ok = Ok && std::isfinite(V);
      return V;
    };
    return (At(-2 * H) - 8 * At(-H) + 8 * At(H) - At(2 * H)) / (12 * H);
  }

  std::string describe(const std::array<T, 3> &Args, int K) const {
    std::ostringstream OS;
    OS.precision(std::numeric_limits<T>::max_digits10);
    OS << R.Name << ": d/d"
       << "xabc"[R.Arity == 1 ? 0 : K + 1] << " at (";
    for (int I = 0; I < R.Arity; ++I)
      OS << (I ? ", " : "") << Args[I];
    OS << ")";
    return OS.str();
  }

  // Checks partial K at Args; returns whether the point was usable.
  bool checkPoint(const std::array<T, 3> &Args, int K, int &Failures) const {
    const T Y = R.Eval(Args.data());
    if (!std::isfinite(Y))
      return false;
    const T H = stepFor(Args[K]);
    bool Ok = true;
    const T Fd = difference(Args, K, H, Ok);
    const T FdHalf = difference(Args, K, H / 2, Ok);
    const T Got = R.Partial(K, Args.data(), Y);
    if (!Ok || !std::isfinite(Got))
      return false;
    const T Scale =
        std::fmax(std::fmax(std::fabs(Got), std::fabs(Fd)), std::fabs(Y));
    // Differences that disagree between two steps: a jump or kink is near
    // (e.g. fmod where a / b crosses an integer). Not a usable point.
    if (std::fabs(Fd - FdHalf) > Tol * Scale)
      return false;
    if (std::fabs(Got - Fd) > Tol * Scale && ++Failures <= 3) {
      std::ostringstream OS;
      OS.precision(std::numeric_limits<T>::max_digits10);
      OS << "rule " << Got << ", finite difference " << Fd << ", tolerance "
         << Tol * Scale;
      ADD_FAILURE() << describe(Args, K) << ": " << OS.str();
    }
    return true;
  }

  void run() const {
    std::vector<std::array<T, 3>> Tuples;
    if (R.Arity == 1) {
      for (double X : UnaryPoints)
        Tuples.push_back({T(X), T(0), T(0)});
    } else {
      // Distinct arguments only: min, max, hypot, ... have kinks where two
      // arguments are equal.
      const int N = std::size(NaryPoints);
      for (int I = 0; I < N; ++I)
        for (int J = 0; J < N; ++J)
          for (int L = 0; L < (R.Arity == 3 ? N : 1); ++L)
            if (I != J && (R.Arity == 2 || (L != I && L != J)))
              Tuples.push_back(
                  {T(NaryPoints[I]), T(NaryPoints[J]), T(NaryPoints[L])});
    }
    for (int K = 0; K < R.Arity; ++K) {
      int Used = 0, Failures = 0;
      for (const auto &Args : Tuples)
        Used += checkPoint(Args, K, Failures);
      EXPECT_GE(Used, MinPoints)
          << R.Name << ": too few test points in the domain of argument " << K;
    }
  }
};

template <class T> class RulesTest : public ::testing::Test {};
using FloatTypes = ::testing::Types<float, double, long double>;
TYPED_TEST_SUITE(RulesTest, FloatTypes);

TYPED_TEST(RulesTest, PartialsMatchFiniteDifferences) {
  const auto Rules = allRules<TypeParam>();
  ASSERT_GE(Rules.size(), 30u); // the table was expanded
  for (const auto &R : Rules)
    Checker<TypeParam>(R).run();
}

TYPED_TEST(RulesTest, EvalCallsStd) {
  using T = TypeParam;
  EXPECT_EQ(grad::rules::sin_eval<T>(T(0.5)), std::sin(T(0.5)));
  EXPECT_EQ(grad::rules::pow_eval<T>(T(1.5), T(2.5)), std::pow(T(1.5), T(2.5)));
  EXPECT_EQ(grad::rules::fma_eval<T>(T(2), T(3), T(4)), T(10));
  EXPECT_EQ(grad::rules::min_eval<T>(T(2), T(-3)), T(-3));
  static_assert(std::is_same_v<decltype(grad::rules::cbrt_dx(T(1), T(1))), T>);
}

TEST(RulesTest, ConstantsKeepLongDoublePrecision) {
  // K(v) must read v as a long double literal, not round it through double.
  const long double Ln2 = std::log(2.0L);
  EXPECT_NEAR(grad::rules::exp2_dx<long double>(0.0L, 1.0L), Ln2,
              4 * std::numeric_limits<long double>::epsilon());
  EXPECT_NE(grad::rules::exp2_dx<long double>(0.0L, 1.0L),
            static_cast<long double>(std::log(2.0)));
}

TEST(RulesTest, SelectAndPiecewiseRules) {
  using namespace grad::rules;
  EXPECT_EQ(fabs_dx(-2.0, 2.0), -1.0);
  EXPECT_EQ(fabs_dx(2.0, 2.0), 1.0);
  EXPECT_EQ(pow_db(-2.0, 2.0, 4.0), 0.0); // select(a > 0, ...) is 0
  EXPECT_EQ(pow_db(2.0, 3.0, 8.0), 8.0 * std::log(2.0));
  // min(a, b) is (b < a) ? b : a, so at a tie the derivative goes to a.
  EXPECT_EQ(min_da(1.0, 1.0, 1.0), 1.0);
  EXPECT_EQ(min_db(1.0, 1.0, 1.0), 0.0);
  EXPECT_EQ(max_da(1.0, 1.0, 1.0), 1.0);
  EXPECT_EQ(fmod_db(7.0, 2.0, 1.0), -3.0);
  EXPECT_EQ(floor_dx(1.5f, 1.0f), 0.0f);
}

// rules.h evaluates std::clamp itself (the runtime includes no <algorithm>):
// the same value and the same argument returned, ties and -0.0 included.
TEST(RulesTest, ClampMatchesStd) {
  const double Vs[] = {-2.0, -1.0, -0.0, 0.0, 0.5, 1.0, 3.0};
  for (double V : Vs)
    for (double Lo : Vs)
      for (double Hi : Vs) {
        if (Hi < Lo)
          continue;
        const double Want = std::clamp(V, Lo, Hi);
        const double Got = grad::rules::clamp_eval(V, Lo, Hi);
        EXPECT_EQ(Got, Want) << V << " " << Lo << " " << Hi;
        EXPECT_EQ(std::signbit(Got), std::signbit(Want))
            << V << " " << Lo << " " << Hi;
      }
}

} // namespace

// grad::detail::sin_cos, which derivatives call for sin(x) and cos(x), gives
// the bits std::sin and std::cos give (the primal's values must not change),
// over the ranges where reductions differ; pair_sin / pair_cos the one value.
template <class T> void expectSinCosBits() {
  const T Points[] = {T(0),         T(-0.0),      T(1e-9), T(0.3),
                      T(-0.7),      T(1.5707963), T(3.1415926), T(4.2),
                      T(-12.5),     T(1e3),       T(-7.7e5),    T(1e15),
                      std::numeric_limits<T>::max()};
  for (T X : Points) {
    auto P = grad::detail::sin_cos(X);
    EXPECT_EQ(P.__sin, std::sin(X)) << X;
    EXPECT_EQ(P.__cos, std::cos(X)) << X;
    EXPECT_EQ(grad::detail::pair_sin(X).__sin, std::sin(X)) << X;
    EXPECT_EQ(grad::detail::pair_cos(X).__cos, std::cos(X)) << X;
  }
  for (int I = -2000; I <= 2000; ++I) {
    T X = T(I) * T(0.0137) + T(I % 7) * T(1e-3);
    auto P = grad::detail::sin_cos(X);
    ASSERT_EQ(P.__sin, std::sin(X)) << X;
    ASSERT_EQ(P.__cos, std::cos(X)) << X;
  }
}

TEST(RulesTest, SinCosGivesTheBitsOfSinAndCos) {
  expectSinCosBits<float>();
  expectSinCosBits<double>();
  expectSinCosBits<long double>();
}
