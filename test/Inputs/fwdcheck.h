//===- fwdcheck.h - Checks of pushforwards against differences --*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// For forward-mode tests: every input of the function under test is packed
/// into one std::vector<double> X; the test passes f(X) (the primal) and the
/// directional derivative its pushforward gave along a direction V, which is
/// checked against Richardson-extrapolated central differences of f along
/// V (rel 1e-6). `each` runs a check along every unit direction and a
/// mixed one.
///
//===----------------------------------------------------------------------===//

#ifndef GRAD_TEST_FWDCHECK_H
#define GRAD_TEST_FWDCHECK_H

#include "gradcheck.h"

#include <cmath>
#include <string>
#include <vector>

namespace fwdcheck {

/// d/dh f(X + h V) at h = 0.
template <class F>
double fdAlong(F f, const std::vector<double> &X,
               const std::vector<double> &V) {
  auto At = [&](double H) {
    auto Y = X;
    for (std::size_t I = 0; I < Y.size(); ++I)
      Y[I] += H * V[I];
    return (double)f(Y);
  };
  double Scale = 1;
  for (double Xi : X)
    Scale = std::fmax(Scale, std::fabs(Xi));
  double H = 1e-3 * Scale;
  auto D = [&](double H) { return (At(H) - At(-H)) / (2 * H); };
  return (4 * D(H / 2) - D(H)) / 3;
}

/// Checks Tan(X, V) (a pushforward's derivative along V) against f for
/// every unit direction and the direction (1, -0.5, 0.25, ...).
/// Every unit direction of R^n and the direction (1, -0.5, 0.25, ...).
inline std::vector<std::vector<double>> directions(std::size_t N) {
  std::vector<std::vector<double>> Dirs;
  for (std::size_t I = 0; I < N; ++I) {
    std::vector<double> V(N, 0.0);
    V[I] = 1;
    Dirs.push_back(V);
  }
  std::vector<double> Mixed(N);
  double C = 1;
  for (double &M : Mixed) {
    M = C;
    C *= -0.5;
  }
  Dirs.push_back(Mixed);
  return Dirs;
}

template <class F, class T>
void each(const std::string &Name, F f, T Tan, const std::vector<double> &X,
          double RelTol = 1e-6) {
  std::vector<std::vector<double>> Dirs = directions(X.size());
  for (std::size_t K = 0; K < Dirs.size(); ++K)
    gradcheck::expect(Name + ".v" + std::to_string(K),
                      (double)Tan(X, Dirs[K]), fdAlong(f, X, Dirs[K]), RelTol);
}

/// Checks a vector pushforward with N lanes: the directions of `each` are
/// taken N at a time; Tan(X, D) gets D[i].der[k], the i-th component of the
/// batch's k-th direction, and returns the N directional derivatives.
template <std::size_t N, class F, class T>
void lanes(const std::string &Name, F f, T Tan, const std::vector<double> &X,
           double RelTol = 1e-6) {
  std::vector<std::vector<double>> Dirs = directions(X.size());
  for (std::size_t K0 = 0; K0 < Dirs.size(); K0 += N) {
    std::vector<grad::lanes<double, N>> D(X.size());
    for (std::size_t K = K0; K < K0 + N && K < Dirs.size(); ++K)
      for (std::size_t I = 0; I < X.size(); ++I)
        D[I].der[K - K0] = Dirs[K][I];
    auto Got = Tan(X, D);
    for (std::size_t K = K0; K < K0 + N && K < Dirs.size(); ++K)
      gradcheck::expect(Name + ".v" + std::to_string(K),
                        (double)Got.der[K - K0], fdAlong(f, X, Dirs[K]),
                        RelTol);
  }
}

/// For f(x, y) with [[grad, grad::forward]]: the pullback's adjoints and
/// the pushforward along each axis against differences of f, and the
/// pushforward's value against f.
template <class F, class PB, class PF>
void both(const std::string &Name, F f, PB pb, PF pf, double x, double y) {
  gradcheck::check_grad(Name, f, pb, x, y);
  gradcheck::expect(Name + ".fwd.x", pf(x, y, 1.0, 0.0).der[0],
                    gradcheck::fd(f, 0, x, y));
  gradcheck::expect(Name + ".fwd.y", pf(x, y, 0.0, 1.0).der[0],
                    gradcheck::fd(f, 1, x, y));
  gradcheck::expect(Name + ".fwd.val", pf(x, y, 0.3, -0.7).val, f(x, y));
}

} // namespace fwdcheck

#endif
