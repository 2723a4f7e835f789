//===- DualTest.cpp - dual<T, N> arithmetic and rules.def overloads -------===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "grad/dual.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>
#include <type_traits>

namespace {

using grad::dual;
using grad::make_dual;
using D2 = dual<double, 2>;

// f(x, y) = x * y / (x + y) - 3 / x + 2 * y - 1 and its gradient.
TEST(DualTest, ArithmeticGradient) {
  const double X = 1.25, Y = -0.75;
  const D2 DX = make_dual<2>(X, 0), DY = make_dual<2>(Y, 1);
  const D2 F = DX * DY / (DX + DY) - 3 / DX + 2 * DY - 1;
  const double S = X + Y;
  EXPECT_DOUBLE_EQ(F.val, X * Y / S - 3 / X + 2 * Y - 1);
  EXPECT_DOUBLE_EQ(F.der[0], Y * Y / (S * S) + 3 / (X * X));
  EXPECT_DOUBLE_EQ(F.der[1], X * X / (S * S) + 2);
}

TEST(DualTest, ScalarOperandsOnBothSides) {
  const dual<double> X = make_dual(2.0);
  const auto Check = [](const dual<double> &R, double Val, double Der) {
    EXPECT_DOUBLE_EQ(R.val, Val);
    EXPECT_DOUBLE_EQ(R.der[0], Der);
  };
  Check(X + 3, 5, 1);
  Check(3 + X, 5, 1);
  Check(X - 3, -1, 1);
  Check(3 - X, 1, -1);
  Check(X * 3, 6, 3);
  Check(3 * X, 6, 3);
  Check(X / 4, 0.5, 0.25);
  Check(4 / X, 2, -1); // d(4/x) = -4/x^2
  Check(-X, -2, -1);
  Check(+X, 2, 1);
  Check(X / X, 1, 0);
  Check(X - X, 0, 0);
}

TEST(DualTest, CompoundAssignment) {
  dual<double> A = make_dual(3.0), B{2.0, {0.5}};
  A += B; // 5, 1.5
  EXPECT_EQ(A.val, 5.0);
  EXPECT_EQ(A.der[0], 1.5);
  A *= B; // 10, 1.5 * 2 + 5 * 0.5
  EXPECT_EQ(A.val, 10.0);
  EXPECT_EQ(A.der[0], 5.5);
  A /= B; // 5, (5.5 - 5 * 0.5) / 2
  EXPECT_EQ(A.val, 5.0);
  EXPECT_EQ(A.der[0], 1.5);
  A -= B;
  EXPECT_EQ(A.val, 3.0);
  EXPECT_EQ(A.der[0], 1.0);
  A *= 4;
  A += 1;
  A /= 2;
  A -= 0.5;
  EXPECT_EQ(A.val, 6.0);
  EXPECT_EQ(A.der[0], 2.0);
}

TEST(DualTest, ComparisonsUseValuesOnly) {
  const dual<double> A{1.0, {5.0}}, B{1.0, {-5.0}}, C{2.0};
  EXPECT_TRUE(A == B);
  EXPECT_FALSE(A != B);
  EXPECT_TRUE(A < C);
  EXPECT_TRUE(C >= A);
  EXPECT_TRUE(A < 1.5);
  EXPECT_TRUE(1.5 < C);
  EXPECT_TRUE(2 == C);
  EXPECT_TRUE(C != 3);
  EXPECT_FALSE(A > 1);
  EXPECT_TRUE(A <= 1);
}

TEST(DualTest, MakeDualSeedsOneSlot) {
  const auto D = make_dual<3>(2.5f, 1);
  static_assert(std::is_same_v<decltype(D), const dual<float, 3>>);
  EXPECT_EQ(D.val, 2.5f);
  EXPECT_EQ(D.der[0], 0.0f);
  EXPECT_EQ(D.der[1], 1.0f);
  EXPECT_EQ(D.der[2], 0.0f);
  const dual<double> C{4.0}; // a constant
  EXPECT_EQ(C.der[0], 0.0);
}

TEST(DualTest, FloatStaysFloat) {
  const dual<float> X = make_dual(0.5f);
  const auto Y = sin(X) * 2.0 + pow(X, 2); // found by ADL
  static_assert(std::is_same_v<decltype(Y), const dual<float>>);
  EXPECT_FLOAT_EQ(Y.val, 2 * std::sin(0.5f) + 0.25f);
  EXPECT_FLOAT_EQ(Y.der[0], 2 * std::cos(0.5f) + 1.0f);
}

TEST(DualTest, ChainRuleThroughFunctions) {
  // d/dx exp(sin(x) * x) = exp(sin(x) x) (cos(x) x + sin(x)).
  const double X0 = 0.7;
  const auto Y = grad::exp(grad::sin(make_dual(X0)) * make_dual(X0));
  EXPECT_DOUBLE_EQ(Y.der[0], std::exp(std::sin(X0) * X0) *
                                 (std::cos(X0) * X0 + std::sin(X0)));
}

//===----------------------------------------------------------------------===//
// Every rules.def row: the dual overload gives the value of NAME_eval and
// the partials of the rule, for duals in every argument and for scalars
// (constants) mixed in.
//===----------------------------------------------------------------------===//

constexpr double Points[] = {0.4375, 1.3125, -0.6875, 2.3125, 0.6875};

template <class T> void expectClose(T Got, T Want, const std::string &What) {
  EXPECT_NEAR(Got, Want, 1e-14 * std::fmax(1.0, std::fabs(Want))) << What;
}

// Finds a point of the domain and checks every mix of dual and scalar
// arguments: Mask bit K set means argument K is a dual seeded in slot K.
template <int Arity, class EvalFn, class PartialFn, class DualFn>
void checkRow(const char *Name, EvalFn Eval, PartialFn Partial, DualFn Fn) {
  std::array<double, 3> A{};
  bool Found = false;
  for (int I = 0; I < 5 && !Found; ++I) {
    A = {Points[I], Points[(I + 1) % 5], Points[(I + 2) % 5]};
    Found = std::isfinite(Eval(A));
    for (int K = 0; K < Arity; ++K)
      Found = Found && std::isfinite(Partial(K, A, Eval(A)));
  }
  ASSERT_TRUE(Found) << Name << ": no test point in the domain";
  const double Y = Eval(A);
  for (unsigned Mask = 1; Mask < (1u << Arity); ++Mask) {
    auto Arg = [&](int K) {
      return make_dual<3>(A[K], static_cast<std::size_t>(K));
    };
    // Calls Fn on the arguments; all-scalar calls (Mask == 0) never happen.
    auto Call = [&](auto... Xs) {
      if constexpr ((std::is_same_v<decltype(Xs), double> && ...))
        return dual<double, 3>{};
      else
        return dual<double, 3>(Fn(Xs...));
    };
    auto Pick = [&](int K, auto Then) {
      if (Mask & (1u << K))
        return Then(Arg(K));
      return Then(A[K]);
    };
    dual<double, 3> R;
    if constexpr (Arity == 1)
      R = Fn(Arg(0));
    else if constexpr (Arity == 2)
      R = Pick(0, [&](auto X0) {
        return Pick(1, [&](auto X1) { return Call(X0, X1); });
      });
    else
      R = Pick(0, [&](auto X0) {
        return Pick(1, [&](auto X1) {
          return Pick(2, [&](auto X2) { return Call(X0, X1, X2); });
        });
      });
    const std::string What =
        std::string(Name) + " mask " + std::to_string(Mask);
    expectClose(R.val, Y, What + " value");
    for (int K = 0; K < 3; ++K)
      expectClose(R.der[K],
                  K < Arity && (Mask & (1u << K)) ? Partial(K, A, Y) : 0.0,
                  What + " d/d" + std::to_string(K));
  }
}

TEST(DualTest, EveryRuleMatchesRulesHelpers) {
  using namespace grad::rules;
  using Args = std::array<double, 3>;
#define GRAD_RULE1(Name, DX)                                                   \
  checkRow<1>(                                                                 \
      #Name, [](const Args &A) { return Name##_eval(A[0]); },                  \
      [](int, const Args &A, double Y) { return Name##_dx(A[0], Y); },         \
      [](auto X) { return grad::Name(X); });
#define GRAD_RULE2(Name, DA, DB)                                               \
  checkRow<2>(                                                                 \
      #Name, [](const Args &A) { return Name##_eval(A[0], A[1]); },            \
      [](int K, const Args &A, double Y) {                                     \
        return K == 0 ? Name##_da(A[0], A[1], Y) : Name##_db(A[0], A[1], Y);   \
      },                                                                       \
      [](auto X0, auto X1) { return grad::Name(X0, X1); });
#define GRAD_RULE3(Name, DA, DB, DC)                                           \
  checkRow<3>(                                                                 \
      #Name, [](const Args &A) { return Name##_eval(A[0], A[1], A[2]); },      \
      [](int K, const Args &A, double Y) {                                     \
        return K == 0   ? Name##_da(A[0], A[1], A[2], Y)                       \
               : K == 1 ? Name##_db(A[0], A[1], A[2], Y)                       \
                        : Name##_dc(A[0], A[1], A[2], Y);                      \
      },                                                                       \
      [](auto X0, auto X1, auto X2) { return grad::Name(X0, X1, X2); });
#include "grad/rules.def"
}

// GRAD_RULE1X rows: detail::NAME_der gives the derivative part through the
// partial over x alone, equal to the partial through y, and no value.
TEST(DualTest, DerivativeOnlyFormsMatchTheRule) {
  using namespace grad::rules;
  int Rows = 0;
#define GRAD_RULE1(Name, DX)
#define GRAD_RULE2(Name, DA, DB)
#define GRAD_RULE3(Name, DA, DB, DC)
#define GRAD_RULE1X(Name, DX, DXX)                                             \
  ++Rows;                                                                      \
  for (double X0 : Points) {                                                   \
    const auto R = grad::detail::Name##_der(make_dual<2>(X0, 1));              \
    EXPECT_TRUE(std::isnan(R.val)) << #Name;                                   \
    EXPECT_EQ(R.der[0], 0.0) << #Name;                                         \
    expectClose(R.der[1], Name##_dx(X0, Name##_eval(X0)), #Name " at x");      \
    expectClose(R.der[1], grad::Name(make_dual(X0)).der[0], #Name " dual");    \
  }
#include "grad/rules.def"
  EXPECT_GE(Rows, 1);
}

} // namespace
