//===- jacobian.h - Dense Jacobians and Hessians from derivatives -*- C++ -*-===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Assembling dense matrices from the generated derivatives, one column or
/// row per call:
///
///   grad::hessian(n, H, hvp)                  H = d2f/dx2 from n HVPs
///   grad::jacobian_forward(n, m, J, push)     J column by column
///   grad::jacobian_lanes<N>(n, m, J, pushN)   J, N columns per call
///   grad::jacobian_reverse(n, m, J, pull)     J row by row
///   grad::jacobian_reverse_lanes<N>(n, m, J, pullN)  J, N rows per call
///   grad::jacobian(n, m, J, push, pull)       forward when n <= m
///   grad::jacobian<N>(n, m, J, pushN, pull)   lanes when n <= m
///
/// The callables wrap the generated functions (lambdas around
/// NAME_hvp, NAME_pushforward, NAME_pullback), so any parameter layout
/// works:
///
///   hvp(v, d)      adds H v into d                  (v, d: n values)
///   push(t, u)     sets u = J t                     (t: n, u: m values)
///   pushN(t, u)    the same for N directions         (t: n, u: m
///                  grad::lanes<T, N>: a vector pushforward)
///   pull(w, d)     adds J^T w into d                (w: m, d: n values)
///   pullN(w, d)    the same for N seeds              (w: m, d: n
///                  grad::lanes<T, N>: a vector pullback)
///
/// Matrices are row-major: H[i * n + j], J[i * n + j] = d out_i / d in_j.
///
//===----------------------------------------------------------------------===//

#ifndef GRAD_JACOBIAN_H
#define GRAD_JACOBIAN_H

#include <grad/core.h>

#include <cstddef>
#include <vector>

namespace grad {

/// The n x n Hessian of a scalar function of n inputs from n
/// Hessian-vector products with unit directions.
template <class T, class Hvp> void hessian(std::size_t n, T *H, Hvp &&hvp) {
  std::vector<T> V(n, T(0)), D(n);
  for (std::size_t J = 0; J < n; ++J) {
    V[J] = T(1);
    for (T &X : D)
      X = T(0);
    hvp(V.data(), D.data());
    for (std::size_t I = 0; I < n; ++I)
      H[I * n + J] = D[I];
    V[J] = T(0);
  }
}

/// The m x n Jacobian from n pushforwards with unit tangents.
template <class T, class Push>
void jacobian_forward(std::size_t n, std::size_t m, T *J, Push &&push) {
  std::vector<T> Tin(n, T(0)), Tout(m);
  for (std::size_t K = 0; K < n; ++K) {
    Tin[K] = T(1);
    for (T &X : Tout)
      X = T(0);
    push(Tin.data(), Tout.data());
    for (std::size_t I = 0; I < m; ++I)
      J[I * n + K] = Tout[I];
    Tin[K] = T(0);
  }
}

/// The m x n Jacobian from ceil(n / N) vector pushforwards: lane L of call
/// K seeds input K * N + L.
template <std::size_t N, class T, class PushN>
void jacobian_lanes(std::size_t n, std::size_t m, T *J, PushN &&push) {
  std::vector<lanes<T, N>> Tin(n), Tout(m);
  for (std::size_t K0 = 0; K0 < n; K0 += N) {
    std::size_t Width = n - K0 < N ? n - K0 : N;
    for (lanes<T, N> &X : Tin)
      X = lanes<T, N>{};
    for (std::size_t L = 0; L < Width; ++L)
      Tin[K0 + L].der[L] = T(1);
    for (lanes<T, N> &X : Tout)
      X = lanes<T, N>{};
    push(static_cast<const lanes<T, N> *>(Tin.data()), Tout.data());
    for (std::size_t I = 0; I < m; ++I)
      for (std::size_t L = 0; L < Width; ++L)
        J[I * n + K0 + L] = Tout[I].der[L];
  }
}

/// The m x n Jacobian from m pullbacks with unit seeds.
template <class T, class Pull>
void jacobian_reverse(std::size_t n, std::size_t m, T *J, Pull &&pull) {
  std::vector<T> W(m, T(0)), D(n);
  for (std::size_t I = 0; I < m; ++I) {
    W[I] = T(1);
    for (T &X : D)
      X = T(0);
    pull(W.data(), D.data());
    for (std::size_t K = 0; K < n; ++K)
      J[I * n + K] = D[K];
    W[I] = T(0);
  }
}

/// The m x n Jacobian from ceil(m / N) vector pullbacks: lane L of call K
/// seeds output K * N + L.
template <std::size_t N, class T, class PullN>
void jacobian_reverse_lanes(std::size_t n, std::size_t m, T *J,
                            PullN &&pull) {
  std::vector<lanes<T, N>> W(m), D(n);
  for (std::size_t I0 = 0; I0 < m; I0 += N) {
    std::size_t Width = m - I0 < N ? m - I0 : N;
    for (lanes<T, N> &X : W)
      X = lanes<T, N>{};
    for (std::size_t L = 0; L < Width; ++L)
      W[I0 + L].der[L] = T(1);
    for (lanes<T, N> &X : D)
      X = lanes<T, N>{};
    pull(static_cast<const lanes<T, N> *>(W.data()), D.data());
    for (std::size_t L = 0; L < Width; ++L)
      for (std::size_t K = 0; K < n; ++K)
        J[(I0 + L) * n + K] = D[K].der[L];
  }
}

/// The m x n Jacobian by whichever mode needs fewer passes: n pushforwards
/// when n <= m, m pullbacks otherwise.
template <class T, class Push, class Pull>
void jacobian(std::size_t n, std::size_t m, T *J, Push &&push, Pull &&pull) {
  if (n <= m)
    jacobian_forward(n, m, J, push);
  else
    jacobian_reverse(n, m, J, pull);
}

/// The m x n Jacobian by whichever mode needs fewer passes: ceil(n / N)
/// vector pushforwards when n <= m, m pullbacks otherwise.
template <std::size_t N, class T, class PushN, class Pull>
void jacobian(std::size_t n, std::size_t m, T *J, PushN &&push, Pull &&pull) {
  if (n <= m)
    jacobian_lanes<N>(n, m, J, push);
  else
    jacobian_reverse(n, m, J, pull);
}

} // namespace grad

#endif // GRAD_JACOBIAN_H
