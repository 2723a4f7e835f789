//===- TapeTest.cpp - tape<T> order, chunking and reuse -------------------===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "grad/tape.h"

#include <gtest/gtest.h>

#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using grad::tape;

static_assert(!std::is_copy_constructible_v<tape<double>>);
static_assert(!std::is_copy_assignable_v<tape<double>>);
static_assert(std::is_nothrow_move_constructible_v<tape<double>>);
static_assert(std::is_nothrow_move_assignable_v<tape<double>>);

TEST(TapeTest, EmptyTapeAllocatesNothing) {
  tape<double> T;
  EXPECT_TRUE(T.empty());
  EXPECT_EQ(T.size(), 0u);
  EXPECT_EQ(T.block_count(), 0u);
  EXPECT_EQ(T.capacity(), 0u);
}

TEST(TapeTest, LifoOrderAcrossManyBlocks) {
  tape<long> T;
  constexpr long N = 200000;
  for (long I = 0; I < N; ++I) {
    T.push(I * 3);
    ASSERT_EQ(T.back(), I * 3);
  }
  EXPECT_EQ(T.size(), static_cast<std::size_t>(N));
  EXPECT_GT(T.block_count(), 10u);
  EXPECT_GE(T.capacity(), T.size());
  for (long I = N - 1; I >= 0; --I) {
    ASSERT_EQ(T.size(), static_cast<std::size_t>(I + 1));
    ASSERT_EQ(T.back(), I * 3);
    ASSERT_EQ(T.pop(), I * 3);
  }
  EXPECT_TRUE(T.empty());
}

TEST(TapeTest, NoAllocationAfterWarmUp) {
  tape<double> T;
  constexpr int N = 50000;
  for (int I = 0; I < N; ++I)
    T.push(I);
  while (!T.empty())
    T.pop();
  const std::size_t Blocks = T.block_count(), Capacity = T.capacity();
  ASSERT_GT(Blocks, 3u);
  for (int Round = 0; Round < 5; ++Round) {
    // Fill to the high-water mark in a ragged pattern that crosses block
    // boundaries in both directions.
    for (int I = 0; I < N; ++I) {
      T.push(I + Round);
      if (I % 7 == 3) {
        T.push(-1);
        ASSERT_EQ(T.pop(), -1);
      }
    }
    ASSERT_EQ(T.size(), static_cast<std::size_t>(N));
    for (int I = N - 1; I >= 0; --I)
      ASSERT_EQ(T.pop(), I + Round);
    EXPECT_EQ(T.block_count(), Blocks);
    EXPECT_EQ(T.capacity(), Capacity);
  }
}

TEST(TapeTest, OscillatingAtABlockBoundaryKeepsBlocks) {
  tape<int> T;
  T.push(0);
  const std::size_t First = T.capacity();
  for (std::size_t I = 1; I < First; ++I)
    T.push(static_cast<int>(I));
  EXPECT_EQ(T.block_count(), 1u);
  for (int I = 0; I < 1000; ++I) {
    T.push(7);
    EXPECT_EQ(T.pop(), 7);
    EXPECT_EQ(T.back(), static_cast<int>(First - 1));
  }
  EXPECT_EQ(T.block_count(), 2u);
}

TEST(TapeTest, ReferencesStayValidWhileGrowing) {
  tape<double> T;
  T.push(1.5);
  double *First = &T.back();
  std::vector<double *> Addresses;
  for (int I = 0; I < 100000; ++I) {
    T.push(I);
    if (I % 1000 == 0)
      Addresses.push_back(&T.back());
  }
  EXPECT_EQ(*First, 1.5);
  for (std::size_t K = 0; K < Addresses.size(); ++K)
    EXPECT_EQ(*Addresses[K], static_cast<double>(K * 1000));
}

TEST(TapeTest, ClearKeepsBlocks) {
  tape<int> T;
  for (int I = 0; I < 10000; ++I)
    T.push(I);
  const std::size_t Blocks = T.block_count();
  T.clear();
  EXPECT_TRUE(T.empty());
  EXPECT_EQ(T.block_count(), Blocks);
  for (int I = 0; I < 10000; ++I)
    T.push(-I);
  EXPECT_EQ(T.block_count(), Blocks);
  EXPECT_EQ(T.back(), -9999);
  EXPECT_EQ(T.size(), 10000u);
}

TEST(TapeTest, BoolDecisions) {
  tape<bool> T;
  for (int I = 0; I < 5000; ++I)
    T.push(I % 3 == 0);
  for (int I = 4999; I >= 0; --I)
    ASSERT_EQ(T.pop(), I % 3 == 0);
}

TEST(TapeTest, MoveTransfersContents) {
  tape<int> A;
  for (int I = 0; I < 3000; ++I)
    A.push(I);
  tape<int> B = std::move(A);
  EXPECT_EQ(B.size(), 3000u);
  EXPECT_EQ(B.back(), 2999);
  EXPECT_TRUE(A.empty()); // NOLINT(bugprone-use-after-move): documented
  EXPECT_EQ(A.block_count(), 0u);
  A.push(42); // a moved-from tape is usable
  EXPECT_EQ(A.pop(), 42);
  tape<int> C;
  C.push(1);
  C = std::move(B);
  EXPECT_EQ(C.size(), 3000u);
  for (int I = 2999; I >= 0; --I)
    ASSERT_EQ(C.pop(), I);
}

// Counts live objects to check that the tape constructs and destroys
// exactly what it holds.
struct Tracked {
  static int Live;
  std::string S;
  explicit Tracked(std::string V) : S(std::move(V)) { ++Live; }
  Tracked(const Tracked &O) : S(O.S) { ++Live; }
  Tracked(Tracked &&O) noexcept : S(std::move(O.S)) { ++Live; }
  ~Tracked() { --Live; }
};
int Tracked::Live = 0;

TEST(TapeTest, NonTrivialElements) {
  {
    tape<Tracked> T;
    for (int I = 0; I < 2000; ++I)
      T.emplace("value number " + std::to_string(I));
    EXPECT_EQ(Tracked::Live, 2000);
    for (int I = 1999; I >= 1000; --I)
      ASSERT_EQ(T.pop().S, "value number " + std::to_string(I));
    EXPECT_EQ(Tracked::Live, 1000);
    const Tracked Copy("copied");
    T.push(Copy);
    EXPECT_EQ(T.back().S, "copied");
    T.clear();
    EXPECT_EQ(Tracked::Live, 1); // Copy
    for (int I = 0; I < 500; ++I)
      T.push(Tracked("again"));
  } // the destructor destroys the 500 left on the tape
  EXPECT_EQ(Tracked::Live, 0);
}

} // namespace
