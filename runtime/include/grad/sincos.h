//===- sincos.h - sin and cos of one argument from one call -----*- C++ -*-===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Part of core.h (which includes it; include core.h, not this header): the
/// pairs that generated derivatives use for an active `sin(x)` or `cos(x)`.
///
//===----------------------------------------------------------------------===//

#ifndef GRAD_SINCOS_H
#define GRAD_SINCOS_H

#if defined(__GLIBC__)
// glibc's sincos, declared as <math.h> declares it (GNU extension).
extern "C" {
void sincos(double, double *, double *) noexcept;
void sincosf(float, float *, float *) noexcept;
void sincosl(long double, long double *, long double *) noexcept;
}
#endif

namespace grad::detail {

/// sin and cos of one argument from one call. A pullback's forward sweep
/// computes an active `sin(x)` or `cos(x)` with this and keeps the other
/// value for the reverse sweep, which then calls no libm function; calls on
/// the same value in one function (the primal's `sin(theta)` and
/// `cos(theta)`) are merged by the optimiser (`const`, not inlined). glibc's
/// sincos returns bit for bit what sin and cos return.
template <class _Tp> struct sin_cos_pair {
  _Tp __sin, __cos;
};

#if defined(__GLIBC__)
[[gnu::const, gnu::noinline]] inline sin_cos_pair<float>
sin_cos(float __x) noexcept {
  sin_cos_pair<float> __r;
  ::sincosf(__x, &__r.__sin, &__r.__cos);
  return __r;
}
[[gnu::const, gnu::noinline]] inline sin_cos_pair<double>
sin_cos(double __x) noexcept {
  sin_cos_pair<double> __r;
  ::sincos(__x, &__r.__sin, &__r.__cos);
  return __r;
}
[[gnu::const, gnu::noinline]] inline sin_cos_pair<long double>
sin_cos(long double __x) noexcept {
  sin_cos_pair<long double> __r;
  ::sincosl(__x, &__r.__sin, &__r.__cos);
  return __r;
}
#else
[[gnu::const, gnu::noinline]] inline sin_cos_pair<float>
sin_cos(float __x) noexcept {
  return {__builtin_sinf(__x), __builtin_cosf(__x)};
}
[[gnu::const, gnu::noinline]] inline sin_cos_pair<double>
sin_cos(double __x) noexcept {
  return {__builtin_sin(__x), __builtin_cos(__x)};
}
[[gnu::const, gnu::noinline]] inline sin_cos_pair<long double>
sin_cos(long double __x) noexcept {
  return {__builtin_sinl(__x), __builtin_cosl(__x)};
}
#endif

/// One member of the pair, when the other is not read (the plugin's tidy
/// step picks these).
inline sin_cos_pair<float> pair_sin(float __x) noexcept {
  return {__builtin_sinf(__x), 0.F};
}
inline sin_cos_pair<double> pair_sin(double __x) noexcept {
  return {__builtin_sin(__x), 0.};
}
inline sin_cos_pair<long double> pair_sin(long double __x) noexcept {
  return {__builtin_sinl(__x), 0.L};
}
inline sin_cos_pair<float> pair_cos(float __x) noexcept {
  return {0.F, __builtin_cosf(__x)};
}
inline sin_cos_pair<double> pair_cos(double __x) noexcept {
  return {0., __builtin_cos(__x)};
}
inline sin_cos_pair<long double> pair_cos(long double __x) noexcept {
  return {0.L, __builtin_cosl(__x)};
}

} // namespace grad::detail

#endif // GRAD_SINCOS_H
