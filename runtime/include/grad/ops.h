//===- ops.h - map, broadcast, reductions and their pullbacks ---*- C++ -*-===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Elementwise operations and reductions over the runtime's containers:
///
///   map(f, xs...)          same-shaped tensor<T>s or std::vector<T>s
///   broadcast(f, xs...)    NumPy broadcasting over tensors, vectors (1-d)
///                          and arithmetic scalars (rank 0)
///   unbroadcast(dy, shape) sums dy over the broadcast-expanded axes
///   sum(x), dot(x, y)      tensor, std::vector, std::array, std::span
///
/// and the pullbacks of the reductions in the plugin's ABI (SPEC.md, "The
/// generated pullback"): adjoints are pointers, never null, and ACCUMULATE
/// (+=) into caller-initialised storage.
///
/// Shape errors throw std::invalid_argument whose message names the function
/// and both shapes, e.g. "grad::map: shape mismatch: argument 1 has shape
/// [2, 3], argument 2 has shape [3, 2]". A std::vector of size n has shape
/// [n]; a scalar has shape [].
///
//===----------------------------------------------------------------------===//

#ifndef GRAD_OPS_H
#define GRAD_OPS_H

#include "tensor.h"

#include <array>
#include <cstddef>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace grad {

namespace detail {
template <class X> inline constexpr bool IsTensor = false;
template <class T> inline constexpr bool IsTensor<tensor<T>> = true;
template <class X> inline constexpr bool IsVector = false;
template <class T, class A>
inline constexpr bool IsVector<std::vector<T, A>> = true;
template <class X> inline constexpr bool IsArray = false;
template <class T, std::size_t N>
inline constexpr bool IsArray<std::array<T, N>> = true;
template <class X> inline constexpr bool IsSpan = false;
template <class T, std::size_t E>
inline constexpr bool IsSpan<std::span<T, E>> = true;

/// Containers that reductions treat as a flat sequence of elements.
template <class X>
concept Flat = IsTensor<X> || IsVector<X> || IsArray<X> || IsSpan<X>;
/// Arguments of broadcast.
template <class X>
concept Broadcastable = IsTensor<X> || IsVector<X> || std::is_arithmetic_v<X>;

template <class X> using ElementT = std::remove_cv_t<typename X::value_type>;

using Shape = std::vector<std::size_t>;

template <class X> Shape shapeOf(const X &V) {
  if constexpr (IsTensor<X>)
    return V.shape();
  else if constexpr (std::is_arithmetic_v<X>)
    return {};
  else
    return {V.size()};
}

[[noreturn]] inline void throwShapes(const char *Fn, const char *What,
                                     const Shape &A, const Shape &B) {
  throwInvalid(message() << "grad::" << Fn << ": " << What << " " << A
                         << " and " << B);
}

/// Throws unless the adjoint D of X has X's shape.
template <class X, class D>
void checkAdjoint(const char *Fn, const X &V, const D &Adj) {
  if (shapeOf(V) != shapeOf(Adj))
    throwShapes(Fn, "adjoint shape differs: primal and adjoint have shapes",
                shapeOf(V), shapeOf(Adj));
}

/// The NumPy broadcast of two shapes.
inline Shape broadcastShapes(const char *Fn, const Shape &A, const Shape &B) {
  const std::size_t R = A.size() > B.size() ? A.size() : B.size();
  Shape Out(R);
  for (std::size_t I = 0; I < R; ++I) {
    // Axis I of the result, aligned at the right; a missing axis is 1.
    const std::size_t EA = I + A.size() >= R ? A[I + A.size() - R] : 1;
    const std::size_t EB = I + B.size() >= R ? B[I + B.size() - R] : 1;
    if (EA != EB && EA != 1 && EB != 1)
      throwShapes(Fn, "cannot broadcast shapes", A, B);
    Out[I] = EA == 1 ? EB : EA;
  }
  return Out;
}

/// Strides, in the elements of an operand of shape In, of each axis of the
/// broadcast shape Out (0 along the axes broadcasting expands).
inline Shape broadcastStrides(const Shape &In, const Shape &Out) {
  Shape S(Out.size(), 0);
  std::size_t Stride = 1;
  for (std::size_t I = In.size(); I-- > 0;) {
    S[I + Out.size() - In.size()] = In[I] == 1 ? 0 : Stride;
    Stride *= In[I];
  }
  return S;
}

/// Calls Fn(Flat, Offsets) for every element of shape Out in row-major
/// order, where Offsets[K] is the element's offset in operand K given that
/// operand's strides (see broadcastStrides).
template <std::size_t K, class Fn>
void forEachBroadcast(const Shape &Out, const std::array<Shape, K> &Strides,
                      Fn &&F) {
  std::array<std::size_t, K> Off{};
  if (shape_size(Out) == 0)
    return;
  const std::size_t R = Out.size();
  if (R == 0) {
    F(std::size_t(0), Off);
    return;
  }
  const std::size_t Inner = Out[R - 1];
  std::array<std::size_t, K> InnerStride;
  for (std::size_t J = 0; J < K; ++J)
    InnerStride[J] = Strides[J][R - 1];
  Shape Idx(R, 0);
  for (std::size_t Flat = 0;;) {
    std::array<std::size_t, K> O = Off;
    for (std::size_t I = 0; I < Inner; ++I) {
      F(Flat++, O);
      for (std::size_t J = 0; J < K; ++J)
        O[J] += InnerStride[J];
    }
    // Advance the outer axes like an odometer.
    for (std::size_t D = R - 1;;) {
      if (D == 0)
        return;
      --D;
      for (std::size_t J = 0; J < K; ++J)
        Off[J] += Strides[J][D];
      if (++Idx[D] < Out[D])
        break;
      for (std::size_t J = 0; J < K; ++J)
        Off[J] -= Strides[J][D] * Out[D];
      Idx[D] = 0;
    }
  }
}

template <class X> decltype(auto) elementAt(const X &V, std::size_t Off) {
  if constexpr (std::is_arithmetic_v<X>)
    return (V);
  else
    return V[Off];
}

template <class F, class... Xs, std::size_t... Is>
auto broadcastImpl(F &F_, std::index_sequence<Is...>, const Xs &...Args) {
  using R = std::remove_cvref_t<decltype(F_(elementAt(Args, 0)...))>;
  Shape Out;
  ((Out = broadcastShapes("broadcast", Out, shapeOf(Args))), ...);
  std::vector<R> Data;
  Data.reserve(shape_size(Out));
  if (((std::is_arithmetic_v<Xs> || shapeOf(Args) == Out) && ...)) {
    // No operand is expanded: a flat loop.
    for (std::size_t I = 0, N = shape_size(Out); I < N; ++I)
      Data.push_back(F_(elementAt(Args, I)...));
  } else {
    const std::array<Shape, sizeof...(Xs)> Strides = {
        broadcastStrides(shapeOf(Args), Out)...};
    forEachBroadcast(Out, Strides, [&](std::size_t, const auto &Off) {
      Data.push_back(F_(elementAt(Args, Off[Is])...));
    });
  }
  return tensor<R>(std::move(Out), std::move(Data));
}
} // namespace detail

//===----------------------------------------------------------------------===//
// map and broadcast
//===----------------------------------------------------------------------===//

/// Applies F elementwise to same-shaped tensors (result: a tensor of F's
/// result type) or same-sized std::vectors (result: a std::vector).
/// \throws std::invalid_argument if the shapes differ.
template <class F, class X, class... Xs>
  requires((detail::IsTensor<X> && (detail::IsTensor<Xs> && ...)) ||
           (detail::IsVector<X> && (detail::IsVector<Xs> && ...)))
auto map(F &&Fn, const X &First, const Xs &...Rest) {
  [[maybe_unused]] std::size_t Arg = 1;
  [[maybe_unused]] auto Check = [&](const auto &V) {
    ++Arg;
    if (detail::shapeOf(V) != detail::shapeOf(First))
      detail::throwInvalid(detail::message()
                           << "grad::map: shape mismatch: argument 1 has shape "
                           << detail::shapeOf(First) << ", argument " << Arg
                           << " has shape " << detail::shapeOf(V));
  };
  (Check(Rest), ...);
  using R = std::remove_cvref_t<decltype(Fn(First[0], Rest[0]...))>;
  std::vector<R> Out;
  Out.reserve(First.size());
  for (std::size_t I = 0, N = First.size(); I < N; ++I)
    Out.push_back(Fn(First[I], Rest[I]...));
  if constexpr (detail::IsTensor<X>)
    return tensor<R>(First.shape(), std::move(Out));
  else
    return Out;
}

/// Applies F elementwise with NumPy broadcasting: shapes are aligned at the
/// right and each axis must agree or be 1 (a missing axis counts as 1); a
/// std::vector is 1-d, an arithmetic scalar is rank 0. The result is a
/// tensor of the broadcast shape, except when every argument is a scalar:
/// then it is F's result itself.
/// \throws std::invalid_argument if two shapes cannot be broadcast.
template <class F, class... Xs>
  requires(sizeof...(Xs) >= 1 && (detail::Broadcastable<Xs> && ...))
auto broadcast(F &&Fn, const Xs &...Args) {
  if constexpr ((std::is_arithmetic_v<Xs> && ...))
    return Fn(Args...);
  else
    return detail::broadcastImpl(Fn, std::index_sequence_for<Xs...>(), Args...);
}

/// The adjoint of an operand of shape Target that was broadcast to
/// dY.shape(): dY summed over the expanded axes, with shape Target (a scalar
/// operand has Target {}).
/// \throws std::invalid_argument if Target does not broadcast to dY.shape().
template <class T>
tensor<T> unbroadcast(const tensor<T> &dY,
                      const std::vector<std::size_t> &Target) {
  if (detail::broadcastShapes("unbroadcast", Target, dY.shape()) != dY.shape())
    detail::throwShapes("unbroadcast", "cannot unbroadcast to shape", Target,
                        dY.shape());
  tensor<T> Out(Target);
  if (Target == dY.shape()) {
    Out += dY;
    return Out;
  }
  const std::array<detail::Shape, 1> Strides = {
      detail::broadcastStrides(Target, dY.shape())};
  detail::forEachBroadcast(
      dY.shape(), Strides,
      [&](std::size_t Flat, const std::array<std::size_t, 1> &Off) {
        Out[Off[0]] += dY[Flat];
      });
  return Out;
}

/// `*dX += unbroadcast(dY, shape of *dX)` for a tensor, std::vector or
/// scalar adjoint: the adjoint step of one broadcast operand.
template <class T, class X>
  requires detail::Broadcastable<X>
void unbroadcast_add(const tensor<T> &dY, X *dX) {
  const tensor<T> G = unbroadcast(dY, detail::shapeOf(*dX));
  if constexpr (std::is_arithmetic_v<X>)
    *dX += G[0];
  else
    for (std::size_t I = 0; I < G.size(); ++I)
      (*dX)[I] += G[I];
}

//===----------------------------------------------------------------------===//
// Reductions and their pullbacks
//===----------------------------------------------------------------------===//

/// The sum of the elements (0 for an empty container).
template <class X>
  requires detail::Flat<X>
detail::ElementT<X> sum(const X &V) {
  detail::ElementT<X> S{};
  for (std::size_t I = 0, N = V.size(); I < N; ++I)
    S += V[I];
  return S;
}

/// The inner product of two equally shaped containers, in their common type.
/// \throws std::invalid_argument if the shapes differ.
template <class X, class Y>
  requires detail::Flat<X> && detail::Flat<Y>
std::common_type_t<detail::ElementT<X>, detail::ElementT<Y>>
dot(const X &A, const Y &B) {
  if (detail::shapeOf(A) != detail::shapeOf(B))
    detail::throwShapes("dot", "shape mismatch:", detail::shapeOf(A),
                        detail::shapeOf(B));
  std::common_type_t<detail::ElementT<X>, detail::ElementT<Y>> S{};
  for (std::size_t I = 0, N = A.size(); I < N; ++I)
    S += A[I] * B[I];
  return S;
}

/// Pullback of `sum(x)`: `d_x[i] += d_ret`. d_x has x's shape (for a span of
/// const elements, pass a span over the writable adjoint storage).
/// \throws std::invalid_argument if *d_x has another shape.
template <class X, class D>
  requires detail::Flat<X> && detail::Flat<D>
void sum_pullback(const X &x, detail::ElementT<X> d_ret, D *d_x) {
  detail::checkAdjoint("sum_pullback", x, *d_x);
  for (std::size_t I = 0, N = d_x->size(); I < N; ++I)
    (*d_x)[I] += d_ret;
}

/// Pullback of `dot(x, y)`: `d_x[i] += d_ret * y[i]`, `d_y[i] += d_ret * x[i]`.
/// \throws std::invalid_argument on any shape mismatch.
template <class X, class Y, class DX, class DY>
  requires detail::Flat<X> && detail::Flat<Y> && detail::Flat<DX> &&
           detail::Flat<DY>
void dot_pullback(const X &x, const Y &y,
                  std::common_type_t<detail::ElementT<X>, detail::ElementT<Y>>
                      d_ret,
                  DX *d_x, DY *d_y) {
  if (detail::shapeOf(x) != detail::shapeOf(y))
    detail::throwShapes("dot_pullback", "shape mismatch:", detail::shapeOf(x),
                        detail::shapeOf(y));
  detail::checkAdjoint("dot_pullback", x, *d_x);
  detail::checkAdjoint("dot_pullback", y, *d_y);
  for (std::size_t I = 0, N = x.size(); I < N; ++I) {
    (*d_x)[I] += d_ret * y[I];
    (*d_y)[I] += d_ret * x[I];
  }
}

} // namespace grad

#endif // GRAD_OPS_H
