//===- jacobian.cpp - Full Jacobians: vector forward mode vs pullbacks ----===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The Jacobian of a hand-tracking-style model (issue 15): 26 pose
/// parameters (global rotation as an angle-axis vector, translation, and
/// four angles for each of five fingers) move a kinematic tree of 16 bones;
/// 100 vertices are skinned to two bones each (linear blend skinning) and
/// compared with 100 target points, giving 300 residuals. Written the way
/// such models are written in C++: C-style helpers with out-parameters,
/// 3x4 row-major transforms, model data in flat arrays.
///
///   jac_hand/primal     the objective
///   jac_hand/lanes8     the Jacobian by the vector pushforward with 8
///                       lanes (4 passes)
///   jac_hand/lanes26    ... with 26 lanes (1 pass)
///   jac_hand/forward    ... by 26 scalar pushforwards
///   jac_hand/reverse    ... by 300 pullbacks (one per residual)
///   jac_hand/reverse_lanes8  ... by 38 vector pullbacks with 8 seeds
///
/// bench/ratios.py checks lanes / primal <= (reverse / primal) / 5.
///
//===----------------------------------------------------------------------===//

#include "check.h"

#include <grad/jacobian.h>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace {
constexpr int NParams = 26, NBones = 16, NVerts = 100, NOut = 3 * NVerts;
}

/// R (3x3, row-major) = exp([w]x), Rodrigues' formula.
static void rodrigues(const double *w, double *R) {
  double th2 = w[0] * w[0] + w[1] * w[1] + w[2] * w[2];
  double th = std::sqrt(th2 + 1e-12);
  double k[3] = {w[0] / th, w[1] / th, w[2] / th};
  double c = std::cos(th), s = std::sin(th), v = 1 - c;
  R[0] = c + k[0] * k[0] * v;
  R[1] = k[0] * k[1] * v - k[2] * s;
  R[2] = k[0] * k[2] * v + k[1] * s;
  R[3] = k[1] * k[0] * v + k[2] * s;
  R[4] = c + k[1] * k[1] * v;
  R[5] = k[1] * k[2] * v - k[0] * s;
  R[6] = k[2] * k[0] * v - k[1] * s;
  R[7] = k[2] * k[1] * v + k[0] * s;
  R[8] = c + k[2] * k[2] * v;
}

/// The 3x4 transform of a finger joint: a rotation by `abd` about z, then
/// by `flex` about x, then the bone's offset `off` (3 values).
static void jointTransform(double abd, double flex, const double *off,
                           double *T) {
  double ca = std::cos(abd), sa = std::sin(abd);
  double cf = std::cos(flex), sf = std::sin(flex);
  // Rz(abd) * Rx(flex)
  T[0] = ca;
  T[1] = -sa * cf;
  T[2] = sa * sf;
  T[3] = off[0];
  T[4] = sa;
  T[5] = ca * cf;
  T[6] = -ca * sf;
  T[7] = off[1];
  T[8] = 0;
  T[9] = sf;
  T[10] = cf;
  T[11] = off[2];
}

/// C = A * B for 3x4 affine transforms.
static void compose(const double *A, const double *B, double *C) {
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 4; ++j) {
      double s = j == 3 ? A[i * 4 + 3] : 0.0;
      for (int k = 0; k < 3; ++k)
        s += A[i * 4 + k] * B[k * 4 + j];
      C[i * 4 + j] = s;
    }
  }
}

/// out += w * (T * p) for a 3x4 transform T and a point p.
static void addTransformed(const double *T, const double *p, double w,
                           double *out) {
  for (int i = 0; i < 3; ++i)
    out[i] += w * (T[i * 4] * p[0] + T[i * 4 + 1] * p[1] +
                   T[i * 4 + 2] * p[2] + T[i * 4 + 3]);
}

/// The residuals err[3 * v + k] = skinned vertex v, coordinate k, minus the
/// target. theta: 26 parameters; offsets: 3 per bone; rest: 3 per vertex in
/// bone-local coordinates (the same for both of its bones, for brevity);
/// bones / weights: 2 per vertex; targets: 3 per vertex.
static void handModel(const double *theta, const double *offsets,
                      const double *rest, const int *bones,
                      const double *weights, const double *targets,
                      double *err) {
  double T[NBones * 12];
  // Root: global rotation and translation.
  double R[9];
  rodrigues(theta, R);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j)
      T[i * 4 + j] = R[i * 3 + j];
    T[i * 4 + 3] = theta[3 + i];
  }
  // Five fingers of three bones; finger f uses theta[6 + 4f .. 9 + 4f]:
  // abduction, then the flexion of each bone.
  for (int f = 0; f < 5; ++f) {
    const double *a = theta + 6 + 4 * f;
    const double *parent = T;
    for (int b = 0; b < 3; ++b) {
      int id = 1 + 3 * f + b;
      double local[12];
      jointTransform(b == 0 ? a[0] : 0.0, a[1 + b], offsets + 3 * id, local);
      compose(parent, local, T + 12 * id);
      parent = T + 12 * id;
    }
  }
  for (int v = 0; v < NVerts; ++v) {
    double *o = err + 3 * v;
    o[0] = -targets[3 * v];
    o[1] = -targets[3 * v + 1];
    o[2] = -targets[3 * v + 2];
    for (int k = 0; k < 2; ++k)
      addTransformed(T + 12 * bones[2 * v + k], rest + 3 * v,
                     weights[2 * v + k], o);
  }
}

// The differentiated entry points: reverse (pullback, and the vector
// pullback with 8 seeds), scalar forward, and vector forward with 8 and 26
// lanes.
[[grad("theta, err", "lanes=8"), grad::forward("theta, err", "lanes=8")]] void
hand8(const double *theta, const double *offsets, const double *rest,
      const int *bones, const double *weights, const double *targets,
      double *err) {
  handModel(theta, offsets, rest, bones, weights, targets, err);
}
[[grad::forward("theta, err", "lanes=26")]] void
hand26(const double *theta, const double *offsets, const double *rest,
       const int *bones, const double *weights, const double *targets,
       double *err) {
  handModel(theta, offsets, rest, bones, weights, targets, err);
}

namespace {

struct Model {
  std::vector<double> Theta = bench::sample(NParams, 1, -0.6, 0.6);
  std::vector<double> Offsets = bench::sample(3 * NBones, 2, 0.2, 1.0);
  std::vector<double> Rest = bench::sample(3 * NVerts, 3, -0.5, 0.5);
  std::vector<int> Bones;
  std::vector<double> Weights;
  std::vector<double> Targets = bench::sample(NOut, 4, -2, 2);
  Model() {
    for (int v = 0; v < NVerts; ++v) {
      int B = v % NBones;
      Bones.push_back(B);
      // The second bone: the parent (the root for the first bone of a
      // finger).
      Bones.push_back(B == 0 || (B - 1) % 3 == 0 ? 0 : B - 1);
      double W = 0.3 + 0.4 * (v % 7) / 6.0;
      Weights.push_back(W);
      Weights.push_back(1 - W);
    }
  }
};
Model &model() {
  static Model M;
  return M;
}

void jacobianLanes8(double *J) {
  Model &M = model();
  std::vector<double> Err(NOut);
  grad::jacobian_lanes<8>(
      NParams, NOut, J,
      [&](const grad::lanes<double, 8> *T, grad::lanes<double, 8> *U) {
        hand8_pushforward(M.Theta.data(), M.Offsets.data(), M.Rest.data(),
                          M.Bones.data(), M.Weights.data(), M.Targets.data(),
                          Err.data(), T, U);
      });
}
void jacobianLanes26(double *J) {
  Model &M = model();
  std::vector<double> Err(NOut);
  grad::jacobian_lanes<26>(
      NParams, NOut, J,
      [&](const grad::lanes<double, 26> *T, grad::lanes<double, 26> *U) {
        hand26_pushforward(M.Theta.data(), M.Offsets.data(), M.Rest.data(),
                           M.Bones.data(), M.Weights.data(), M.Targets.data(),
                           Err.data(), T, U);
      });
}
void jacobianForward(double *J) {
  Model &M = model();
  std::vector<double> Err(NOut);
  grad::jacobian_forward(NParams, NOut, J, [&](const double *T, double *U) {
    hand8_pushforward(M.Theta.data(), M.Offsets.data(), M.Rest.data(),
                      M.Bones.data(), M.Weights.data(), M.Targets.data(),
                      Err.data(), T, U);
  });
}
void jacobianReverse(double *J) {
  Model &M = model();
  std::vector<double> Err(NOut);
  grad::jacobian_reverse(NParams, NOut, J, [&](const double *W, double *D) {
    // The pullback reads the seeds from d_err and consumes them.
    std::vector<double> Seed(W, W + NOut);
    hand8_pullback(M.Theta.data(), M.Offsets.data(), M.Rest.data(),
                   M.Bones.data(), M.Weights.data(), M.Targets.data(),
                   Err.data(), D, Seed.data());
  });
}

void jacobianReverseLanes8(double *J) {
  Model &M = model();
  std::vector<double> Err(NOut);
  std::vector<grad::lanes<double, 8>> Seed(NOut);
  grad::jacobian_reverse_lanes<8>(
      NParams, NOut, J,
      [&](const grad::lanes<double, 8> *W, grad::lanes<double, 8> *D) {
        std::copy(W, W + NOut, Seed.begin());
        hand8_pullback(M.Theta.data(), M.Offsets.data(), M.Rest.data(),
                       M.Bones.data(), M.Weights.data(), M.Targets.data(),
                       Err.data(), D, Seed.data());
      });
}

/// All five Jacobians agree, and a column agrees with central differences
/// of the model.
void checkAll() {
  Model &M = model();
  std::vector<double> J8(NOut * NParams), J26(J8.size()), JF(J8.size()),
      JR(J8.size()), JRL(J8.size());
  jacobianLanes8(J8.data());
  jacobianLanes26(J26.data());
  jacobianForward(JF.data());
  jacobianReverse(JR.data());
  jacobianReverseLanes8(JRL.data());
  bench::expectSame("jacobian lanes8/forward", J8, JF, 1e-12);
  bench::expectSame("jacobian lanes26/forward", J26, JF, 1e-12);
  bench::expectSame("jacobian reverse/forward", JR, JF, 1e-10);
  bench::expectSame("jacobian reverse_lanes8/reverse", JRL, JR, 1e-14);
  for (int K = 0; K < NParams; ++K) {
    std::vector<double> Col(NOut), Fd(NOut);
    auto At = [&](double H, std::vector<double> &E) {
      std::vector<double> Th = M.Theta;
      Th[K] += H;
      handModel(Th.data(), M.Offsets.data(), M.Rest.data(), M.Bones.data(),
                M.Weights.data(), M.Targets.data(), E.data());
    };
    std::vector<double> Ep(NOut), Em(NOut);
    const double H = 1e-6;
    At(H, Ep);
    At(-H, Em);
    for (int I = 0; I < NOut; ++I) {
      Col[I] = JF[I * NParams + K];
      Fd[I] = (Ep[I] - Em[I]) / (2 * H);
    }
    bench::expectSame("jacobian forward/differences", Col, Fd, 1e-6);
  }
}

const bool Checked = (checkAll(), true);

void jac_hand_primal(benchmark::State &St) {
  Model &M = model();
  std::vector<double> Err(NOut);
  for (auto _ : St) {
    handModel(M.Theta.data(), M.Offsets.data(), M.Rest.data(), M.Bones.data(),
              M.Weights.data(), M.Targets.data(), Err.data());
    benchmark::DoNotOptimize(Err.data());
    benchmark::ClobberMemory();
  }
}
template <void (*Jac)(double *)> void jac_hand(benchmark::State &St) {
  std::vector<double> J(NOut * NParams);
  for (auto _ : St) {
    Jac(J.data());
    benchmark::DoNotOptimize(J.data());
    benchmark::ClobberMemory();
  }
}

} // namespace

BENCHMARK(jac_hand_primal)->Name("jac_hand/primal");
BENCHMARK(jac_hand<jacobianLanes8>)->Name("jac_hand/lanes8");
BENCHMARK(jac_hand<jacobianLanes26>)->Name("jac_hand/lanes26");
BENCHMARK(jac_hand<jacobianForward>)->Name("jac_hand/forward");
BENCHMARK(jac_hand<jacobianReverse>)->Name("jac_hand/reverse");
BENCHMARK(jac_hand<jacobianReverseLanes8>)->Name("jac_hand/reverse_lanes8");

BENCHMARK_MAIN();
