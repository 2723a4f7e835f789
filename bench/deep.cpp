//===- deep.cpp - Deep compositions: gradient vs primal at depth N --------===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Issue 6's residual chain h = h + 0.1 * tanh(w * h + b) at depth N, as a
/// recursive [[grad]] function template (chainN, one pullback per level,
/// each recomputing the primal below it) and as a std::vector of N layers
/// looped over (layersN, one taped loop). The figure to read is how
/// grad/primal grows with N: constant for the loop, linear in N for the
/// recursion (the derivative of a call recomputes the callee's primal, so a
/// chain of N nested calls costs O(N^2); docs/performance.md).
///
//===----------------------------------------------------------------------===//

#include "check.h"

#include <benchmark/benchmark.h>
#include <grad/grad.h>

#include <cmath>
#include <vector>

template <int N> [[grad]] double block(double x) {
  if constexpr (N == 0)
    return x;
  else {
    double h = block<N - 1>(x);
    return h + 0.1 * std::tanh((1 + N % 7) * h + 0.5);
  }
}

struct Layer {
  double w, b;
  [[grad]] double operator()(double x) const {
    return x + 0.1 * std::tanh(w * x + b);
  }
};

[[grad]] double layers(const std::vector<Layer> &L, double x) {
  for (std::size_t i = 0; i < L.size(); ++i)
    x = L[i](x);
  return x;
}

template <int N> static void chainPrimal(benchmark::State &St) {
  double x = 0.3;
  for (auto _ : St) {
    benchmark::DoNotOptimize(x);
    benchmark::DoNotOptimize(block<N>(x));
  }
}

template <int N> static void chainGrad(benchmark::State &St) {
  double x = 0.3, d = 0;
  for (auto _ : St) {
    benchmark::DoNotOptimize(x);
    block_pullback<N>(x, 1.0, &d);
    benchmark::DoNotOptimize(d);
  }
}

static std::vector<Layer> network(std::size_t N) {
  std::vector<Layer> L(N);
  for (std::size_t i = 0; i < N; ++i)
    L[i] = {1.0 + double((i + 1) % 7), 0.5}; // level i + 1 of block<N>
  return L;
}

template <int N> static void layersPrimal(benchmark::State &St) {
  std::vector<Layer> L = network(N);
  double x = 0.3;
  for (auto _ : St) {
    benchmark::DoNotOptimize(x);
    benchmark::DoNotOptimize(layers(L, x));
  }
}

template <int N> static void layersGrad(benchmark::State &St) {
  std::vector<Layer> L = network(N), dL(L.size());
  double x = 0.3, d = 0;
  for (auto _ : St) {
    benchmark::DoNotOptimize(x);
    layers_pullback(L, x, 1.0, &dL, &d);
    benchmark::DoNotOptimize(d);
  }
}

BENCHMARK(chainPrimal<8>)->Name("chain8/primal");
BENCHMARK(chainGrad<8>)->Name("chain8/grad");
BENCHMARK(chainPrimal<32>)->Name("chain32/primal");
BENCHMARK(chainGrad<32>)->Name("chain32/grad");
BENCHMARK(chainPrimal<128>)->Name("chain128/primal");
BENCHMARK(chainGrad<128>)->Name("chain128/grad");
BENCHMARK(layersPrimal<128>)->Name("layers128/primal");
BENCHMARK(layersGrad<128>)->Name("layers128/grad");
BENCHMARK(layersPrimal<1024>)->Name("layers1024/primal");
BENCHMARK(layersGrad<1024>)->Name("layers1024/grad");

/// Both shapes compute the same function for the same weights: check the
/// gradients against finite differences before timing anything.
template <int N> static void checkChain() {
  std::vector<double> X{0.3};
  double d = 0;
  block_pullback<N>(X[0], 1.0, &d);
  std::vector<double> Got{d};
  bench::expectGradient("chain", [&] { return block<N>(X[0]); }, X, Got);
  std::vector<Layer> L = network(N), dL(N);
  double dl = 0;
  layers_pullback(L, X[0], 1.0, &dL, &dl);
  bench::expectSame("layers vs chain", std::vector<double>{dl}, Got, 1e-12);
}

int main(int argc, char **argv) {
  checkChain<8>();
  checkChain<128>();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
