//===- FramesTest.cpp - frame store of split derivatives ------------------===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "grad/frames.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <thread>
#include <vector>

namespace {

using namespace grad::detail;

TEST(FramesTest, FramesAreReadBackByPosition) {
  std::size_t Base = frame_top();
  std::size_t A = push_frame(1.5, true, std::size_t{7});
  std::size_t B = push_frame(2.5f, -3);
  double D = 0;
  bool Flag = false;
  std::size_t N = 0;
  float F = 0;
  int I = 0;
  // In any order: a frame is addressed, not popped.
  read_frame(B, F, I);
  read_frame(A, D, Flag, N);
  EXPECT_EQ(D, 1.5);
  EXPECT_TRUE(Flag);
  EXPECT_EQ(N, 7u);
  EXPECT_EQ(F, 2.5f);
  EXPECT_EQ(I, -3);
  frame_reset(Base);
  EXPECT_EQ(frame_top(), Base);
}

TEST(FramesTest, EmptyFrameAndGrowth) {
  std::size_t Base = frame_top();
  std::size_t E = push_frame();
  EXPECT_EQ(E, Base);
  std::vector<std::size_t> Pos;
  for (int K = 0; K < 100000; ++K)
    Pos.push_back(push_frame(double(K), K));
  for (int K = 99999; K >= 0; K -= 997) {
    double V;
    int W;
    read_frame(Pos[K], V, W);
    ASSERT_EQ(V, double(K));
    ASSERT_EQ(W, K);
  }
  frame_reset(Base);
}

TEST(FramesTest, OneStorePerThread) {
  std::size_t Mine = push_frame(42.0);
  std::size_t Other = 0;
  std::thread T([&] { Other = frame_top(); });
  T.join();
  EXPECT_EQ(Other, 0u);
  double V = 0;
  read_frame(Mine, V);
  EXPECT_EQ(V, 42.0);
  frame_reset(Mine);
}

} // namespace
