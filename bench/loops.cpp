//===- loops.cpp - Loop kernels: gradient vs primal vs hand-written -------===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Issue 3's scalar loop kernels. Each kernel KERNEL has three benchmarks,
/// KERNEL/primal, KERNEL/grad (the plugin's KERNEL_pullback) and
/// KERNEL/hand (a hand-written adjoint), which bench/ratios.py compares.
/// Pullbacks accumulate, so the adjoints are never reset between iterations:
/// the generated and the hand-written code do exactly the same job.
///
//===----------------------------------------------------------------------===//

#include "check.h"

#include <benchmark/benchmark.h>
#include <grad/grad.h>

#include <cmath>
#include <vector>

//===----------------------------------------------------------------------===//
// The kernels, differentiated by the plugin
//===----------------------------------------------------------------------===//

[[grad]] double dot(const double *x, const double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * y[i];
  return s;
}

[[grad]] double sumsq(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i];
  return s;
}

/// c[0] x^(n-1) + ... + c[n-1], by Horner's rule.
[[grad]] double horner(const double *c, int n, double x) {
  double acc = 0;
  for (int i = 0; i < n; ++i)
    acc = acc * x + c[i];
  return acc;
}

[[grad]] double rnn(const double *x, int n, double w, double h0) {
  double h = h0;
  for (int i = 0; i < n; ++i)
    h = std::tanh(w * h + x[i]);
  return h;
}

/// x^T A x, A row-major n x n.
[[grad]] double xAx(const double *A, const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double r = 0;
    for (int j = 0; j < n; ++j)
      r += A[i * n + j] * x[j];
    s += x[i] * r;
  }
  return s;
}

/// The same, written as C code walks rows: a pointer to the row, declared
/// in the loop (its offset is recorded once per row, not per use).
[[grad]] double xAxRows(const double *A, const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    const double *Ai = A + i * n;
    double r = 0;
    for (int j = 0; j < n; ++j)
      r += Ai[j] * x[j];
    s += x[i] * r;
  }
  return s;
}

//===----------------------------------------------------------------------===//
// Hand-written adjoints (same ABI: accumulate into the adjoints)
//===----------------------------------------------------------------------===//

static void dotHand(const double *x, const double *y, int n, double d,
                    double *__restrict dx, double *__restrict dy) {
  for (int i = 0; i < n; ++i) {
    dx[i] += d * y[i];
    dy[i] += d * x[i];
  }
}

static void sumsqHand(const double *x, int n, double d, double *__restrict dx) {
  for (int i = 0; i < n; ++i)
    dx[i] += 2 * d * x[i];
}

static void hornerHand(const double *c, int n, double x, double d,
                       double *__restrict dc, double *__restrict dx) {
  // p'(x) by Horner alongside p(x); dc[i] = x^(n-1-i).
  double p = 0, dp = 0;
  for (int i = 0; i < n; ++i) {
    dp = dp * x + p;
    p = p * x + c[i];
  }
  *dx += d * dp;
  double pw = d;
  for (int i = n - 1; i >= 0; --i) {
    dc[i] += pw;
    pw *= x;
  }
}

static void rnnHand(const double *x, int n, double w, double h0, double d,
                    double *__restrict dx, double *__restrict dw,
                    double *__restrict dh0) {
  std::vector<double> H(n + 1);
  H[0] = h0;
  for (int i = 0; i < n; ++i)
    H[i + 1] = std::tanh(w * H[i] + x[i]);
  double dh = d, gw = 0;
  for (int i = n - 1; i >= 0; --i) {
    const double dz = dh * (1 - H[i + 1] * H[i + 1]);
    dx[i] += dz;
    gw += dz * H[i];
    dh = dz * w;
  }
  *dw += gw;
  *dh0 += dh;
}

static void xAxHand(const double *A, const double *x, int n, double d,
                    double *__restrict dA, double *__restrict dx) {
  for (int i = 0; i < n; ++i) {
    const double *Ai = A + i * n;
    double *dAi = dA + i * n;
    const double dxi = d * x[i];
    double r = 0;
    for (int j = 0; j < n; ++j) {
      r += Ai[j] * x[j];
      dAi[j] += dxi * x[j];
      dx[j] += dxi * Ai[j];
    }
    dx[i] += d * r;
  }
}

//===----------------------------------------------------------------------===//
// Inputs and start-up checks
//===----------------------------------------------------------------------===//

namespace {
constexpr int NVec = 1000, NPoly = 1000, NRnn = 10000, NMat = 300;

struct Inputs {
  std::vector<double> X = bench::sample(NVec, 1), Y = bench::sample(NVec, 2);
  std::vector<double> C = bench::sample(NPoly, 3);
  double PX = 0.97; // |x| < 1 keeps x^999 representable and non-trivial
  std::vector<double> R = bench::sample(NRnn, 4);
  double W = 0.9, H0 = 0.3;
  std::vector<double> A = bench::sample(NMat * NMat, 5),
                      Q = bench::sample(NMat, 6);
};
Inputs &in() {
  static Inputs I;
  return I;
}

/// Generated and hand-written gradients of each kernel against finite
/// differences (packed as one vector per kernel).
void checkAll() {
  Inputs &I = in();
  {
    std::vector<double> P = I.X;
    P.insert(P.end(), I.Y.begin(), I.Y.end());
    std::vector<double> G(2 * NVec, 0.0), Hd(2 * NVec, 0.0);
    dot_pullback(I.X.data(), I.Y.data(), NVec, 1.0, G.data(), G.data() + NVec);
    dotHand(I.X.data(), I.Y.data(), NVec, 1.0, Hd.data(), Hd.data() + NVec);
    auto F = [&] { return dot(P.data(), P.data() + NVec, NVec); };
    bench::expectGradient("dot", F, P, G);
    bench::expectSame("dot/hand", Hd, G);
  }
  {
    std::vector<double> G(NVec, 0.0), Hd(NVec, 0.0);
    sumsq_pullback(I.X.data(), NVec, 1.0, G.data());
    sumsqHand(I.X.data(), NVec, 1.0, Hd.data());
    std::vector<double> P = I.X;
    auto F = [&] { return sumsq(P.data(), NVec); };
    bench::expectGradient("sumsq", F, P, G);
    bench::expectSame("sumsq/hand", Hd, G);
  }
  {
    std::vector<double> P = I.C, G(NPoly + 1, 0.0), Hd(NPoly + 1, 0.0);
    P.push_back(I.PX);
    horner_pullback(I.C.data(), NPoly, I.PX, 1.0, G.data(), &G[NPoly]);
    hornerHand(I.C.data(), NPoly, I.PX, 1.0, Hd.data(), &Hd[NPoly]);
    auto F = [&] { return horner(P.data(), NPoly, P[NPoly]); };
    bench::expectGradient("horner", F, P, G, 1e-5, 24, 1e-5);
    bench::expectSame("horner/hand", Hd, G, 1e-8);
  }
  {
    std::vector<double> P = I.R, G(NRnn + 2, 0.0), Hd(NRnn + 2, 0.0);
    P.push_back(I.W);
    P.push_back(I.H0);
    rnn_pullback(I.R.data(), NRnn, I.W, I.H0, 1.0, G.data(), &G[NRnn],
                 &G[NRnn + 1]);
    rnnHand(I.R.data(), NRnn, I.W, I.H0, 1.0, Hd.data(), &Hd[NRnn],
            &Hd[NRnn + 1]);
    auto F = [&] { return rnn(P.data(), NRnn, P[NRnn], P[NRnn + 1]); };
    bench::expectGradient("rnn", F, P, G);
    bench::expectSame("rnn/hand", Hd, G);
  }
  {
    std::vector<double> P = I.A;
    P.insert(P.end(), I.Q.begin(), I.Q.end());
    const std::size_t NA = NMat * NMat;
    std::vector<double> G(NA + NMat, 0.0), Hd(NA + NMat, 0.0);
    xAx_pullback(I.A.data(), I.Q.data(), NMat, 1.0, G.data(), G.data() + NA);
    xAxHand(I.A.data(), I.Q.data(), NMat, 1.0, Hd.data(), Hd.data() + NA);
    auto F = [&] { return xAx(P.data(), P.data() + NA, NMat); };
    bench::expectGradient("xAx", F, P, G, 1e-5, 40);
    bench::expectSame("xAx/hand", Hd, G);
    std::vector<double> GR(NA + NMat, 0.0);
    xAxRows_pullback(I.A.data(), I.Q.data(), NMat, 1.0, GR.data(),
                     GR.data() + NA);
    bench::expectSame("xAxRows/hand", Hd, GR);
  }
}

//===----------------------------------------------------------------------===//
// Benchmarks
//===----------------------------------------------------------------------===//

void dotPrimal(benchmark::State &S) {
  Inputs &I = in();
  for (auto _ : S)
    benchmark::DoNotOptimize(dot(I.X.data(), I.Y.data(), NVec));
}
void dotGrad(benchmark::State &S) {
  Inputs &I = in();
  std::vector<double> DX(NVec), DY(NVec);
  for (auto _ : S) {
    dot_pullback(I.X.data(), I.Y.data(), NVec, 1.0, DX.data(), DY.data());
    benchmark::ClobberMemory();
  }
}
void dotHandB(benchmark::State &S) {
  Inputs &I = in();
  std::vector<double> DX(NVec), DY(NVec);
  for (auto _ : S) {
    dotHand(I.X.data(), I.Y.data(), NVec, 1.0, DX.data(), DY.data());
    benchmark::ClobberMemory();
  }
}

void sumsqPrimal(benchmark::State &S) {
  Inputs &I = in();
  for (auto _ : S)
    benchmark::DoNotOptimize(sumsq(I.X.data(), NVec));
}
void sumsqGrad(benchmark::State &S) {
  Inputs &I = in();
  std::vector<double> DX(NVec);
  for (auto _ : S) {
    sumsq_pullback(I.X.data(), NVec, 1.0, DX.data());
    benchmark::ClobberMemory();
  }
}
void sumsqHandB(benchmark::State &S) {
  Inputs &I = in();
  std::vector<double> DX(NVec);
  for (auto _ : S) {
    sumsqHand(I.X.data(), NVec, 1.0, DX.data());
    benchmark::ClobberMemory();
  }
}

void hornerPrimal(benchmark::State &S) {
  Inputs &I = in();
  for (auto _ : S)
    benchmark::DoNotOptimize(horner(I.C.data(), NPoly, I.PX));
}
void hornerGrad(benchmark::State &S) {
  Inputs &I = in();
  std::vector<double> DC(NPoly);
  double DX = 0;
  for (auto _ : S) {
    horner_pullback(I.C.data(), NPoly, I.PX, 1.0, DC.data(), &DX);
    benchmark::ClobberMemory();
  }
}
void hornerHandB(benchmark::State &S) {
  Inputs &I = in();
  std::vector<double> DC(NPoly);
  double DX = 0;
  for (auto _ : S) {
    hornerHand(I.C.data(), NPoly, I.PX, 1.0, DC.data(), &DX);
    benchmark::ClobberMemory();
  }
}

void rnnPrimal(benchmark::State &S) {
  Inputs &I = in();
  for (auto _ : S)
    benchmark::DoNotOptimize(rnn(I.R.data(), NRnn, I.W, I.H0));
}
void rnnGrad(benchmark::State &S) {
  Inputs &I = in();
  std::vector<double> DX(NRnn);
  double DW = 0, DH = 0;
  for (auto _ : S) {
    rnn_pullback(I.R.data(), NRnn, I.W, I.H0, 1.0, DX.data(), &DW, &DH);
    benchmark::ClobberMemory();
  }
}
void rnnHandB(benchmark::State &S) {
  Inputs &I = in();
  std::vector<double> DX(NRnn);
  double DW = 0, DH = 0;
  for (auto _ : S) {
    rnnHand(I.R.data(), NRnn, I.W, I.H0, 1.0, DX.data(), &DW, &DH);
    benchmark::ClobberMemory();
  }
}

void xAxPrimal(benchmark::State &S) {
  Inputs &I = in();
  for (auto _ : S)
    benchmark::DoNotOptimize(xAx(I.A.data(), I.Q.data(), NMat));
}
void xAxGrad(benchmark::State &S) {
  Inputs &I = in();
  std::vector<double> DA(NMat * NMat), DX(NMat);
  for (auto _ : S) {
    xAx_pullback(I.A.data(), I.Q.data(), NMat, 1.0, DA.data(), DX.data());
    benchmark::ClobberMemory();
  }
}
void xAxHandB(benchmark::State &S) {
  Inputs &I = in();
  std::vector<double> DA(NMat * NMat), DX(NMat);
  for (auto _ : S) {
    xAxHand(I.A.data(), I.Q.data(), NMat, 1.0, DA.data(), DX.data());
    benchmark::ClobberMemory();
  }
}

void xAxRowsPrimal(benchmark::State &S) {
  Inputs &I = in();
  for (auto _ : S)
    benchmark::DoNotOptimize(xAxRows(I.A.data(), I.Q.data(), NMat));
}
void xAxRowsGrad(benchmark::State &S) {
  Inputs &I = in();
  std::vector<double> DA(NMat * NMat), DX(NMat);
  for (auto _ : S) {
    xAxRows_pullback(I.A.data(), I.Q.data(), NMat, 1.0, DA.data(), DX.data());
    benchmark::ClobberMemory();
  }
}
} // namespace

int main(int argc, char **argv) {
  checkAll();
  benchmark::RegisterBenchmark("dot/primal", dotPrimal);
  benchmark::RegisterBenchmark("dot/grad", dotGrad);
  benchmark::RegisterBenchmark("dot/hand", dotHandB);
  benchmark::RegisterBenchmark("sumsq/primal", sumsqPrimal);
  benchmark::RegisterBenchmark("sumsq/grad", sumsqGrad);
  benchmark::RegisterBenchmark("sumsq/hand", sumsqHandB);
  benchmark::RegisterBenchmark("horner/primal", hornerPrimal);
  benchmark::RegisterBenchmark("horner/grad", hornerGrad);
  benchmark::RegisterBenchmark("horner/hand", hornerHandB);
  benchmark::RegisterBenchmark("rnn/primal", rnnPrimal);
  benchmark::RegisterBenchmark("rnn/grad", rnnGrad);
  benchmark::RegisterBenchmark("rnn/hand", rnnHandB);
  benchmark::RegisterBenchmark("xAx/primal", xAxPrimal);
  benchmark::RegisterBenchmark("xAx/grad", xAxGrad);
  benchmark::RegisterBenchmark("xAx/hand", xAxHandB);
  benchmark::RegisterBenchmark("xAxRows/primal", xAxRowsPrimal);
  benchmark::RegisterBenchmark("xAxRows/grad", xAxRowsGrad);
  benchmark::RegisterBenchmark("xAxRows/hand", xAxHandB);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
