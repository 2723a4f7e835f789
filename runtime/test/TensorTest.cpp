//===- TensorTest.cpp - tensor<T>, zeros_like, shape_to_string ------------===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "grad/tensor.h"
#include "TestUtil.h"

#include <gtest/gtest.h>

#include <array>
#include <numeric>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using grad::tensor;

using grad::test::expectInvalid;

TEST(TensorTest, FillConstructor) {
  const tensor<double> T({2, 3}, 1.5);
  EXPECT_EQ(T.shape(), (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(T.rank(), 2u);
  EXPECT_EQ(T.size(), 6u);
  for (double V : T)
    EXPECT_EQ(V, 1.5);
  const tensor<int> Z({4});
  EXPECT_EQ(std::accumulate(Z.begin(), Z.end(), 0), 0);
}

TEST(TensorTest, DataConstructorAndMismatch) {
  const tensor<int> T({2, 3}, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(T[4], 5);
  EXPECT_EQ(T.data()[5], 6);
  expectInvalid(
      [] {
        tensor<int>({2, 3}, std::vector<int>{1, 2, 3, 4, 5});
      },
      {"[2, 3]", "6", "5"});
}

TEST(TensorTest, RowMajorIndexing) {
  tensor<int> T({2, 3, 4});
  for (std::size_t I = 0; I < 2; ++I)
    for (std::size_t J = 0; J < 3; ++J)
      for (std::size_t K = 0; K < 4; ++K)
        T(I, J, K) = static_cast<int>(100 * I + 10 * J + K);
  for (std::size_t F = 0; F < T.size(); ++F)
    EXPECT_EQ(T[F],
              static_cast<int>(100 * (F / 12) + 10 * (F / 4 % 3) + F % 4));
  const tensor<int> &C = T;
  EXPECT_EQ(C(1, 2, 3), 123);
  EXPECT_EQ(C(0, 1, 2), 12);
  EXPECT_EQ(C(1u, 0, 0L), 100); // any integral index types
}

TEST(TensorTest, RankZeroAndEmpty) {
  tensor<double> S({}, 4.0);
  EXPECT_EQ(S.rank(), 0u);
  EXPECT_EQ(S.size(), 1u);
  EXPECT_EQ(S(), 4.0);
  S() = 5.0;
  EXPECT_EQ(S[0], 5.0);

  const tensor<double> E({0, 3});
  EXPECT_EQ(E.size(), 0u);
  EXPECT_TRUE(E.empty());
  EXPECT_EQ(E.begin(), E.end());

  const tensor<float> D;
  EXPECT_EQ(D.shape(), (std::vector<std::size_t>{0}));
  EXPECT_EQ(D.size(), 0u);
}

TEST(TensorTest, Equality) {
  const tensor<int> A({2, 3}, {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(A, tensor<int>({2, 3}, {1, 2, 3, 4, 5, 6}));
  EXPECT_NE(A, tensor<int>({3, 2}, {1, 2, 3, 4, 5, 6}));
  EXPECT_NE(A, tensor<int>({2, 3}, {1, 2, 3, 4, 5, 7}));
}

TEST(TensorTest, CompoundAssignment) {
  tensor<double> A({2, 2}, {1, 2, 3, 4});
  A += tensor<double>({2, 2}, {10, 20, 30, 40});
  EXPECT_EQ(A, tensor<double>({2, 2}, {11, 22, 33, 44}));
  A -= tensor<double>({2, 2}, 1.0);
  A *= 2.0;
  EXPECT_EQ(A, tensor<double>({2, 2}, {20, 42, 64, 86}));
  expectInvalid([&] { A += tensor<double>({4}); }, {"[2, 2]", "[4]"});
}

TEST(TensorTest, ZerosLike) {
  const auto T = grad::zeros_like(tensor<float>({3, 1}, 7.0f));
  static_assert(std::is_same_v<decltype(T), const tensor<float>>);
  EXPECT_EQ(T, tensor<float>({3, 1}, 0.0f));
  const auto V = grad::zeros_like(std::vector<double>{1, 2, 3});
  EXPECT_EQ(V, (std::vector<double>{0, 0, 0}));
  const auto A = grad::zeros_like(std::array<double, 2>{5, 6});
  EXPECT_EQ(A, (std::array<double, 2>{0, 0}));
  EXPECT_EQ(grad::zeros_like(3.5), 0.0);
  static_assert(std::is_same_v<decltype(grad::zeros_like(1.0f)), float>);
}

TEST(TensorTest, ShapeToString) {
  EXPECT_EQ(grad::shape_to_string({2, 3}), "[2, 3]");
  EXPECT_EQ(grad::shape_to_string({7}), "[7]");
  EXPECT_EQ(grad::shape_to_string({}), "[]");
  EXPECT_EQ(grad::shape_to_string({0, 18446744073709551615ULL}),
            "[0, 18446744073709551615]");
}

// The runtime formats its messages without <string>: exact text, and a
// message longer than its 511 characters ends in "...".
TEST(TensorTest, ErrorMessages) {
  try {
    tensor<double> A({2, 3}, 0.0);
    A += tensor<double>({3, 2}, 0.0);
    ADD_FAILURE() << "no std::invalid_argument thrown";
  } catch (const std::invalid_argument &E) {
    EXPECT_STREQ(E.what(), "grad::tensor +=: shape mismatch [2, 3] vs [3, 2]");
  }
  std::vector<std::size_t> Long(200, 1);
  try {
    tensor<double>(Long, std::vector<double>{1, 2});
    ADD_FAILURE() << "no std::invalid_argument thrown";
  } catch (const std::invalid_argument &E) {
    const std::string M = E.what();
    EXPECT_EQ(M.size(), 511u);
    EXPECT_EQ(M.substr(0, 28), "grad::tensor: shape [1, 1, 1");
    EXPECT_EQ(M.substr(508), "...");
  }
}

} // namespace
