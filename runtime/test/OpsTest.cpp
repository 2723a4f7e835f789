//===- OpsTest.cpp - map, broadcast, unbroadcast, sum, dot ----------------===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "grad/ops.h"
#include "TestUtil.h"

#include <gtest/gtest.h>

#include <array>
#include <span>
#include <type_traits>
#include <vector>

namespace {

using grad::tensor;
using grad::test::expectInvalid;
using Shape = std::vector<std::size_t>;

/// A tensor of the given shape holding 1, 2, 3, ... times Scale.
tensor<double> iota(Shape S, double Scale = 1) {
  tensor<double> T(std::move(S));
  for (std::size_t I = 0; I < T.size(); ++I)
    T[I] = Scale * static_cast<double>(I + 1);
  return T;
}

//===----------------------------------------------------------------------===//
// map
//===----------------------------------------------------------------------===//

TEST(MapTest, Tensors) {
  const tensor<double> A = iota({2, 3}), B = iota({2, 3}, 10);
  const auto R = grad::map([](double X, double Y) { return X * Y + 1; }, A, B);
  static_assert(std::is_same_v<decltype(R), const tensor<double>>);
  EXPECT_EQ(R.shape(), A.shape());
  for (std::size_t I = 0; I < R.size(); ++I)
    EXPECT_EQ(R[I], A[I] * B[I] + 1);
  // The result type is f's, the arity any.
  const auto Cmp =
      grad::map([](double X, double Y, double Z) { return X + Y > Z; }, A, A,
                iota({2, 3}, 1.5));
  static_assert(std::is_same_v<decltype(Cmp), const tensor<bool>>);
  EXPECT_TRUE(Cmp[0]); // 2 > 1.5
  EXPECT_FALSE(Cmp[1] && !Cmp[1]);
  const auto Ints = grad::map([](double X) { return int(X) * 2; }, A);
  static_assert(std::is_same_v<decltype(Ints), const tensor<int>>);
  EXPECT_EQ(Ints, tensor<int>({2, 3}, {2, 4, 6, 8, 10, 12}));
}

TEST(MapTest, VectorsStayVectors) {
  const std::vector<float> X{1, 2, 3}, Y{4, 5, 6};
  const auto R = grad::map([](float A, float B) { return A - B; }, X, Y);
  static_assert(std::is_same_v<decltype(R), const std::vector<float>>);
  EXPECT_EQ(R, (std::vector<float>{-3, -3, -3}));
  const auto Empty =
      grad::map([](float A) { return double(A); }, std::vector<float>{});
  static_assert(std::is_same_v<decltype(Empty), const std::vector<double>>);
  EXPECT_TRUE(Empty.empty());
}

TEST(MapTest, EmptyTensor) {
  const auto R = grad::map([](double X) { return X; }, tensor<double>({3, 0}));
  EXPECT_EQ(R.shape(), (Shape{3, 0}));
  EXPECT_EQ(R.size(), 0u);
}

TEST(MapTest, MismatchNamesBothShapes) {
  const auto F = [](double A, double B) { return A + B; };
  expectInvalid(
      [&] {
        grad::map(F, iota({2, 3}), iota({3, 2}));
      },
      {"grad::map", "[2, 3]", "[3, 2]"});
  expectInvalid(
      [&] { grad::map(F, std::vector<double>(3), std::vector<double>(4)); },
      {"[3]", "[4]"});
  expectInvalid(
      [&] {
        grad::map([](double, double, double) { return 0; }, iota({2}),
                  iota({2}), iota({5}));
      },
      {"argument 3", "[5]", "[2]"});
}

//===----------------------------------------------------------------------===//
// broadcast, against a reference that indexes every operand from scratch
//===----------------------------------------------------------------------===//

/// The element of X (shape S) that NumPy broadcasting pairs with the result
/// element at multi-index Idx.
double refAt(const tensor<double> &X, const Shape &Idx) {
  const Shape &S = X.shape();
  std::size_t Off = 0;
  for (std::size_t I = 0; I < S.size(); ++I) {
    std::size_t J = Idx[Idx.size() - S.size() + I];
    Off = Off * S[I] + (S[I] == 1 ? 0 : J);
  }
  return X[Off];
}

void checkBroadcast(const Shape &SA, const Shape &SB, const Shape &Want) {
  SCOPED_TRACE(grad::shape_to_string(SA) + " x " + grad::shape_to_string(SB));
  const tensor<double> A = iota(SA), B = iota(SB, 100);
  const auto R =
      grad::broadcast([](double X, double Y) { return X * 1000 + Y; }, A, B);
  ASSERT_EQ(R.shape(), Want);
  Shape Idx(Want.size(), 0);
  for (std::size_t F = 0; F < R.size(); ++F) {
    std::size_t Rest = F;
    for (std::size_t I = Want.size(); I-- > 0;) {
      Idx[I] = Rest % Want[I];
      Rest /= Want[I];
    }
    ASSERT_EQ(R[F], refAt(A, Idx) * 1000 + refAt(B, Idx)) << "element " << F;
  }
}

TEST(BroadcastTest, AgainstReference) {
  checkBroadcast({2, 3}, {2, 3}, {2, 3});
  checkBroadcast({2, 3}, {3}, {2, 3});
  checkBroadcast({2, 1}, {1, 3}, {2, 3});
  checkBroadcast({3, 1, 2}, {4, 1}, {3, 4, 2});
  checkBroadcast({1}, {5}, {5});
  checkBroadcast({}, {2, 2}, {2, 2});
  checkBroadcast({4, 1, 1}, {}, {4, 1, 1});
  checkBroadcast({2, 1, 3, 1}, {5, 1, 4}, {2, 5, 3, 4});
  checkBroadcast({1, 1}, {1}, {1, 1});
  checkBroadcast({0}, {1}, {0});
  checkBroadcast({2, 0}, {2, 1}, {2, 0});
}

TEST(BroadcastTest, ScalarsAndVectors) {
  const std::vector<double> V{1, 2, 3};
  const auto R = grad::broadcast([](double X, int K) { return X * K; }, V, 2);
  static_assert(std::is_same_v<decltype(R), const tensor<double>>);
  EXPECT_EQ(R, tensor<double>({3}, {2, 4, 6}));
  // A vector is 1-d: it broadcasts against the last axis.
  const auto M = grad::broadcast([](double X, double Y) { return X + Y; },
                                 iota({2, 1}, 10), V);
  EXPECT_EQ(M, tensor<double>({2, 3}, {11, 12, 13, 21, 22, 23}));
  // Only scalars: the result is f's result itself.
  const auto S =
      grad::broadcast([](double X, double Y) { return X / Y; }, 3.0, 4.0);
  static_assert(std::is_same_v<decltype(S), const double>);
  EXPECT_EQ(S, 0.75);
  // Three operands, a rank-0 tensor among them.
  const auto T = grad::broadcast(
      [](double X, double Y, float Z) { return X - Y + Z; },
      tensor<double>({}, 100.0), V, tensor<float>({2, 1}, {0.5f, 1.5f}));
  EXPECT_EQ(T, tensor<double>({2, 3}, {99.5, 98.5, 97.5, 100.5, 99.5, 98.5}));
}

TEST(BroadcastTest, MismatchNamesBothShapes) {
  const auto F = [](double A, double B) { return A + B; };
  expectInvalid(
      [&] {
        grad::broadcast(F, iota({2, 3}), iota({4}));
      },
      {"grad::broadcast", "[2, 3]", "[4]"});
  expectInvalid(
      [&] {
        grad::broadcast(F, iota({2, 1}), iota({3, 2}));
      },
      {"[2, 1]", "[3, 2]"});
  expectInvalid([&] { grad::broadcast(F, std::vector<double>(3), iota({0})); },
                {"[3]", "[0]"});
}

//===----------------------------------------------------------------------===//
// unbroadcast: the adjoint of broadcasting, <broadcast(x), dy> ==
// <x, unbroadcast(dy)>
//===----------------------------------------------------------------------===//

TEST(UnbroadcastTest, Sums) {
  const tensor<double> DY = iota({2, 3}); // 1 2 3 / 4 5 6
  EXPECT_EQ(grad::unbroadcast(DY, {3}), tensor<double>({3}, {5, 7, 9}));
  EXPECT_EQ(grad::unbroadcast(DY, {2, 1}), tensor<double>({2, 1}, {6, 15}));
  EXPECT_EQ(grad::unbroadcast(DY, {1, 3}), tensor<double>({1, 3}, {5, 7, 9}));
  EXPECT_EQ(grad::unbroadcast(DY, {1, 1}), tensor<double>({1, 1}, 21.0));
  EXPECT_EQ(grad::unbroadcast(DY, {}), tensor<double>({}, 21.0));
  EXPECT_EQ(grad::unbroadcast(DY, {2, 3}), DY);
  EXPECT_EQ(grad::unbroadcast(tensor<double>({2, 0}), {1}),
            tensor<double>({1}, 0.0));
}

TEST(UnbroadcastTest, IsTheAdjointOfBroadcast) {
  const std::vector<std::pair<Shape, Shape>> Cases = {
      {{3}, {2, 3}},       {{2, 1}, {2, 3}},          {{}, {4}},
      {{4, 1}, {3, 4, 2}}, {{5, 1, 4}, {2, 5, 3, 4}}, {{1, 1}, {1, 1}}};
  for (const auto &[X, Y] : Cases) {
    SCOPED_TRACE(grad::shape_to_string(X) + " -> " + grad::shape_to_string(Y));
    const tensor<double> TX = iota(X, 0.5), DY = iota(Y, 0.25);
    const auto BX = grad::broadcast([](double A, double) { return A; }, TX, DY);
    const tensor<double> G = grad::unbroadcast(DY, X);
    ASSERT_EQ(G.shape(), X);
    EXPECT_DOUBLE_EQ(grad::dot(BX, DY), grad::dot(TX, G));
  }
}

TEST(UnbroadcastTest, RejectsIncompatibleTarget) {
  expectInvalid(
      [] {
        grad::unbroadcast(iota({2, 3}), {2});
      },
      {"grad::unbroadcast", "[2]", "[2, 3]"});
  expectInvalid(
      [] {
        grad::unbroadcast(iota({3}), {2, 3});
      },
      {"[2, 3]", "[3]"});
}

TEST(UnbroadcastTest, AddIntoAdjoints) {
  const tensor<double> DY = iota({2, 3});
  double DS = 1;
  grad::unbroadcast_add(DY, &DS);
  EXPECT_EQ(DS, 22);
  std::vector<double> DV{1, 1, 1};
  grad::unbroadcast_add(DY, &DV);
  EXPECT_EQ(DV, (std::vector<double>{6, 8, 10}));
  tensor<float> DT({2, 1}, 1.0f);
  grad::unbroadcast_add(DY, &DT);
  EXPECT_EQ(DT, tensor<float>({2, 1}, {7, 16}));
}

//===----------------------------------------------------------------------===//
// sum, dot and their pullbacks
//===----------------------------------------------------------------------===//

TEST(ReduceTest, Sum) {
  EXPECT_EQ(grad::sum(iota({2, 3})), 21.0);
  EXPECT_EQ(grad::sum(std::vector<float>{1.5f, 2.5f}), 4.0f);
  EXPECT_EQ(grad::sum(std::array<int, 3>{1, 2, 3}), 6);
  const double Raw[] = {1, 2, 3, 4};
  EXPECT_EQ(grad::sum(std::span<const double>(Raw)), 10.0);
  EXPECT_EQ(grad::sum(std::span<const double, 4>(Raw)), 10.0);
  EXPECT_EQ(grad::sum(std::vector<double>{}), 0.0);
  EXPECT_EQ(grad::sum(tensor<double>({0, 4})), 0.0);
}

TEST(ReduceTest, Dot) {
  EXPECT_EQ(grad::dot(iota({2, 2}), iota({2, 2}, 2)), 60.0);
  EXPECT_EQ(grad::dot(std::vector<double>{1, 2}, std::vector<double>{3, 4}),
            11.0);
  EXPECT_EQ(grad::dot(std::array<float, 2>{1, 2}, std::array<float, 2>{3, 4}),
            11.0f);
  const double Raw[] = {1, 2, 3};
  EXPECT_EQ(grad::dot(std::span<const double>(Raw), std::vector<double>(3, 2)),
            12.0);
  const auto Mixed = grad::dot(tensor<float>({2}, 0.5f), iota({2}));
  static_assert(std::is_same_v<decltype(Mixed), const double>);
  EXPECT_EQ(Mixed, 1.5);
  expectInvalid(
      [] {
        grad::dot(iota({2, 3}), iota({3, 2}));
      },
      {"grad::dot", "[2, 3]", "[3, 2]"});
  expectInvalid(
      [] { grad::dot(std::vector<double>(2), std::vector<double>(3)); },
      {"[2]", "[3]"});
}

TEST(ReduceTest, SumPullbackAccumulates) {
  const tensor<double> X = iota({2, 2});
  tensor<double> DX({2, 2}, 1.0);
  grad::sum_pullback(X, 2.5, &DX);
  EXPECT_EQ(DX, tensor<double>({2, 2}, 3.5));

  const std::vector<float> V{1, 2, 3};
  std::vector<float> DV{0, 1, 2};
  grad::sum_pullback(V, 0.5f, &DV);
  EXPECT_EQ(DV, (std::vector<float>{0.5f, 1.5f, 2.5f}));

  const double Raw[] = {1, 2};
  double DRaw[] = {0, 0};
  std::span<double> DSpan(DRaw);
  grad::sum_pullback(std::span<const double>(Raw), 2.0, &DSpan);
  EXPECT_EQ(DRaw[0], 2.0);
  EXPECT_EQ(DRaw[1], 2.0);

  std::vector<float> Wrong(2);
  expectInvalid([&] { grad::sum_pullback(V, 1.0f, &Wrong); },
                {"grad::sum_pullback", "[3]", "[2]"});
}

TEST(ReduceTest, DotPullbackAccumulates) {
  const tensor<double> X({3}, {1, 2, 3}), Y({3}, {4, 5, 6});
  tensor<double> DX({3}, 1.0), DY({3}, -1.0);
  grad::dot_pullback(X, Y, 2.0, &DX, &DY);
  EXPECT_EQ(DX, tensor<double>({3}, {9, 11, 13}));
  EXPECT_EQ(DY, tensor<double>({3}, {1, 3, 5}));

  const std::vector<double> A{1, -1}, B{0.5, 2};
  std::vector<double> DA(2), DB(2);
  grad::dot_pullback(A, B, 1.0, &DA, &DB);
  grad::dot_pullback(A, B, 1.0, &DA, &DB); // twice: accumulates
  EXPECT_EQ(DA, (std::vector<double>{1, 4}));
  EXPECT_EQ(DB, (std::vector<double>{2, -2}));

  std::vector<double> Short(1);
  expectInvalid([&] { grad::dot_pullback(A, B, 1.0, &Short, &DB); },
                {"[2]", "[1]"});
  expectInvalid(
      [&] { grad::dot_pullback(A, std::vector<double>(3), 1.0, &DA, &DB); },
      {"[2]", "[3]"});
}

} // namespace
