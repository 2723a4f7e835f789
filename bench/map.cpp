//===- map.cpp - sum(map(f, x)) and broadcast gradients -------------------===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Issue 4: the gradient of `grad::sum(grad::map(f, x))` over n = 10,000
/// doubles for f = fabs, cbrt, tanh, a composite tanh lambda, a comparison
/// and a capturing lambda, each as KERNEL/primal, KERNEL/grad (the plugin's
/// pullback) and KERNEL/hand (a hand-written fused derivative loop), plus
/// copy/x (copying x: the cost of touching the data once). Then
/// `sum(broadcast(f, A, b, s))` with A 1000x1000, b 1000x1, s a scalar.
/// With Enzyme (enzyme.h), also KERNEL/enzyme.
///
//===----------------------------------------------------------------------===//

#include "check.h"

#include <benchmark/benchmark.h>
#include <grad/grad.h>

#include <cmath>
#include <vector>

#ifdef GRAD_BENCH_ENZYME
#include "enzyme.h"
#endif

//===----------------------------------------------------------------------===//
// The kernels, differentiated by the plugin
//===----------------------------------------------------------------------===//

[[grad]] double mapFabs(const std::vector<double> &x) {
  return grad::sum(grad::map([](double z) { return std::fabs(z); }, x));
}

[[grad]] double mapCbrt(const std::vector<double> &x) {
  return grad::sum(grad::map([](double z) { return std::cbrt(z); }, x));
}

[[grad]] double mapTanh(const std::vector<double> &x) {
  return grad::sum(grad::map([](double z) { return std::tanh(z); }, x));
}

[[grad]] double mapComposite(const std::vector<double> &x) {
  return grad::sum(grad::map(
      [](double z) {
        double t = std::tanh(z);
        return 1.0 * t;
      },
      x));
}

/// The map yields bools; its sum is a bool too. Nothing is differentiable,
/// so the pullback should do no work at all.
[[grad]] double mapCompare(const std::vector<double> &x) {
  return grad::sum(grad::map([](double z) { return z > 0.1; }, x));
}

[[grad]] double mapCapture(const std::vector<double> &x,
                           const std::vector<double> &y) {
  return grad::sum(grad::map([&](double z) { return z * z + y[0]; }, x));
}

[[grad]] double broadcastAxpy(const grad::tensor<double> &A,
                              const grad::tensor<double> &b, double s) {
  return grad::sum(grad::broadcast(
      [](double a, double c, double t) { return a * c + t; }, A, b, s));
}

//===----------------------------------------------------------------------===//
// Hand-written fused derivative loops
//===----------------------------------------------------------------------===//

static void fabsHand(const std::vector<double> &x, double d,
                     std::vector<double> *dx) {
  double *__restrict g = dx->data();
  for (std::size_t i = 0, n = x.size(); i < n; ++i)
    g[i] += std::copysign(d, x[i]);
}

static void cbrtHand(const std::vector<double> &x, double d,
                     std::vector<double> *dx) {
  double *__restrict g = dx->data();
  for (std::size_t i = 0, n = x.size(); i < n; ++i) {
    const double c = std::cbrt(x[i]);
    g[i] += d / (3 * c * c);
  }
}

static void tanhHand(const std::vector<double> &x, double d,
                     std::vector<double> *dx) {
  double *__restrict g = dx->data();
  for (std::size_t i = 0, n = x.size(); i < n; ++i) {
    const double t = std::tanh(x[i]);
    g[i] += d * (1 - t * t);
  }
}

static void compareHand(const std::vector<double> &, double,
                        std::vector<double> *) {}

static void captureHand(const std::vector<double> &x,
                        const std::vector<double> &, double d,
                        std::vector<double> *dx, std::vector<double> *dy) {
  double *__restrict g = dx->data();
  const std::size_t n = x.size();
  for (std::size_t i = 0; i < n; ++i)
    g[i] += 2 * d * x[i];
  (*dy)[0] += d * static_cast<double>(n);
}

static void broadcastHand(const grad::tensor<double> &A,
                          const grad::tensor<double> &b, double, double d,
                          grad::tensor<double> *dA, grad::tensor<double> *db,
                          double *ds) {
  const std::size_t R = A.shape()[0], C = A.shape()[1];
  const double *a = A.data();
  double *__restrict ga = dA->data();
  for (std::size_t i = 0; i < R; ++i) {
    const double bi = b[i];
    double rs = 0;
    for (std::size_t j = 0; j < C; ++j) {
      ga[i * C + j] += d * bi;
      rs += a[i * C + j];
    }
    (*db)[i] += d * rs;
  }
  *ds += d * static_cast<double>(R * C);
}

//===----------------------------------------------------------------------===//
// Inputs, checks and benchmarks
//===----------------------------------------------------------------------===//

namespace {
constexpr std::size_t N = 10000, Rows = 1000, Cols = 1000;

struct Inputs {
  // Away from 0: fabs and cbrt are not differentiable there.
  std::vector<double> X = [] {
    auto V = bench::sample(N, 21, 0.05, 2.0);
    for (std::size_t I = 0; I < V.size(); I += 2)
      V[I] = -V[I];
    return V;
  }();
  std::vector<double> Y = {0.7};
  grad::tensor<double> A{{Rows, Cols}, bench::sample(Rows *Cols, 22)};
  grad::tensor<double> B{{Rows, 1}, bench::sample(Rows, 23)};
  double S = 0.25;
};
Inputs &in() {
  static Inputs I;
  return I;
}

using MapFn = double (*)(const std::vector<double> &);
using MapPb = void (*)(const std::vector<double> &, double,
                       std::vector<double> *);

void checkMap(const char *Name, MapFn F, MapPb Pb, MapPb Hand) {
  std::vector<double> X = in().X, G(N, 0.0), H(N, 0.0);
  Pb(X, 1.0, &G);
  Hand(X, 1.0, &H);
  bench::expectGradient(
      Name, [&] { return F(X); }, X, G, 1e-6, 40, 1e-4);
  bench::expectSame(Name, G, H, 1e-12);
}

void checkAll() {
  checkMap("fabs", mapFabs, mapFabs_pullback, fabsHand);
  checkMap("cbrt", mapCbrt, mapCbrt_pullback, cbrtHand);
  checkMap("tanh", mapTanh, mapTanh_pullback, tanhHand);
  checkMap("composite", mapComposite, mapComposite_pullback, tanhHand);
  checkMap("compare", mapCompare, mapCompare_pullback, compareHand);
#ifdef GRAD_BENCH_ENZYME
  checkMap("fabs/enzyme", mapFabs, enzyme::fabsLoop, fabsHand);
  checkMap("cbrt/enzyme", mapCbrt, enzyme::cbrtLoop, cbrtHand);
  checkMap("tanh/enzyme", mapTanh, enzyme::tanhLoop, tanhHand);
  checkMap("composite/enzyme", mapComposite, enzyme::compositeLoop, tanhHand);
#endif
  Inputs &I = in();
  {
    std::vector<double> X = I.X, Y = I.Y, G(N, 0.0), DY(1, 0.0), H(N, 0.0),
                        HY(1, 0.0);
    mapCapture_pullback(X, Y, 1.0, &G, &DY);
    captureHand(X, Y, 1.0, &H, &HY);
    auto F = [&] { return mapCapture(X, Y); };
    bench::expectGradient("capture.x", F, X, G, 1e-6, 40, 1e-4);
    bench::expectGradient("capture.y", F, Y, DY, 1e-6);
    bench::expectSame("capture.x/hand", G, H, 1e-12);
    bench::expectSame("capture.y/hand", DY, HY, 1e-12);
#ifdef GRAD_BENCH_ENZYME
    std::vector<double> E(N, 0.0), EY(1, 0.0);
    enzyme::captureLoop(X, Y, 1.0, &E, &EY);
    bench::expectSame("capture.x/enzyme", E, H, 1e-12);
    bench::expectSame("capture.y/enzyme", EY, HY, 1e-12);
#endif
  }
  {
    // A smaller broadcast for finite differences; the same code path.
    grad::tensor<double> A({30, 40}, bench::sample(1200, 24)),
        B({30, 1}, bench::sample(30, 25));
    double S = 0.5;
    grad::tensor<double> GA({30, 40}), GB({30, 1}), HA({30, 40}), HB({30, 1});
    double GS = 0, HS = 0;
    broadcastAxpy_pullback(A, B, S, 1.0, &GA, &GB, &GS);
    broadcastHand(A, B, S, 1.0, &HA, &HB, &HS);
    std::vector<double> P(A.begin(), A.end());
    P.insert(P.end(), B.begin(), B.end());
    P.push_back(S);
    std::vector<double> G(GA.begin(), GA.end()), H(HA.begin(), HA.end());
    G.insert(G.end(), GB.begin(), GB.end());
    H.insert(H.end(), HB.begin(), HB.end());
    G.push_back(GS);
    H.push_back(HS);
    auto F = [&] {
      grad::tensor<double> PA({30, 40},
                              std::vector<double>(P.begin(), P.begin() + 1200));
      grad::tensor<double> PB(
          {30, 1}, std::vector<double>(P.begin() + 1200, P.begin() + 1230));
      return broadcastAxpy(PA, PB, P[1230]);
    };
    bench::expectGradient("broadcast", F, P, G, 1e-6, 60);
    bench::expectSame("broadcast/hand", G, H, 1e-12);
  }
}

template <MapFn F> void primal(benchmark::State &S) {
  const auto &X = in().X;
  for (auto _ : S)
    benchmark::DoNotOptimize(F(X));
}
template <MapPb Pb> void gradient(benchmark::State &S) {
  const auto &X = in().X;
  std::vector<double> G(N);
  for (auto _ : S) {
    Pb(X, 1.0, &G);
    benchmark::ClobberMemory();
  }
}

void copyX(benchmark::State &S) {
  const auto &X = in().X;
  for (auto _ : S) {
    std::vector<double> C = X;
    benchmark::DoNotOptimize(C.data());
  }
}

void capturePrimal(benchmark::State &S) {
  Inputs &I = in();
  for (auto _ : S)
    benchmark::DoNotOptimize(mapCapture(I.X, I.Y));
}
template <class Fn> void captureGradient(benchmark::State &S, Fn Pb) {
  Inputs &I = in();
  std::vector<double> G(N), DY(1);
  for (auto _ : S) {
    Pb(I.X, I.Y, 1.0, &G, &DY);
    benchmark::ClobberMemory();
  }
}

void broadcastPrimal(benchmark::State &S) {
  Inputs &I = in();
  for (auto _ : S)
    benchmark::DoNotOptimize(broadcastAxpy(I.A, I.B, I.S));
}
template <class Fn> void broadcastGradient(benchmark::State &S, Fn Pb) {
  Inputs &I = in();
  grad::tensor<double> GA({Rows, Cols}), GB({Rows, 1});
  double GS = 0;
  for (auto _ : S) {
    Pb(I.A, I.B, I.S, 1.0, &GA, &GB, &GS);
    benchmark::ClobberMemory();
  }
}
} // namespace

int main(int argc, char **argv) {
  checkAll();
  using benchmark::RegisterBenchmark;
  RegisterBenchmark("copy/x", copyX);
  RegisterBenchmark("fabs/primal", primal<mapFabs>);
  RegisterBenchmark("fabs/grad", gradient<mapFabs_pullback>);
  RegisterBenchmark("fabs/hand", gradient<fabsHand>);
  RegisterBenchmark("cbrt/primal", primal<mapCbrt>);
  RegisterBenchmark("cbrt/grad", gradient<mapCbrt_pullback>);
  RegisterBenchmark("cbrt/hand", gradient<cbrtHand>);
  RegisterBenchmark("tanh/primal", primal<mapTanh>);
  RegisterBenchmark("tanh/grad", gradient<mapTanh_pullback>);
  RegisterBenchmark("tanh/hand", gradient<tanhHand>);
  RegisterBenchmark("composite/primal", primal<mapComposite>);
  RegisterBenchmark("composite/grad", gradient<mapComposite_pullback>);
  RegisterBenchmark("composite/hand", gradient<tanhHand>);
  RegisterBenchmark("compare/primal", primal<mapCompare>);
  RegisterBenchmark("compare/grad", gradient<mapCompare_pullback>);
  RegisterBenchmark("compare/hand", gradient<compareHand>);
  RegisterBenchmark("capture/primal", capturePrimal);
  RegisterBenchmark("capture/grad",
                    captureGradient<decltype(&mapCapture_pullback)>,
                    &mapCapture_pullback);
  RegisterBenchmark("capture/hand", captureGradient<decltype(&captureHand)>,
                    &captureHand);
  RegisterBenchmark("broadcast/primal", broadcastPrimal);
  RegisterBenchmark("broadcast/grad",
                    broadcastGradient<decltype(&broadcastAxpy_pullback)>,
                    &broadcastAxpy_pullback);
  RegisterBenchmark("broadcast/hand",
                    broadcastGradient<decltype(&broadcastHand)>,
                    &broadcastHand);
#ifdef GRAD_BENCH_ENZYME
  RegisterBenchmark("fabs/enzyme", gradient<enzyme::fabsLoop>);
  RegisterBenchmark("cbrt/enzyme", gradient<enzyme::cbrtLoop>);
  RegisterBenchmark("tanh/enzyme", gradient<enzyme::tanhLoop>);
  RegisterBenchmark("composite/enzyme", gradient<enzyme::compositeLoop>);
  RegisterBenchmark("capture/enzyme",
                    captureGradient<decltype(&enzyme::captureLoop)>,
                    &enzyme::captureLoop);
#endif
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
