//===- forward.cpp - Pushforwards and Hessian-vector products -------------===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Forward mode (issue 15). The loop kernels of loops.cpp with
/// [[grad::forward]]: fw_KERNEL/primal, fw_KERNEL/grad (the generated
/// pushforward, one direction) and fw_KERNEL/hand (a hand-written tangent
/// loop). Second order with [[grad::hessian]]: hvp_KERNEL/primal is the
/// generated pullback, hvp_KERNEL/grad the generated HVP and hvp_KERNEL/hand
/// a hand-written H v. bench/ratios.py checks pushforward / primal <= 1.5
/// and HVP / pullback <= 3.
///
//===----------------------------------------------------------------------===//

#include "check.h"

#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

[[grad::forward]] double dot(const double *x, const double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * y[i];
  return s;
}

[[grad::forward]] double horner(const double *c, int n, double x) {
  double acc = 0;
  for (int i = 0; i < n; ++i)
    acc = acc * x + c[i];
  return acc;
}

[[grad::forward]] double rnn(const double *x, int n, double w, double h0) {
  double h = h0;
  for (int i = 0; i < n; ++i)
    h = std::tanh(w * h + x[i]);
  return h;
}

[[grad::forward]] double xAx(const double *A, const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double r = 0;
    for (int j = 0; j < n; ++j)
      r += A[i * n + j] * x[j];
    s += x[i] * r;
  }
  return s;
}

[[grad::hessian]] double rosen(const double *x, int n) {
  double s = 0;
  for (int i = 0; i + 1 < n; ++i) {
    double a = x[i + 1] - x[i] * x[i];
    double b = 1 - x[i];
    s += 100 * a * a + b * b;
  }
  return s;
}

[[grad::hessian("x")]] double quad(const double *A, const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double r = 0;
    for (int j = 0; j < n; ++j)
      r += A[i * n + j] * x[j];
    s += x[i] * r;
  }
  return s;
}

//===----------------------------------------------------------------------===//
// Hand-written tangents and Hessian-vector products
//===----------------------------------------------------------------------===//

static double dotHand(const double *x, const double *y, const double *tx,
                      const double *ty, int n) {
  double t = 0;
  for (int i = 0; i < n; ++i)
    t += tx[i] * y[i] + x[i] * ty[i];
  return t;
}
static double hornerHand(const double *c, const double *tc, int n, double x,
                         double tx) {
  double acc = 0, t = 0;
  for (int i = 0; i < n; ++i) {
    t = t * x + acc * tx + tc[i];
    acc = acc * x + c[i];
  }
  return t;
}
static double rnnHand(const double *x, const double *tx, int n, double w,
                      double tw, double h0, double th0) {
  double h = h0, t = th0;
  for (int i = 0; i < n; ++i) {
    const double hp = h;
    h = std::tanh(w * hp + x[i]);
    t = (1 - h * h) * (tw * hp + w * t + tx[i]);
  }
  return t;
}
static double xAxHand(const double *A, const double *x, const double *tA,
                      const double *tx, int n) {
  double t = 0;
  for (int i = 0; i < n; ++i) {
    double r = 0, tr = 0;
    for (int j = 0; j < n; ++j) {
      r += A[i * n + j] * x[j];
      tr += tA[i * n + j] * x[j] + A[i * n + j] * tx[j];
    }
    t += tx[i] * r + x[i] * tr;
  }
  return t;
}
static void rosenHvpHand(const double *x, int n, const double *v, double *d) {
  for (int i = 0; i + 1 < n; ++i) {
    // f_i = 100 (x1 - x0^2)^2 + (1 - x0)^2.
    double x0 = x[i], x1 = x[i + 1];
    double h00 = 1200 * x0 * x0 - 400 * x1 + 2, h01 = -400 * x0, h11 = 200;
    d[i] += h00 * v[i] + h01 * v[i + 1];
    d[i + 1] += h01 * v[i] + h11 * v[i + 1];
  }
}
static void quadHvpHand(const double *A, const double *v, int n, double *d) {
  for (int i = 0; i < n; ++i) {
    double s = 0;
    for (int j = 0; j < n; ++j)
      s += (A[i * n + j] + A[j * n + i]) * v[j];
    d[i] += s;
  }
}

//===----------------------------------------------------------------------===//
// Inputs and start-up checks
//===----------------------------------------------------------------------===//

namespace {
constexpr int NVec = 1000, NPoly = 1000, NRnn = 10000, NMat = 300,
              NRosen = 10000;

struct Inputs {
  std::vector<double> X = bench::sample(NVec, 1), Y = bench::sample(NVec, 2);
  std::vector<double> TX = bench::sample(NVec, 7), TY = bench::sample(NVec, 8);
  std::vector<double> C = bench::sample(NPoly, 3), TC = bench::sample(NPoly, 9);
  double PX = 0.97, TPX = 0.3;
  std::vector<double> R = bench::sample(NRnn, 4), TR = bench::sample(NRnn, 10);
  double W = 0.9, H0 = 0.3;
  std::vector<double> A = bench::sample(NMat * NMat, 5),
                      TA = bench::sample(NMat * NMat, 11),
                      Q = bench::sample(NMat, 6), TQ = bench::sample(NMat, 12);
  std::vector<double> RX = bench::sample(NRosen, 13),
                      RV = bench::sample(NRosen, 14);
};
Inputs &in() {
  static Inputs I;
  return I;
}

void expectClose(const char *Name, double Got, double Want, double Tol) {
  if (!(std::fabs(Got - Want) <= Tol * std::fmax(1.0, std::fabs(Want)))) {
    std::fprintf(stderr, "FAIL %s got %.17g want %.17g\n", Name, Got, Want);
    std::abort();
  }
}

/// Generated against hand-written; the hand-written HVPs against
/// differences of the generated pullback.
void checkAll() {
  Inputs &I = in();
  expectClose("dot", dot_pushforward(I.X.data(), I.Y.data(), NVec,
                                     I.TX.data(), I.TY.data()).der[0],
              dotHand(I.X.data(), I.Y.data(), I.TX.data(), I.TY.data(), NVec),
              1e-12);
  expectClose("horner",
              horner_pushforward(I.C.data(), NPoly, I.PX, I.TC.data(), I.TPX)
                  .der[0],
              hornerHand(I.C.data(), I.TC.data(), NPoly, I.PX, I.TPX), 1e-10);
  expectClose("rnn",
              rnn_pushforward(I.R.data(), NRnn, I.W, I.H0, I.TR.data(), 0.0,
                              0.0).der[0],
              rnnHand(I.R.data(), I.TR.data(), NRnn, I.W, 0.0, I.H0, 0.0),
              1e-10);
  expectClose("xAx",
              xAx_pushforward(I.A.data(), I.Q.data(), NMat, I.TA.data(),
                              I.TQ.data()).der[0],
              xAxHand(I.A.data(), I.Q.data(), I.TA.data(), I.TQ.data(), NMat),
              1e-10);
  {
    std::vector<double> G(NRosen, 0.0), Hd(NRosen, 0.0);
    rosen_hvp(I.RX.data(), NRosen, I.RV.data(), G.data());
    rosenHvpHand(I.RX.data(), NRosen, I.RV.data(), Hd.data());
    bench::expectSame("rosen hvp/hand", G, Hd, 1e-10);
    // One row of H v against differences of the pullback along v.
    auto Row = [&](double H) {
      std::vector<double> Xh = I.RX, Gp(NRosen, 0.0);
      for (int K = 0; K < NRosen; ++K)
        Xh[K] += H * I.RV[K];
      rosen_pullback(Xh.data(), NRosen, 1.0, Gp.data());
      return Gp[17];
    };
    double H = 1e-4;
    expectClose("rosen hvp/fd", G[17], (Row(H) - Row(-H)) / (2 * H), 1e-6);
  }
  {
    std::vector<double> G(NMat, 0.0), Hd(NMat, 0.0);
    quad_hvp(I.A.data(), I.Q.data(), NMat, I.TQ.data(), G.data());
    quadHvpHand(I.A.data(), I.TQ.data(), NMat, Hd.data());
    bench::expectSame("quad hvp/hand", G, Hd, 1e-10);
  }
}

//===----------------------------------------------------------------------===//
// Benchmarks
//===----------------------------------------------------------------------===//

void fw_dot_primal(benchmark::State &S) {
  Inputs &I = in();
  for (auto _ : S)
    benchmark::DoNotOptimize(dot(I.X.data(), I.Y.data(), NVec));
}
void fw_dot_grad(benchmark::State &S) {
  Inputs &I = in();
  for (auto _ : S)
    benchmark::DoNotOptimize(dot_pushforward(I.X.data(), I.Y.data(), NVec,
                                             I.TX.data(), I.TY.data()));
}
void fw_dot_hand(benchmark::State &S) {
  Inputs &I = in();
  for (auto _ : S) {
    benchmark::DoNotOptimize(dot(I.X.data(), I.Y.data(), NVec));
    benchmark::DoNotOptimize(
        dotHand(I.X.data(), I.Y.data(), I.TX.data(), I.TY.data(), NVec));
  }
}
void fw_horner_primal(benchmark::State &S) {
  Inputs &I = in();
  for (auto _ : S)
    benchmark::DoNotOptimize(horner(I.C.data(), NPoly, I.PX));
}
void fw_horner_grad(benchmark::State &S) {
  Inputs &I = in();
  for (auto _ : S)
    benchmark::DoNotOptimize(
        horner_pushforward(I.C.data(), NPoly, I.PX, I.TC.data(), I.TPX));
}
void fw_horner_hand(benchmark::State &S) {
  Inputs &I = in();
  for (auto _ : S)
    benchmark::DoNotOptimize(
        hornerHand(I.C.data(), I.TC.data(), NPoly, I.PX, I.TPX));
}
void fw_rnn_primal(benchmark::State &S) {
  Inputs &I = in();
  for (auto _ : S)
    benchmark::DoNotOptimize(rnn(I.R.data(), NRnn, I.W, I.H0));
}
void fw_rnn_grad(benchmark::State &S) {
  Inputs &I = in();
  for (auto _ : S)
    benchmark::DoNotOptimize(
        rnn_pushforward(I.R.data(), NRnn, I.W, I.H0, I.TR.data(), 0.0, 0.0));
}
void fw_rnn_hand(benchmark::State &S) {
  Inputs &I = in();
  for (auto _ : S)
    benchmark::DoNotOptimize(
        rnnHand(I.R.data(), I.TR.data(), NRnn, I.W, 0.0, I.H0, 0.0));
}
void fw_xAx_primal(benchmark::State &S) {
  Inputs &I = in();
  for (auto _ : S)
    benchmark::DoNotOptimize(xAx(I.A.data(), I.Q.data(), NMat));
}
void fw_xAx_grad(benchmark::State &S) {
  Inputs &I = in();
  for (auto _ : S)
    benchmark::DoNotOptimize(xAx_pushforward(I.A.data(), I.Q.data(), NMat,
                                             I.TA.data(), I.TQ.data()));
}
void fw_xAx_hand(benchmark::State &S) {
  Inputs &I = in();
  for (auto _ : S) {
    benchmark::DoNotOptimize(xAx(I.A.data(), I.Q.data(), NMat));
    benchmark::DoNotOptimize(
        xAxHand(I.A.data(), I.Q.data(), I.TA.data(), I.TQ.data(), NMat));
  }
}
void hvp_rosen_primal(benchmark::State &S) {
  Inputs &I = in();
  std::vector<double> G(NRosen, 0.0);
  for (auto _ : S) {
    rosen_pullback(I.RX.data(), NRosen, 1.0, G.data());
    benchmark::DoNotOptimize(G.data());
  }
}
void hvp_rosen_grad(benchmark::State &S) {
  Inputs &I = in();
  std::vector<double> G(NRosen, 0.0);
  for (auto _ : S) {
    rosen_hvp(I.RX.data(), NRosen, I.RV.data(), G.data());
    benchmark::DoNotOptimize(G.data());
  }
}
void hvp_rosen_hand(benchmark::State &S) {
  Inputs &I = in();
  std::vector<double> G(NRosen, 0.0);
  for (auto _ : S) {
    rosenHvpHand(I.RX.data(), NRosen, I.RV.data(), G.data());
    benchmark::DoNotOptimize(G.data());
  }
}
void hvp_quad_primal(benchmark::State &S) {
  Inputs &I = in();
  std::vector<double> G(NMat, 0.0);
  for (auto _ : S) {
    quad_pullback(I.A.data(), I.Q.data(), NMat, 1.0, G.data());
    benchmark::DoNotOptimize(G.data());
  }
}
void hvp_quad_grad(benchmark::State &S) {
  Inputs &I = in();
  std::vector<double> G(NMat, 0.0);
  for (auto _ : S) {
    quad_hvp(I.A.data(), I.Q.data(), NMat, I.TQ.data(), G.data());
    benchmark::DoNotOptimize(G.data());
  }
}
void hvp_quad_hand(benchmark::State &S) {
  Inputs &I = in();
  std::vector<double> G(NMat, 0.0);
  for (auto _ : S) {
    quadHvpHand(I.A.data(), I.TQ.data(), NMat, G.data());
    benchmark::DoNotOptimize(G.data());
  }
}
} // namespace

int main(int argc, char **argv) {
  checkAll();
  benchmark::RegisterBenchmark("fw_dot/primal", fw_dot_primal);
  benchmark::RegisterBenchmark("fw_dot/grad", fw_dot_grad);
  benchmark::RegisterBenchmark("fw_dot/hand", fw_dot_hand);
  benchmark::RegisterBenchmark("fw_horner/primal", fw_horner_primal);
  benchmark::RegisterBenchmark("fw_horner/grad", fw_horner_grad);
  benchmark::RegisterBenchmark("fw_horner/hand", fw_horner_hand);
  benchmark::RegisterBenchmark("fw_rnn/primal", fw_rnn_primal);
  benchmark::RegisterBenchmark("fw_rnn/grad", fw_rnn_grad);
  benchmark::RegisterBenchmark("fw_rnn/hand", fw_rnn_hand);
  benchmark::RegisterBenchmark("fw_xAx/primal", fw_xAx_primal);
  benchmark::RegisterBenchmark("fw_xAx/grad", fw_xAx_grad);
  benchmark::RegisterBenchmark("fw_xAx/hand", fw_xAx_hand);
  benchmark::RegisterBenchmark("hvp_rosen/primal", hvp_rosen_primal);
  benchmark::RegisterBenchmark("hvp_rosen/grad", hvp_rosen_grad);
  benchmark::RegisterBenchmark("hvp_rosen/hand", hvp_rosen_hand);
  benchmark::RegisterBenchmark("hvp_quad/primal", hvp_quad_primal);
  benchmark::RegisterBenchmark("hvp_quad/grad", hvp_quad_grad);
  benchmark::RegisterBenchmark("hvp_quad/hand", hvp_quad_hand);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
