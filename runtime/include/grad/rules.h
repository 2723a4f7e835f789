//===- rules.h - Scalar derivative rules as C++ functions -------*- C++ -*-===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Expands rules.def into function templates in `grad::rules`, one set per
/// row:
///
///   unary   NAME(x):       T NAME_eval(T x)
///                          T NAME_dx(T x, T y)
///   binary  NAME(a, b):    T NAME_eval(T a, T b)
///                          T NAME_da(T a, T b, T y), T NAME_db(T a, T b, T y)
///   ternary NAME(a, b, c): T NAME_eval(T a, T b, T c)
///                          T NAME_da/NAME_db/NAME_dc(T a, T b, T c, T y)
///
/// `NAME_eval` calls `std::NAME`; `y` is its result. Every partial is evaluated
/// in `T`: `K(v)` becomes `T(v)` (the literal is read as a long double so no
/// precision is lost for `long double`), `select(c, t, f)` becomes
/// `c ? T(t) : T(f)`, and the math functions of the rules.def vocabulary are
/// the `std::` overloads for `T` (found before any `grad::` overload, so this
/// header composes with dual.h).
///
/// The dual-number overloads (dual.h) and the finite-difference unit test
/// are built on these helpers, so a new row in rules.def needs no new code.
///
//===----------------------------------------------------------------------===//

#ifndef GRAD_RULES_H
#define GRAD_RULES_H

#include <cmath>
#include <cstddef> // __GLIBCXX__ for the libstdc++ test below

// std::min and std::max come with <cmath> and <vector> in libstdc++; the
// runtime includes no <algorithm> (a sixth of a translation unit's parse
// time) and gives std::clamp's definition itself (lib::clamp).
#if !defined(__GLIBCXX__)
#include <algorithm>
#endif

namespace grad::rules {

/// The primal functions of the rows of rules.def.
namespace lib {
using std::fma;
/// std::clamp as libstdc++ defines it: min(max(v, lo), hi).
template <class T> constexpr T clamp(T v, T lo, T hi) {
  const T m = (v < lo) ? lo : v;
  return (hi < m) ? hi : m;
}
} // namespace lib

// The rules.def vocabulary; a new function in a partial must be added here.
/// v * v, v evaluated once (libm calls may set errno and are not merged).
template <class T> constexpr T sq(T v) { return v * v; }

#define GRAD_RULES_VOCABULARY                                                  \
  using std::sin, std::cos, std::sinh, std::cosh, std::exp, std::log,          \
      std::sqrt, std::pow, std::trunc

#pragma push_macro("K")
#pragma push_macro("select")
#undef K
#undef select
#define K(V) T(V##L)
#define select(Cond, True, False) ((Cond) ? T(True) : T(False))

#define GRAD_RULE1(Name, DX)                                                   \
  template <class T> T Name##_eval(T x) {                                      \
    using std::Name;                                                           \
    return Name(x);                                                            \
  }                                                                            \
  template <class T> T Name##_dx([[maybe_unused]] T x, [[maybe_unused]] T y) { \
    GRAD_RULES_VOCABULARY;                                                     \
    return T(DX);                                                              \
  }

// The partial over x alone, for when the result is not needed.
#define GRAD_RULE1X(Name, DX, DXX)                                             \
  GRAD_RULE1(Name, DX)                                                         \
  template <class T> T Name##_dxx(T x) {                                       \
    GRAD_RULES_VOCABULARY;                                                     \
    return T(DXX);                                                             \
  }

#define GRAD_RULE2(Name, DA, DB)                                               \
  template <class T> T Name##_eval(T a, T b) {                                 \
    using std::Name;                                                           \
    return Name(a, b);                                                         \
  }                                                                            \
  template <class T>                                                           \
  T Name##_da([[maybe_unused]] T a, [[maybe_unused]] T b,                      \
              [[maybe_unused]] T y) {                                          \
    GRAD_RULES_VOCABULARY;                                                     \
    return T(DA);                                                              \
  }                                                                            \
  template <class T>                                                           \
  T Name##_db([[maybe_unused]] T a, [[maybe_unused]] T b,                      \
              [[maybe_unused]] T y) {                                          \
    GRAD_RULES_VOCABULARY;                                                     \
    return T(DB);                                                              \
  }

#define GRAD_RULE3(Name, DA, DB, DC)                                           \
  template <class T> T Name##_eval(T a, T b, T c) {                            \
    return lib::Name(a, b, c);                                                 \
  }                                                                            \
  template <class T>                                                           \
  T Name##_da([[maybe_unused]] T a, [[maybe_unused]] T b,                      \
              [[maybe_unused]] T c, [[maybe_unused]] T y) {                    \
    GRAD_RULES_VOCABULARY;                                                     \
    return T(DA);                                                              \
  }                                                                            \
  template <class T>                                                           \
  T Name##_db([[maybe_unused]] T a, [[maybe_unused]] T b,                      \
              [[maybe_unused]] T c, [[maybe_unused]] T y) {                    \
    GRAD_RULES_VOCABULARY;                                                     \
    return T(DB);                                                              \
  }                                                                            \
  template <class T>                                                           \
  T Name##_dc([[maybe_unused]] T a, [[maybe_unused]] T b,                      \
              [[maybe_unused]] T c, [[maybe_unused]] T y) {                    \
    GRAD_RULES_VOCABULARY;                                                     \
    return T(DC);                                                              \
  }

#include "rules.def"

#undef K
#undef select
#pragma pop_macro("select")
#pragma pop_macro("K")
#undef GRAD_RULES_VOCABULARY

} // namespace grad::rules

#endif // GRAD_RULES_H
