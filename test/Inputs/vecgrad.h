//===- vecgrad.h - Finite-difference checks over flat vectors ---*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// For control-flow and array tests whose functions take pointers: the test
/// packs every differentiable input into one std::vector<double>, passes a
/// scalar function of that vector, and the gradient its pullback produced
/// (in the same order). Each entry is checked against Richardson-extrapolated
/// central differences with gradcheck::expect (rel 1e-6).
///
//===----------------------------------------------------------------------===//

#ifndef GRAD_TEST_VECGRAD_H
#define GRAD_TEST_VECGRAD_H

#include "gradcheck.h"

#include <cmath>
#include <string>
#include <vector>

namespace vecgrad {

/// d f / d X[I] at X.
template <class F> double fdAt(F f, const std::vector<double> &X, std::size_t I) {
  auto Eval = [&](double H) {
    auto Y = X, Z = X;
    Y[I] += H;
    Z[I] -= H;
    return (f(Y) - f(Z)) / (2 * H);
  };
  double H = 1e-3 * (std::fabs(X[I]) > 1 ? std::fabs(X[I]) : 1.0);
  return (4 * Eval(H / 2) - Eval(H)) / 3;
}

/// Checks Got[I] == d f / d X[I] for every I; names are NAME.dI.
template <class F>
void check(const std::string &Name, F f, const std::vector<double> &X,
           const std::vector<double> &Got, double RelTol = 1e-6) {
  if (Got.size() != X.size()) {
    std::printf("FAIL %s size %zu want %zu\n", Name.c_str(), Got.size(),
                X.size());
    ++gradcheck::failureCount();
    return;
  }
  for (std::size_t I = 0; I < X.size(); ++I)
    gradcheck::expect(Name + ".d" + std::to_string(I), Got[I], fdAt(f, X, I),
                      RelTol);
}

/// N values in [-1, 1], deterministic.
inline std::vector<double> sample(std::size_t N, unsigned Seed = 1) {
  std::vector<double> V(N);
  unsigned S = Seed * 2654435761u + 12345u;
  for (auto &X : V) {
    S = S * 1103515245u + 12345u;
    X = ((S >> 8) & 0xffff) / 32768.0 - 1.0;
  }
  return V;
}

} // namespace vecgrad

#endif
