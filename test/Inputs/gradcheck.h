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
/// calls a pullback with seed 1 and checks every adjoint against them;
/// check_hvp, which checks a Hessian-vector product along each unit
/// direction against central differences of the pullback.
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
template <class HV, std::size_t... I>
std::array<double, sizeof...(I)> hvp(HV Hv, std::index_sequence<I...>,
                                     const std::array<double, sizeof...(I)> &X,
                                     const std::array<double, sizeof...(I)> &V) {
  std::array<double, sizeof...(I)> H{};
  Hv(X[I]..., V[I]..., &H[I]...);
  return H;
}
template <class PB, std::size_t... I>
std::array<double, sizeof...(I)>
pullbackAt(PB Pb, std::index_sequence<I...>,
           const std::array<double, sizeof...(I)> &X) {
  std::array<double, sizeof...(I)> D{};
  Pb(X[I]..., 1.0, &D[I]...);
  return D;
}
} // namespace detail

/// Checks the Hessian-vector product `Hv(x..., v..., &h...)` of a scalar
/// function of doubles along each unit direction K against central
/// differences of its pullback `Pb(x..., 1.0, &d...)`: `NAME.hKI`.
template <class HV, class PB, class... A>
void check_hvp(const std::string &Name, HV Hv, PB Pb, A... Args) {
  constexpr std::size_t N = sizeof...(A);
  using Seq = std::make_index_sequence<N>;
  std::array<double, N> X{static_cast<double>(Args)...};
  for (std::size_t K = 0; K < N; ++K) {
    std::array<double, N> V{};
    V[K] = 1;
    auto H = detail::hvp(Hv, Seq{}, X, V);
    double E = 1e-5 * (std::fabs(X[K]) > 1 ? std::fabs(X[K]) : 1.0);
    auto Y = X, Z = X;
    Y[K] += E;
    Z[K] -= E;
    auto P = detail::pullbackAt(Pb, Seq{}, Y);
    auto M = detail::pullbackAt(Pb, Seq{}, Z);
    for (std::size_t I = 0; I < N; ++I)
      expect(Name + ".h" + std::to_string(K) + std::to_string(I), H[I],
             (P[I] - M[I]) / (2 * E), 1e-6);
  }
}

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
