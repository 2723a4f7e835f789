//===- MatmulTest.cpp - BLAS matmul and matmul_pullback -------------------===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

// The runtime declares its own CBLAS prototypes; including the real header
// in the same translation unit must still compile.
#if __has_include(<cblas.h>)
#include <cblas.h>
#endif

#include "TestUtil.h"
#include "grad/matmul.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

namespace {

using grad::tensor;
using grad::test::expectInvalid;
using Shape = std::vector<std::size_t>;

/// Deterministic pseudo-random values in [-1, 1].
template <class T>
tensor<T> random(std::size_t R, std::size_t C, unsigned Seed) {
  tensor<T> M({R, C});
  unsigned S = Seed * 2654435761u + 1;
  for (T &V : M) {
    S = S * 1664525u + 1013904223u;
    V = static_cast<T>((S >> 8) % 2001) / T(1000) - T(1);
  }
  return M;
}

/// op(A) * op(B) in long double by the definition.
template <class TA, class TB>
tensor<long double> naive(const tensor<TA> &A, bool TransA, const tensor<TB> &B,
                          bool TransB) {
  const std::size_t M = A.shape()[TransA ? 1 : 0],
                    K = A.shape()[TransA ? 0 : 1];
  const std::size_t N = B.shape()[TransB ? 0 : 1];
  tensor<long double> C({M, N});
  for (std::size_t I = 0; I < M; ++I)
    for (std::size_t J = 0; J < N; ++J)
      for (std::size_t L = 0; L < K; ++L)
        C(I, J) += static_cast<long double>(TransA ? A(L, I) : A(I, L)) *
                   static_cast<long double>(TransB ? B(J, L) : B(L, J));
  return C;
}

template <class T, class R>
void expectNear(const tensor<T> &Got, const tensor<R> &Want, double Tol) {
  ASSERT_EQ(Got.shape(), Want.shape());
  for (std::size_t I = 0; I < Got.size(); ++I)
    EXPECT_NEAR(static_cast<double>(Got[I]), static_cast<double>(Want[I]), Tol)
        << "element " << I;
}

template <class T> constexpr double tolFor() {
  return std::is_same_v<T, float> ? 1e-5 : 1e-13;
}

template <class T> class MatmulTest : public ::testing::Test {};
using BlasTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(MatmulTest, BlasTypes);

TYPED_TEST(MatmulTest, MatchesNaive) {
  using T = TypeParam;
  const std::size_t Dims[][3] = {
      {3, 4, 5}, {1, 7, 1}, {6, 1, 2}, {17, 9, 13}, {2, 2, 2}};
  unsigned Seed = 1;
  for (const auto &D : Dims) {
    const tensor<T> A = random<T>(D[0], D[1], Seed++),
                    B = random<T>(D[1], D[2], Seed++);
    const auto C = grad::matmul(A, B);
    static_assert(std::is_same_v<decltype(C), const tensor<T>>);
    expectNear(C, naive(A, false, B, false), tolFor<T>());
  }
}

TYPED_TEST(MatmulTest, PullbackAccumulatesAgainstNaive) {
  using T = TypeParam;
  const tensor<T> A = random<T>(4, 3, 7), B = random<T>(3, 5, 8),
                  DC = random<T>(4, 5, 9);
  tensor<T> DA = random<T>(4, 3, 10), DB = random<T>(3, 5, 11);
  const tensor<T> DA0 = DA, DB0 = DB;
  grad::matmul_pullback(A, B, DC, &DA, &DB);
  tensor<long double> WantA = naive(DC, false, B, true),
                      WantB = naive(A, true, DC, false);
  for (std::size_t I = 0; I < WantA.size(); ++I)
    WantA[I] += DA0[I];
  for (std::size_t I = 0; I < WantB.size(); ++I)
    WantB[I] += DB0[I];
  expectNear(DA, WantA, tolFor<T>());
  expectNear(DB, WantB, tolFor<T>());
}

TYPED_TEST(MatmulTest, EmptyExtents) {
  using T = TypeParam;
  EXPECT_EQ(grad::matmul(tensor<T>({0, 3}), tensor<T>({3, 4})),
            tensor<T>({0, 4}));
  EXPECT_EQ(grad::matmul(tensor<T>({2, 0}), tensor<T>({0, 4})),
            tensor<T>({2, 4}, T(0)));
  EXPECT_EQ(grad::matmul(tensor<T>({2, 3}, T(1)), tensor<T>({3, 0})),
            tensor<T>({2, 0}));
  // Pullbacks with an empty extent leave the other adjoint untouched.
  tensor<T> DA({2, 0}), DB({0, 4});
  grad::matmul_pullback(tensor<T>({2, 0}), tensor<T>({0, 4}),
                        tensor<T>({2, 4}, T(1)), &DA, &DB);
  tensor<T> DA2({0, 3}), DB2({3, 4}, T(5));
  grad::matmul_pullback(tensor<T>({0, 3}), tensor<T>({3, 4}, T(1)),
                        tensor<T>({0, 4}), &DA2, &DB2);
  EXPECT_EQ(DB2, tensor<T>({3, 4}, T(5)));
}

TEST(MatmulMixedTest, ConvertsOnceAndUsesDouble) {
  const tensor<float> A = random<float>(5, 4, 3);
  const tensor<double> B = random<double>(4, 6, 4);
  const auto C = grad::matmul(A, B);
  static_assert(std::is_same_v<decltype(C), const tensor<double>>);
  const tensor<double> AD(A.shape(), std::vector<double>(A.begin(), A.end()));
  // Same as converting A by hand: dgemm, not float arithmetic.
  EXPECT_EQ(C, grad::matmul(AD, B));
  expectNear(C, naive(A, false, B, false), 1e-13);
  const tensor<double> L = random<double>(2, 5, 5); // double x float
  const auto C2 = grad::matmul(L, A);
  static_assert(std::is_same_v<decltype(C2), const tensor<double>>);
  expectNear(C2, naive(L, false, A, false), 1e-13);
}

TEST(MatmulMixedTest, Pullback) {
  const tensor<float> A = random<float>(3, 2, 12);
  const tensor<double> B = random<double>(2, 4, 13),
                       DC = random<double>(3, 4, 14);
  tensor<float> DA({3, 2}, 1.0f);
  tensor<double> DB({2, 4}, -1.0);
  grad::matmul_pullback(A, B, DC, &DA, &DB);
  tensor<long double> WantA = naive(DC, false, B, true),
                      WantB = naive(A, true, DC, false);
  for (auto &V : WantA)
    V += 1;
  for (auto &V : WantB)
    V -= 1;
  expectNear(DA, WantA, 1e-6); // accumulated in double, stored as float
  expectNear(DB, WantB, 1e-13);
}

TEST(MatmulErrorTest, ShapeMismatchNamesBothShapes) {
  expectInvalid(
      [] {
        grad::matmul(tensor<double>({2, 3}), tensor<double>({4, 2}));
      },
      {"grad::matmul", "[2, 3]", "[4, 2]"});
  expectInvalid(
      [] {
        grad::matmul(tensor<float>({3}), tensor<float>({3, 1}));
      },
      {"[3]", "[3, 1]"});
  tensor<double> DA({2, 3}), DB({3, 2}), Bad({3, 3});
  const tensor<double> A({2, 3}), B({3, 2});
  expectInvalid(
      [&] {
        grad::matmul_pullback(A, B, tensor<double>({2, 3}), &DA, &DB);
      },
      {"grad::matmul_pullback", "[2, 3]", "[2, 2]"});
  expectInvalid(
      [&] {
        grad::matmul_pullback(A, B, tensor<double>({2, 2}), &Bad, &DB);
      },
      {"[2, 3]", "[3, 3]"});
  expectInvalid(
      [&] {
        grad::matmul_pullback(A, B, tensor<double>({2, 2}), &DA, &Bad);
      },
      {"[3, 2]", "[3, 3]"});
}

} // namespace
