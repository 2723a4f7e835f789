//===- mapcheck.h - Element-wise gradient checks for map tests --*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Finite-difference checks over the elements of a std::vector, a
/// grad::tensor or a scalar, for the map / broadcast lit tests:
/// check_elems(Name, F, X, DX) compares DX[i] with the central difference
/// of the scalar function F (a function of X alone) in X[i], printing
/// `ok Name[i]` or `FAIL Name[i] got G want W` through gradcheck::expect.
///
//===----------------------------------------------------------------------===//

#ifndef GRAD_TEST_MAPCHECK_H
#define GRAD_TEST_MAPCHECK_H

#include "gradcheck.h"

#include <grad/grad.h>

#include <cmath>
#include <string>
#include <type_traits>

namespace mapcheck {

/// d F / d X[I] (Richardson-extrapolated central difference); for a scalar
/// X, I is ignored.
template <class F, class X> double fdAt(F f, const X &Xv, std::size_t I) {
  auto At = [&](X &V) -> double & {
    if constexpr (std::is_arithmetic_v<X>)
      return V;
    else
      return V[I];
  };
  X Copy = Xv;
  const double X0 = At(Copy);
  auto Eval = [&](double H) {
    X Y = Xv, Z = Xv;
    At(Y) = X0 + H;
    At(Z) = X0 - H;
    return ((double)f(Y) - (double)f(Z)) / (2 * H);
  };
  double H = 1e-3 * (std::fabs(X0) > 1 ? std::fabs(X0) : 1.0);
  return (4 * Eval(H / 2) - Eval(H)) / 3;
}

/// Checks every element of the adjoint DX of X against finite differences
/// of F.
template <class F, class X, class D>
void check_elems(const std::string &Name, F f, const X &Xv, const D &DX) {
  if constexpr (std::is_arithmetic_v<X>) {
    gradcheck::expect(Name, DX, fdAt(f, Xv, 0));
  } else {
    if (DX.size() != Xv.size()) {
      gradcheck::expect(Name + ".size", DX.size(), Xv.size());
      return;
    }
    for (std::size_t I = 0; I < Xv.size(); ++I)
      gradcheck::expect(Name + "[" + std::to_string(I) + "]", DX[I],
                        fdAt(f, Xv, I));
  }
}

/// Checks every element of DX against the closed form Want[i].
template <class D, class W>
void check_values(const std::string &Name, const D &DX, const W &Want) {
  for (std::size_t I = 0; I < Want.size(); ++I)
    gradcheck::expect(Name + "[" + std::to_string(I) + "]", DX[I], Want[I]);
}

} // namespace mapcheck

#endif
