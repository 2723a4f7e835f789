//===- StackTest.cpp - the per-thread stack of generated code -------------===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "grad/core.h"
#include "grad/tensor.h"

#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <type_traits>
#include <thread>
#include <vector>

namespace {

using grad::detail::stack;
using grad::detail::stack_mark;
using grad::detail::thread_stack;

TEST(StackTest, LastInFirstOutAcrossTypes) {
  stack S;
  S.push(1.5);
  S.push(true);
  S.push(std::size_t{7});
  S.push(2.5f);
  S.push(static_cast<double *>(nullptr));
  double Any = 0;
  double *P = &Any;
  S.pop(P);
  EXPECT_EQ(P, nullptr);
  float F = 0;
  S.pop(F);
  EXPECT_EQ(F, 2.5f);
  std::size_t N = 0;
  S.pop(N);
  EXPECT_EQ(N, 7u);
  bool B = false;
  S.pop(B);
  EXPECT_TRUE(B);
  double D = 0;
  S.pop(D);
  EXPECT_EQ(D, 1.5);
  EXPECT_TRUE(S.empty());
}

// A vector keeps its own size: values of different lengths (odd byte
// counts too) come back in order, around scalars.
TEST(StackTest, VectorsComeBackWithTheirSizes) {
  stack S;
  S.push(std::vector<double>{1, 2, 3});
  S.push(0.5);
  S.push(std::vector<float>{4, 5, 6});
  S.push(std::vector<double>{});
  S.push(std::vector<char>{'a'});
  std::vector<char> C{'x', 'y'};
  S.pop(C);
  EXPECT_EQ(C, std::vector<char>{'a'});
  std::vector<double> E{9, 9};
  S.pop(E);
  EXPECT_TRUE(E.empty());
  std::vector<float> F;
  S.pop(F);
  EXPECT_EQ(F, (std::vector<float>{4, 5, 6}));
  double H = 0;
  S.pop(H);
  EXPECT_EQ(H, 0.5);
  std::vector<double> D(7, 1.0);
  S.pop(D);
  EXPECT_EQ(D, (std::vector<double>{1, 2, 3}));
  EXPECT_TRUE(S.empty());
}

// A tensor comes back with its shape and elements.
TEST(StackTest, TensorsComeBackWithTheirShapes) {
  stack S;
  grad::tensor<double> A({2, 3});
  for (std::size_t I = 0; I < A.size(); ++I)
    A[I] = 0.5 * double(I);
  S.push(A);
  S.push(1.25);
  S.push(grad::tensor<float>({1}, 7.0f));
  grad::tensor<float> F;
  S.pop(F);
  EXPECT_EQ(F, grad::tensor<float>({1}, 7.0f));
  double H = 0;
  S.pop(H);
  EXPECT_EQ(H, 1.25);
  grad::tensor<double> B({5}, 9.0);
  S.pop(B);
  EXPECT_EQ(B, A);
  EXPECT_TRUE(S.empty());
}

TEST(StackTest, FramesPopInTheOrderTheyWerePushed) {
  stack S;
  S.push_all(1.0, 2, 3.0f);
  S.push_all(4.0);
  double D4 = 0;
  S.pop_all(D4);
  double D1 = 0;
  int I2 = 0;
  float F3 = 0;
  S.pop_all(D1, I2, F3);
  EXPECT_EQ(D4, 4.0);
  EXPECT_EQ(D1, 1.0);
  EXPECT_EQ(I2, 2);
  EXPECT_EQ(F3, 3.0f);
  EXPECT_TRUE(S.empty());
}

// push_all checks for room once for the whole frame: a frame larger than
// what is left (and than the first block) makes the stack grow, and single
// pushes and pops interleave with frames in LIFO order.
TEST(StackTest, FramesGrowTheStackAndMixWithSinglePushes) {
  struct Pair {
    double A, B;
  };
  stack S;
  for (int I = 0; I < 300; ++I) {
    S.push(static_cast<double>(I));
    S.push_all(Pair{1.0 * I, -1.0 * I}, I % 2 == 0, 0.5 * I,
               static_cast<unsigned long>(I), Pair{2.0, 3.0}, 7.0F);
  }
  EXPECT_GE(S.capacity(), S.size());
  for (int I = 299; I >= 0; --I) {
    Pair P{}, Q{};
    bool Even = false;
    double H = 0;
    unsigned long U = 0;
    float F = 0;
    S.pop_all(P, Even, H, U, Q, F);
    EXPECT_EQ(P.A, 1.0 * I);
    EXPECT_EQ(P.B, -1.0 * I);
    EXPECT_EQ(Even, I % 2 == 0);
    EXPECT_EQ(H, 0.5 * I);
    EXPECT_EQ(U, static_cast<unsigned long>(I));
    EXPECT_EQ(Q.B, 3.0);
    EXPECT_EQ(F, 7.0F);
    double D = -1;
    S.pop(D);
    EXPECT_EQ(D, static_cast<double>(I));
  }
  EXPECT_TRUE(S.empty());
}

TEST(StackTest, SteadyStateAllocatesNothing) {
  stack S;
  auto Fill = [&] {
    for (int I = 0; I < 100000; ++I)
      S.push(double(I));
    double V = 0, Sum = 0;
    for (int I = 0; I < 100000; ++I) {
      S.pop(V);
      Sum += V;
    }
    return Sum;
  };
  EXPECT_EQ(Fill(), 4999950000.0);
  std::size_t After = S.allocations();
  EXPECT_GT(After, 0u);
  for (int K = 0; K < 5; ++K)
    EXPECT_EQ(Fill(), 4999950000.0);
  EXPECT_EQ(S.allocations(), After);
}

TEST(StackTest, MarkRestoresTheTop) {
  stack S;
  S.push(1.0);
  {
    stack_mark M(S);
    S.push(2.0);
    S.push(3.0);
  }
  EXPECT_EQ(S.size(), stack::slot<double>());
  double V = 0;
  S.pop(V);
  EXPECT_EQ(V, 1.0);
}

TEST(StackTest, MarkRestoresOnException) {
  stack S;
  try {
    stack_mark M(S);
    S.push(2.0);
    throw 1;
  } catch (int) {
  }
  EXPECT_TRUE(S.empty());
}

TEST(StackTest, LargeBlocksAreGivenBackWhenEmpty) {
  stack S;
  {
    stack_mark M(S);
    const std::size_t N = stack::keep_bytes / 8 + 1024;
    for (std::size_t I = 0; I < N; ++I)
      S.push(1.0);
    EXPECT_GT(S.capacity(), stack::keep_bytes);
  }
  EXPECT_EQ(S.capacity(), 0u);
}

// A struct of numbers with a destructor that does nothing: taped as bytes,
// zeroed bytewise.
struct Box {
  double V;
  int N;
  ~Box() {}
};

TEST(StackTest, BytesOfValuesWithDestructors) {
  static_assert(!std::is_trivially_copyable_v<Box>);
  stack S;
  S.push(Box{1.5, 3});
  S.push(2.0);
  S.push(Box{-4.0, 7});
  Box B{0, 0};
  double D = 0;
  S.pop(B);
  EXPECT_EQ(B.V, -4.0);
  EXPECT_EQ(B.N, 7);
  S.pop(D);
  EXPECT_EQ(D, 2.0);
  S.pop(B);
  EXPECT_EQ(B.V, 1.5);
  EXPECT_EQ(B.N, 3);
  EXPECT_EQ(S.size(), 0u);
  grad::detail::zero(B);
  EXPECT_EQ(B.V, 0.0);
  EXPECT_EQ(B.N, 0);
}

// Objects kept per call (`m.scale(s)` on a class owning its elements): last
// kept, first taken back, whole.
TEST(StackTest, KeptObjectsLastInFirstOut) {
  std::vector<double> A{1, 2, 3}, B{4, 5};
  grad::detail::keep(A);
  grad::detail::keep(B);
  A[0] = 10; // the copies do not follow the originals
  std::vector<double> TB = grad::detail::kept<std::vector<double>>();
  std::vector<double> TA = grad::detail::kept<std::vector<double>>();
  EXPECT_EQ(TB, (std::vector<double>{4, 5}));
  EXPECT_EQ(TA, (std::vector<double>{1, 2, 3}));
}

// The adjoint of a temporary container argument: shaped like it, zero.
TEST(StackTest, ZeroLike) {
  std::vector<std::vector<double>> M{{1, 2}, {3, 4, 5}};
  auto Z = grad::detail::zero_like(M);
  ASSERT_EQ(Z.size(), 2u);
  EXPECT_EQ(Z[0], (std::vector<double>{0, 0}));
  EXPECT_EQ(Z[1], (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(M[1][2], 5.0);
  std::array<double, 3> Arr{1, 2, 3};
  EXPECT_EQ(grad::detail::zero_like(Arr), (std::array<double, 3>{0, 0, 0}));
}

TEST(StackTest, OneStackPerThread) {
  stack *Main = &thread_stack();
  stack *Other = nullptr;
  std::thread T([&] { Other = &thread_stack(); });
  T.join();
  EXPECT_NE(Main, Other);
  EXPECT_EQ(Main, &thread_stack());
}

} // namespace
