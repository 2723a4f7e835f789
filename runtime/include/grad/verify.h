//===- grad/verify.h - Run-time checks of generated code --------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What generated derivatives check at run time (docs/reliability.md,
/// "Verify mode"). Included by core.h; generated code calls these, users
/// do not.
///
/// Always on, at the entry of a pullback of a `[[grad]]` function: the
/// adjoint of a container parameter has the container's shape
/// (`check_shape`); at the entry of any pullback or forward half: two
/// reference parameters to one number, one not const, are not the same
/// (`check_distinct`).
///
/// With `-fplugin-arg-grad-verify` only (the calls are not generated
/// otherwise, so verify costs nothing when off):
/// - `verify_reread`: memory the reverse sweep reads again instead of
///   taping it holds what the forward sweep read there;
/// - `verify_recall`: a call whose pullback reads memory again gives, run
///   again just before its pullback, the value it gave at the call;
/// - `verify_iteration`: an iteration run again for its reverse reads
///   what its first run read (`verify_mix` hashes the reads);
/// - `verify_distinct`: two parameters the derivative takes as distinct
///   memory do not start at the same address;
/// - `verify_tape`: the tape is balanced when the pullback returns.
/// A failed check prints `grad: verify: ...` naming the source construct
/// and the function, then aborts.
///
//===----------------------------------------------------------------------===//

#ifndef GRAD_VERIFY_H
#define GRAD_VERIFY_H

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <type_traits>

namespace grad::detail {

class stack;

/// Prints `grad: [verify: ]<__what> <__why>` to stderr and aborts. \p
/// __what starts with the source location of the construct.
[[noreturn, gnu::cold, gnu::noinline]] inline void
verify_fail(const char *__what, const char *__why, bool __verify = true) {
  std::fprintf(stderr, "grad: %s%s %s\n", __verify ? "verify: " : "", __what,
               __why);
  std::fflush(stderr);
  std::abort();
}

template <class _Tp, class = void> struct __sized : std::false_type {};
template <class _Tp>
struct __sized<_Tp, std::void_t<decltype(std::declval<const _Tp &>().size()),
                                decltype(std::declval<const _Tp &>()[0])>>
    : std::true_type {};

/// Whether \p __a and \p __b have the same sizes, also nested (a vector of
/// vectors); values of any other type always do.
template <class _Ap, class _Bp>
bool same_shape(const _Ap &__a, const _Bp &__b) {
  if constexpr (__sized<_Ap>::value && __sized<_Bp>::value) {
    if (__a.size() != __b.size())
      return false;
    using _Ea = std::remove_cvref_t<decltype(__a[0])>;
    if constexpr (__sized<_Ea>::value)
      for (std::size_t __i = 0; __i < __a.size(); ++__i)
        if (!::grad::detail::same_shape(__a[__i], __b[__i]))
          return false;
    return true;
  } else {
    return true;
  }
}

/// Always on: the adjoint \p __adj a caller passes for container \p __val
/// has its shape. \p __what: "f.cpp:3:20: in 'f': the adjoint of 'x'".
/// With \p __tangent, \p __adj is the tangent a pushforward's caller
/// passes.
template <class _Ap, class _Vp>
inline void check_shape(const _Ap &__adj, const _Vp &__val,
                        const char *__what, bool __tangent = false) {
  if (!::grad::detail::same_shape(__adj, __val)) [[unlikely]]
    verify_fail(__what,
                __tangent ? "has not the shape of the parameter (pass a "
                            "tangent of the same sizes: one direction "
                            "entry per element)"
                          : "has not the shape of the parameter (pass an "
                            "adjoint of the same sizes, e.g. a zeroed copy "
                            "of the argument)",
                /*__verify=*/false);
}

/// Verify mode: \p __now, read again by the reverse sweep, equals \p
/// __then, what the forward sweep read (bit for bit: a NaN equals
/// itself). Returns \p __now.
template <class _Tp>
inline const _Tp &verify_reread(const _Tp &__now, const _Tp &__then,
                                const char *__what) {
  if constexpr (std::is_trivially_copyable_v<_Tp>) {
    if (std::memcmp(static_cast<const void *>(&__now),
                    static_cast<const void *>(&__then), sizeof(_Tp)) != 0)
        [[unlikely]] {
      char __why[160];
      if constexpr (std::is_floating_point_v<_Tp>)
        std::snprintf(__why, sizeof __why,
                      "was read again by the reverse sweep as %.17g, but "
                      "the forward sweep read %.17g (the memory changed in "
                      "between)",
                      static_cast<double>(__now), static_cast<double>(__then));
      else
        std::snprintf(__why, sizeof __why,
                      "was read again by the reverse sweep and differs from "
                      "what the forward sweep read (the memory changed in "
                      "between)");
      verify_fail(__what, __why);
    }
  }
  return __now;
}

/// Verify mode: \p __now, a call run again just before its pullback,
/// equals \p __then, its value where it was made (bit for bit): the memory
/// it reads, which its pullback reads again, did not change in between.
template <class _Tp>
inline void verify_recall(const _Tp &__now, const _Tp &__then,
                          const char *__what) {
  if (std::memcmp(static_cast<const void *>(&__now),
                  static_cast<const void *>(&__then), sizeof(_Tp)) == 0)
      [[likely]]
    return;
  char __why[200];
  if constexpr (std::is_floating_point_v<_Tp>)
    std::snprintf(__why, sizeof __why,
                  "gives %.17g where its pullback runs, but gave %.17g where "
                  "it was made (memory it reads changed in between)",
                  static_cast<double>(__now), static_cast<double>(__then));
  else
    std::snprintf(__why, sizeof __why,
                  "gives %lld where its pullback runs, but gave %lld where "
                  "it was made (memory it reads changed in between)",
                  static_cast<long long>(__now),
                  static_cast<long long>(__then));
  verify_fail(__what, __why);
}

/// Verify mode: \p __h with the bits of \p __v mixed in (the hash of what
/// an iteration reads of its caller's memory).
template <class _Tp>
inline unsigned long long verify_mix(unsigned long long __h, _Tp __v) {
  unsigned long long __bits = 0;
  std::memcpy(&__bits, &__v, sizeof(_Tp) < sizeof __bits ? sizeof(_Tp)
                                                         : sizeof __bits);
  return (__h ^ __bits) * 0x100000001b3ULL + 0x9e3779b97f4a7c15ULL;
}

/// Verify mode: an iteration run again just before its reverse read, of
/// its caller's memory, what its first run read (\p __now and \p __then:
/// the hashes of both runs).
inline void verify_iteration(unsigned long long __now,
                             unsigned long long __then, const char *__what) {
  if (__now != __then) [[unlikely]]
    verify_fail(__what, "was run again for its reverse and read other values "
                        "than its first run (the memory changed in between)");
}

/// Always on: two reference parameters to one number, one of them not
/// const, which the derivative takes as distinct memory, are not the
/// same (`upd(v[i], v[j])` with i == j).
inline void check_distinct(const void *__a, const void *__b,
                           const char *__what) {
  if (__a == __b) [[unlikely]]
    verify_fail(__what,
                "are the same memory, which the derivative takes as distinct "
                "(pass a copy of one of them)",
                /*__verify=*/false);
}

/// Verify mode: parameters \p __a and \p __b, taken as distinct memory by
/// the derivative, do not start at the same address.
inline void verify_distinct(const void *__a, const void *__b,
                            const char *__what) {
  if (__a && __a == __b) [[unlikely]]
    verify_fail(__what, "are the same memory, which the derivative assumes "
                        "distinct (its result would be wrong)");
}

/// Verify mode: the tape (\p _Sp, the thread's stack) holds as much when
/// the pullback returns as when it started, unless an exception leaves it.
template <class _Sp> class verify_tape {
public:
  verify_tape(_Sp &__st, const char *__what)
      : __stack(__st), __saved(__st.size()),
        __exceptions(std::uncaught_exceptions()), __what(__what) {}
  verify_tape(const verify_tape &) = delete;
  verify_tape &operator=(const verify_tape &) = delete;
  ~verify_tape() {
    if (std::uncaught_exceptions() == __exceptions &&
        __stack.size() != __saved) [[unlikely]] {
      char __why[160];
      std::snprintf(__why, sizeof __why,
                    "is not balanced when the pullback returns (%zu bytes "
                    "at entry, %zu at exit)",
                    __saved, __stack.size());
      verify_fail(__what, __why);
    }
  }

private:
  _Sp &__stack;
  std::size_t __saved;
  int __exceptions;
  const char *__what;
};

template <class _Sp>
verify_tape<_Sp> make_verify_tape(_Sp &__st, const char *__what) {
  return verify_tape<_Sp>(__st, __what);
}

} // namespace grad::detail

#endif // GRAD_VERIFY_H
