//===- JacobianTest.cpp - Dense Hessians and Jacobians --------------------===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "grad/jacobian.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace {

// f(x) = sum_i x_i^2 x_{i+1} + exp(x_0 x_2): its Hessian-vector product
// written out by hand.
void hvpHand(const double *x, const double *v, double *d) {
  const int n = 3;
  for (int i = 0; i + 1 < n; ++i) {
    // d2/dx_i2 = 2 x_{i+1}, d2/dx_i dx_{i+1} = 2 x_i.
    d[i] += 2 * x[i + 1] * v[i] + 2 * x[i] * v[i + 1];
    d[i + 1] += 2 * x[i] * v[i];
  }
  double e = std::exp(x[0] * x[2]);
  d[0] += e * (x[2] * x[2] * v[0] + (1 + x[0] * x[2]) * v[2]);
  d[2] += e * ((1 + x[0] * x[2]) * v[0] + x[0] * x[0] * v[2]);
}

TEST(JacobianTest, HessianFromHvps) {
  const double x[3] = {0.5, -1.25, 0.75};
  double H[9];
  int Calls = 0;
  grad::hessian(3, H, [&](const double *v, double *d) {
    ++Calls;
    hvpHand(x, v, d);
  });
  EXPECT_EQ(Calls, 3);
  double e = std::exp(x[0] * x[2]);
  const double Want[9] = {2 * x[1] + e * x[2] * x[2], 2 * x[0],
                          e * (1 + x[0] * x[2]),
                          2 * x[0], 2 * x[2], 2 * x[1],
                          e * (1 + x[0] * x[2]), 2 * x[1], e * x[0] * x[0]};
  for (int I = 0; I < 9; ++I)
    EXPECT_NEAR(H[I], Want[I], 1e-12) << "entry " << I;
  for (int I = 0; I < 3; ++I)
    for (int J = 0; J < 3; ++J)
      EXPECT_DOUBLE_EQ(H[I * 3 + J], H[J * 3 + I]);
}

// g(x) = (x0 x1, sin x1, x0 + x2, x2^2): R^3 -> R^4.
void pushHand(const double *x, const double *t, double *u) {
  u[0] = t[0] * x[1] + x[0] * t[1];
  u[1] = std::cos(x[1]) * t[1];
  u[2] = t[0] + t[2];
  u[3] = 2 * x[2] * t[2];
}
void pullHand(const double *x, const double *w, double *d) {
  d[0] += w[0] * x[1] + w[2];
  d[1] += w[0] * x[0] + w[1] * std::cos(x[1]);
  d[2] += w[2] + 2 * x[2] * w[3];
}

TEST(JacobianTest, ForwardAndReverseAgree) {
  const double x[3] = {0.5, -1.25, 0.75};
  double JF[12], JR[12], JA[12];
  int Push = 0, Pull = 0;
  auto P = [&](const double *t, double *u) {
    ++Push;
    pushHand(x, t, u);
  };
  auto Q = [&](const double *w, double *d) {
    ++Pull;
    pullHand(x, w, d);
  };
  grad::jacobian_forward(3, 4, JF, P);
  grad::jacobian_reverse(3, 4, JR, Q);
  EXPECT_EQ(Push, 3);
  EXPECT_EQ(Pull, 4);
  const double Want[12] = {x[1], x[0], 0, 0, std::cos(x[1]), 0,
                           1,    0,    1, 0, 0,              2 * x[2]};
  for (int I = 0; I < 12; ++I) {
    EXPECT_DOUBLE_EQ(JF[I], Want[I]) << "forward entry " << I;
    EXPECT_DOUBLE_EQ(JR[I], Want[I]) << "reverse entry " << I;
  }
  // 3 inputs, 4 outputs: the chooser takes forward mode.
  Push = Pull = 0;
  grad::jacobian(3, 4, JA, P, Q);
  EXPECT_EQ(Push, 3);
  EXPECT_EQ(Pull, 0);
}

// pushHand with lanes: every lane is one direction.
template <std::size_t N>
void pushLanes(const double *x, const grad::lanes<double, N> *t,
               grad::lanes<double, N> *u) {
  u[0] = t[0] * x[1] + x[0] * t[1];
  u[1] = std::cos(x[1]) * t[1];
  u[2] = t[0] + t[2];
  u[3] = 2 * x[2] * t[2];
}

TEST(JacobianTest, LanesTakeNColumnsPerCall) {
  const double x[3] = {0.5, -1.25, 0.75};
  double JF[12];
  grad::jacobian_forward(3, 4, JF, [&](const double *t, double *u) {
    pushHand(x, t, u);
  });
  // 2 lanes: 2 calls, the second with one lane unused.
  double J2[12], J4[12], JA[12];
  int Calls = 0;
  grad::jacobian_lanes<2>(3, 4, J2, [&](const grad::lanes<double, 2> *t,
                                        grad::lanes<double, 2> *u) {
    ++Calls;
    // Unused lanes are zero on entry.
    if (Calls == 2) {
      EXPECT_EQ(t[0].der[1], 0.0);
      EXPECT_EQ(t[2].der[1], 0.0);
    }
    pushLanes<2>(x, t, u);
  });
  EXPECT_EQ(Calls, 2);
  Calls = 0;
  grad::jacobian_lanes<4>(3, 4, J4, [&](const grad::lanes<double, 4> *t,
                                        grad::lanes<double, 4> *u) {
    ++Calls;
    pushLanes<4>(x, t, u);
  });
  EXPECT_EQ(Calls, 1);
  for (int I = 0; I < 12; ++I) {
    EXPECT_DOUBLE_EQ(J2[I], JF[I]) << "entry " << I;
    EXPECT_DOUBLE_EQ(J4[I], JF[I]) << "entry " << I;
  }
  // The chooser with lanes: 3 inputs <= 4 outputs, one vector call.
  Calls = 0;
  int Pull = 0;
  grad::jacobian<4>(
      3, 4, JA,
      [&](const grad::lanes<double, 4> *t, grad::lanes<double, 4> *u) {
        ++Calls;
        pushLanes<4>(x, t, u);
      },
      [&](const double *w, double *d) {
        ++Pull;
        pullHand(x, w, d);
      });
  EXPECT_EQ(Calls, 1);
  EXPECT_EQ(Pull, 0);
  for (int I = 0; I < 12; ++I)
    EXPECT_DOUBLE_EQ(JA[I], JF[I]) << "entry " << I;
}

// pullHand for N seeds at once (a vector pullback's shape).
template <std::size_t N>
void pullLanes(const double *x, const grad::lanes<double, N> *w,
               grad::lanes<double, N> *d) {
  for (std::size_t L = 0; L < N; ++L) {
    double W[4], D[3] = {};
    for (int I = 0; I < 4; ++I)
      W[I] = w[I].der[L];
    pullHand(x, W, D);
    for (int K = 0; K < 3; ++K)
      d[K].der[L] += D[K];
  }
}

TEST(JacobianTest, ReverseLanes) {
  const double x[3] = {0.7, -1.2, 0.4};
  double JR[12], J3[12], J8[12];
  grad::jacobian_reverse(3, 4, JR, [&](const double *w, double *d) {
    pullHand(x, w, d);
  });
  // 3 seeds per call: 2 calls, the second with two lanes unused (zero).
  int Calls = 0;
  grad::jacobian_reverse_lanes<3>(
      3, 4, J3,
      [&](const grad::lanes<double, 3> *w, grad::lanes<double, 3> *d) {
        ++Calls;
        for (int K = 0; K < 3; ++K)
          EXPECT_EQ(d[K].der[0], 0.0);
        if (Calls == 2) {
          EXPECT_EQ(w[3].der[0], 1.0);
          EXPECT_EQ(w[3].der[1], 0.0);
          EXPECT_EQ(w[0].der[0], 0.0);
        }
        pullLanes<3>(x, w, d);
      });
  EXPECT_EQ(Calls, 2);
  Calls = 0;
  grad::jacobian_reverse_lanes<8>(
      3, 4, J8,
      [&](const grad::lanes<double, 8> *w, grad::lanes<double, 8> *d) {
        ++Calls;
        pullLanes<8>(x, w, d);
      });
  EXPECT_EQ(Calls, 1);
  for (int I = 0; I < 12; ++I) {
    EXPECT_DOUBLE_EQ(J3[I], JR[I]) << "entry " << I;
    EXPECT_DOUBLE_EQ(J8[I], JR[I]) << "entry " << I;
  }
  // Against the closed form: row 1 is (0, cos x1, 0).
  EXPECT_DOUBLE_EQ(J3[3 + 1], std::cos(x[1]));
  EXPECT_DOUBLE_EQ(J3[3 + 0], 0.0);
}

TEST(JacobianTest, LanesArithmetic) {
  grad::lanes<double, 3> A{{1, 2, 3}};
  grad::lanes<float, 3> F{{1, 1, 1}};
  auto B = A * 2 + 3.0 * A - (-A) / 2; // 5.5 A
  static_assert(std::is_same_v<decltype(F * 2.0),
                               grad::lanes<double, 3>>); // as float * double
  static_assert(std::is_same_v<decltype(F * 2), grad::lanes<float, 3>>);
  auto C = F * 2.0 + A;
  grad::lanes<float, 3> D = C; // converts lane by lane
  D += A;
  D -= F;
  D *= 2;
  D /= 4;
  for (int K = 0; K < 3; ++K) {
    EXPECT_DOUBLE_EQ(B[K], 5.5 * (K + 1));
    EXPECT_DOUBLE_EQ(C[K], 2 + (K + 1));
    EXPECT_FLOAT_EQ(D[K], (2 + 2 * (K + 1) - 1) / 2.0f);
  }
  grad::lanes<double, 3> Z{};
  EXPECT_EQ(Z[0] + Z[1] + Z[2], 0.0);
  auto R = grad::detail::make_dual<float>(1.5, B);
  static_assert(std::is_same_v<decltype(R), grad::dual<float, 3>>);
  EXPECT_FLOAT_EQ(R.der[2], 16.5f);
  auto L = grad::detail::lanes_of(R);
  EXPECT_FLOAT_EQ(L[1], 11.0f);
}

} // namespace
