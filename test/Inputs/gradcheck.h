//===- gradcheck.h - Value checks for clang-grad lit tests ------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Helpers for executable tests: compare a value with a reference within a
/// relative tolerance and print `ok NAME` or `FAIL NAME got G want W`;
/// central finite differences with Richardson extrapolation (error O(h^4),
/// about 1e-10 relative for smooth double functions); and check_grad, which
/// calls a pullback with seed 1 and checks every adjoint against them.
/// Tests run FileCheck with --implicit-check-not=FAIL and main returns
/// gradcheck::failures().
///
//===----------------------------------------------------------------------===//

#ifndef GRAD_TEST_GRADCHECK_H
#define GRAD_TEST_GRADCHECK_H

#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <tuple>
#include <utility>

namespace gradcheck {

inline int &failureCount() {
  static int N = 0;
  return N;
}
inline int failures() { return failureCount() != 0; }

inline bool expect(const std::string &Name, long double Got, long double Want,
                   long double RelTol = 1e-6, long double AbsTol = 1e-9) {
  bool OK = std::fabs(Got - Want) <= AbsTol + RelTol * std::fabs(Want) &&
            !std::isnan(Got) == !std::isnan(Want);
  if (OK)
    std::printf("ok %s\n", Name.c_str());
  else {
    std::printf("FAIL %s got %.17Lg want %.17Lg\n", Name.c_str(), Got, Want);
    ++failureCount();
  }
  return OK;
}

/// d f / d (argument I) at Args, all arguments double.
template <class F, class... A>
double fd(F f, std::size_t I, A... Args) {
  std::array<double, sizeof...(A)> X{static_cast<double>(Args)...};
  auto Eval = [&](double H) {
    auto Y = X, Z = X;
    Y[I] += H;
    Z[I] -= H;
    double FY = std::apply([&](auto... V) { return (double)f(V...); }, Y);
    double FZ = std::apply([&](auto... V) { return (double)f(V...); }, Z);
    return (FY - FZ) / (2 * H);
  };
  double H = 1e-3 * (std::fabs(X[I]) > 1 ? std::fabs(X[I]) : 1.0);
  return (4 * Eval(H / 2) - Eval(H)) / 3;
}

namespace detail {
template <class PB, class... A, std::size_t... I>
std::array<double, sizeof...(A)> pullback(PB Pb, std::index_sequence<I...>,
                                          A... Args) {
  std::array<double, sizeof...(A)> D{};
  Pb(Args..., 1.0, &D[I]...);
  return D;
}
} // namespace detail

/// Checks every adjoint of a scalar function of doubles.
template <class F, class PB, class... A>
void check_grad(const std::string &Name, F f, PB Pb, A... Args) {
  auto D = detail::pullback(Pb, std::index_sequence_for<A...>{},
                            static_cast<double>(Args)...);
  for (std::size_t I = 0; I < sizeof...(A); ++I)
    expect(Name + ".d" + std::to_string(I), D[I],
           fd(f, I, static_cast<double>(Args)...));
}

} // namespace gradcheck

#endif
