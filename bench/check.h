//===- check.h - Start-up gradient checks for the benchmarks ----*- C++ -*-===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Every benchmark binary checks, before it times anything, that the
/// generated gradient and the hand-written one agree with central finite
/// differences on the benchmark's own inputs, and aborts if not: a fast wrong
/// gradient must never reach docs/performance.md.
///
//===----------------------------------------------------------------------===//

#ifndef GRAD_BENCH_CHECK_H
#define GRAD_BENCH_CHECK_H

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace bench {

/// N values in [Lo, Hi], deterministic.
inline std::vector<double> sample(std::size_t N, unsigned Seed, double Lo = -1,
                                  double Hi = 1) {
  std::vector<double> V(N);
  unsigned S = Seed * 2654435761u + 12345u;
  for (auto &X : V) {
    S = S * 1103515245u + 12345u;
    X = Lo + (Hi - Lo) * (((S >> 8) & 0xffff) / 65535.0);
  }
  return V;
}

/// Richardson-extrapolated central difference of F at X along X[I]. F reads
/// X by reference, so X is perturbed in place and restored.
template <class F, class T>
double fdAt(F &&Fn, std::vector<T> &X, std::size_t I, double H = 1e-3) {
  const T Saved = X[I];
  auto Eval = [&](double Step) {
    X[I] = Saved + Step;
    const double Up = Fn();
    X[I] = Saved - Step;
    const double Down = Fn();
    X[I] = Saved;
    return (Up - Down) / (2 * Step);
  };
  return (4 * Eval(H / 2) - Eval(H)) / 3;
}

/// Checks Got[I] against finite differences of Fn along X[I] at up to
/// MaxChecks indices spread over X; prints and aborts on a mismatch.
template <class F, class T, class G>
void expectGradient(const char *Name, F &&Fn, std::vector<T> &X, const G &Got,
                    double RelTol = 1e-5, std::size_t MaxChecks = 24,
                    double H = 1e-3) {
  const std::size_t N = X.size();
  const std::size_t Step = N > MaxChecks ? N / MaxChecks : 1;
  for (std::size_t I = 0; I < N; I += Step) {
    const double Want = fdAt(Fn, X, I, H);
    const double Have = Got[I];
    const double Scale = std::fmax(1.0, std::fabs(Want));
    if (!(std::fabs(Have - Want) <= RelTol * Scale)) {
      std::fprintf(stderr, "FAIL %s d[%zu] got %.17g want %.17g\n", Name, I,
                   Have, Want);
      std::abort();
    }
  }
}

/// Checks two gradients agree elementwise (generated vs hand-written).
template <class A, class B>
void expectSame(const char *Name, const A &Got, const B &Want,
                double RelTol = 1e-9) {
  if (Got.size() != Want.size()) {
    std::fprintf(stderr, "FAIL %s size %zu want %zu\n", Name, Got.size(),
                 Want.size());
    std::abort();
  }
  for (std::size_t I = 0; I < Got.size(); ++I) {
    const double Scale = std::fmax(1.0, std::fabs(double(Want[I])));
    if (!(std::fabs(double(Got[I]) - double(Want[I])) <= RelTol * Scale)) {
      std::fprintf(stderr, "FAIL %s d[%zu] got %.17g want %.17g\n", Name, I,
                   double(Got[I]), double(Want[I]));
      std::abort();
    }
  }
}

} // namespace bench

#endif // GRAD_BENCH_CHECK_H
