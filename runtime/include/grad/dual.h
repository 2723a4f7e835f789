//===- dual.h - Forward-mode dual numbers -----------------------*- C++ -*-===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `dual<T, N>`: a value and N directional derivatives (forward mode). The
/// plugin lowers pure `map`/`broadcast` lambdas to code over dual numbers;
/// users may also use them directly.
///
/// Arithmetic (+ - * /, unary -, compound assignment) mixes a dual with
/// another dual of the same type or with a scalar convertible to T.
/// Comparisons compare values only. Every function of rules.def has an
/// overload `grad::NAME` (found by ADL) generated from the table: one for a
/// dual argument (unary rows), and for n-ary rows one template taking any mix
/// of duals of one type and arithmetic scalars, at least one of them a dual.
/// A scalar argument is a constant: its partial is never evaluated.
///
/// Note that these overloads hide `::sin` & co. for unqualified calls made
/// from inside namespace `grad`; code there calls `std::sin` explicitly.
///
//===----------------------------------------------------------------------===//

#ifndef GRAD_DUAL_H
#define GRAD_DUAL_H

#include "core.h"
#include "rules.h"

#include <cassert>
#include <compare>
#include <cstddef>
#include <limits>
#include <type_traits>

namespace grad {


/// The dual number `Value` with derivative 1 in slot `Index` and 0 elsewhere.
/// Precondition: Index < N.
template <std::size_t N = 1, class T>
constexpr dual<T, N> make_dual(T Value, std::size_t Index = 0) {
  assert(Index < N && "make_dual: seed index out of range");
  dual<T, N> R{Value};
  R.der[Index] = T(1);
  return R;
}

//===----------------------------------------------------------------------===//
// Arithmetic. The scalar operand is std::type_identity_t<T> so that any
// scalar convertible to T (e.g. an int literal) is accepted.
//===----------------------------------------------------------------------===//

template <class T, std::size_t N>
constexpr dual<T, N> operator+(const dual<T, N> &X) {
  return X;
}
template <class T, std::size_t N>
constexpr dual<T, N> operator-(const dual<T, N> &X) {
  dual<T, N> R{-X.val};
  for (std::size_t I = 0; I < N; ++I)
    R.der[I] = -X.der[I];
  return R;
}

#define GRAD_DUAL_ARITH(Op)                                                    \
  template <class T, std::size_t N>                                            \
  constexpr dual<T, N> operator Op(dual<T, N> A, const dual<T, N> &B) {        \
    return A Op## = B;                                                         \
  }                                                                            \
  template <class T, std::size_t N>                                            \
  constexpr dual<T, N> operator Op(dual<T, N> A, std::type_identity_t<T> B) {  \
    return A Op## = B;                                                         \
  }
GRAD_DUAL_ARITH(+)
GRAD_DUAL_ARITH(-)
GRAD_DUAL_ARITH(*)
GRAD_DUAL_ARITH(/)
#undef GRAD_DUAL_ARITH

template <class T, std::size_t N>
constexpr dual<T, N> operator+(std::type_identity_t<T> A, dual<T, N> B) {
  return B += A;
}
template <class T, std::size_t N>
constexpr dual<T, N> operator-(std::type_identity_t<T> A, const dual<T, N> &B) {
  dual<T, N> R = -B;
  return R += A;
}
template <class T, std::size_t N>
constexpr dual<T, N> operator*(std::type_identity_t<T> A, dual<T, N> B) {
  return B *= A;
}
template <class T, std::size_t N>
constexpr dual<T, N> operator/(std::type_identity_t<T> A, const dual<T, N> &B) {
  dual<T, N> R{A / B.val};
  for (std::size_t I = 0; I < N; ++I)
    R.der[I] = -R.val * B.der[I] / B.val;
  return R;
}

//===----------------------------------------------------------------------===//
// Comparisons, on values only (C++20 rewrites the reversed and derived
// forms, so `2 < d` and `d != e` work too).
//===----------------------------------------------------------------------===//

template <class T, std::size_t N>
constexpr bool operator==(const dual<T, N> &A, const dual<T, N> &B) {
  return A.val == B.val;
}
template <class T, std::size_t N>
constexpr bool operator==(const dual<T, N> &A, std::type_identity_t<T> B) {
  return A.val == B;
}
template <class T, std::size_t N>
constexpr auto operator<=>(const dual<T, N> &A, const dual<T, N> &B) {
  return A.val <=> B.val;
}
template <class T, std::size_t N>
constexpr auto operator<=>(const dual<T, N> &A, std::type_identity_t<T> B) {
  return A.val <=> B;
}

//===----------------------------------------------------------------------===//
// The functions of rules.def.
//===----------------------------------------------------------------------===//

namespace detail {
template <class X> inline constexpr bool IsDual = false;
template <class T, std::size_t N>
inline constexpr bool IsDual<dual<T, N>> = true;

/// The first dual type among Xs (void if none).
template <class... Xs> struct FirstDual { using type = void; };
template <class X, class... Xs> struct FirstDual<X, Xs...> {
  using type =
      std::conditional_t<IsDual<X>, X, typename FirstDual<Xs...>::type>;
};
template <class... Xs> using FirstDualT = typename FirstDual<Xs...>::type;

/// Arguments of an n-ary rule: duals of one type and arithmetic scalars, at
/// least one dual.
template <class... Xs>
concept DualArgs = (IsDual<Xs> || ...) &&
                   ((std::is_same_v<Xs, FirstDualT<Xs...>> ||
                     std::is_arithmetic_v<Xs>) &&
                    ...);

template <class T, class X> constexpr T valueOf(const X &V) {
  if constexpr (IsDual<X>)
    return V.val;
  else
    return T(V);
}

/// R.der += P * X.der when X is a dual; nothing for a scalar (a constant).
template <class D, class X, class PartialFn>
constexpr void addPartial(D &R, const X &V, PartialFn Partial) {
  if constexpr (IsDual<X>) {
    const typename D::value_type P = Partial();
    for (std::size_t I = 0; I < D::slots; ++I)
      R.der[I] += P * V.der[I];
  }
}
} // namespace detail

#define GRAD_RULE1(Name, DX)                                                   \
  template <class T, std::size_t N> dual<T, N> Name(const dual<T, N> &X) {     \
    dual<T, N> R{rules::Name##_eval<T>(X.val)};                                \
    const T P = rules::Name##_dx<T>(X.val, R.val);                             \
    for (std::size_t I = 0; I < N; ++I)                                        \
      R.der[I] = P * X.der[I];                                                 \
    return R;                                                                  \
  }

// Also detail::NAME_der: the derivative part alone, through the partial
// that does not read the result, for a call whose value is not needed (the
// plugin emits it where the value is never read; the value is a NaN).
#define GRAD_RULE1X(Name, DX, DXX)                                             \
  GRAD_RULE1(Name, DX)                                                         \
  namespace detail {                                                           \
  template <class T, std::size_t N>                                            \
  dual<T, N> Name##_der(const dual<T, N> &X) {                                 \
    dual<T, N> R{std::numeric_limits<T>::quiet_NaN()};                         \
    const T P = rules::Name##_dxx<T>(X.val);                                   \
    for (std::size_t I = 0; I < N; ++I)                                        \
      R.der[I] = P * X.der[I];                                                 \
    return R;                                                                  \
  }                                                                            \
  }

#define GRAD_RULE2(Name, DA, DB)                                               \
  template <class A, class B>                                                  \
    requires detail::DualArgs<A, B>                                            \
  detail::FirstDualT<A, B> Name(const A &XA, const B &XB) {                    \
    using D = detail::FirstDualT<A, B>;                                        \
    using T = typename D::value_type;                                          \
    const T VA = detail::valueOf<T>(XA), VB = detail::valueOf<T>(XB);          \
    D R{rules::Name##_eval<T>(VA, VB)};                                        \
    detail::addPartial(R, XA,                                                  \
                       [&] { return rules::Name##_da<T>(VA, VB, R.val); });    \
    detail::addPartial(R, XB,                                                  \
                       [&] { return rules::Name##_db<T>(VA, VB, R.val); });    \
    return R;                                                                  \
  }

#define GRAD_RULE3(Name, DA, DB, DC)                                           \
  template <class A, class B, class C>                                         \
    requires detail::DualArgs<A, B, C>                                         \
  detail::FirstDualT<A, B, C> Name(const A &XA, const B &XB, const C &XC) {    \
    using D = detail::FirstDualT<A, B, C>;                                     \
    using T = typename D::value_type;                                          \
    const T VA = detail::valueOf<T>(XA), VB = detail::valueOf<T>(XB),          \
            VC = detail::valueOf<T>(XC);                                       \
    D R{rules::Name##_eval<T>(VA, VB, VC)};                                    \
    detail::addPartial(                                                        \
        R, XA, [&] { return rules::Name##_da<T>(VA, VB, VC, R.val); });        \
    detail::addPartial(                                                        \
        R, XB, [&] { return rules::Name##_db<T>(VA, VB, VC, R.val); });        \
    detail::addPartial(                                                        \
        R, XC, [&] { return rules::Name##_dc<T>(VA, VB, VC, R.val); });        \
    return R;                                                                  \
  }

#include "rules.def"

} // namespace grad

#endif // GRAD_DUAL_H
