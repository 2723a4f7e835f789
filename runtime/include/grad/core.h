//===- core.h - What generated derivatives need at run time -----*- C++ -*-===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The part of the runtime that generated code calls by itself. The plugin
/// includes this header into every translation unit it compiles (users never
/// need to), so it is kept small: a few standard headers and nothing else.
///
/// `stack`: the per-thread LIFO store of a pullback's reverse sweep. The
/// forward sweep pushes the values and control-flow decisions that the
/// reverse sweep reads later (inside loops; straight-line code keeps them in
/// locals), and what the forward half of a split derivative leaves for its
/// reverse half; the reverse sweep pops them in the opposite order. Every
/// pullback of a thread shares one stack, so its memory is allocated while
/// the stack reaches a new high-water mark and then reused: calling a
/// pullback in a loop allocates nothing and touches no new pages in steady
/// state. A `stack_mark` at the start of every pullback restores the top on
/// exit (also when the primal throws) and gives the memory back to the
/// system when the stack is empty again and holds more than `keep_bytes`.
/// The memory is released at thread exit.
///
/// `dual<T, N>` (a value and N derivatives) is defined here too: it is the
/// result type of generated pushforwards; its functions are in dual.h. So
/// is `lanes<T, N>`, the tangents of vector pushforwards.
///
/// It also includes ide.h (`GRAD_IDE_MEMBERS(Class)`, which declares a
/// class's generated members for editors and is empty when compiling).
///
/// Every name the header uses beyond its API is reserved (`__pos`, `_Tp`):
/// it is included into translation units that may define any macro.
///
/// Values are trivially copyable and stored in 8-byte slots. push and pop
/// are O(1): one compare and a store (or load) on the fast path; growth is
/// amortised O(1) and out of line. The top is kept as an offset, not a
/// pointer, and a value is stored as an object of its own type (placement
/// new, read back through std::launder): with clang 19's type-based alias
/// analysis, a pointer store would also be a store to every pointer (a
/// std::vector's data pointer must then be loaded again after each push)
/// and a memcpy'd byte store one to everything (-11% for the GMM gradient).
///
//===----------------------------------------------------------------------===//

#ifndef GRAD_CORE_H
#define GRAD_CORE_H

#if __cplusplus < 202002L
#error "clang-grad's runtime needs C++20: compile with -std=c++20 (or later)"
#else

#include "ide.h"

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

/// In printed derivatives (grad-dump), a call the plugin keeps out of line
/// (the forward half of a split derivative): Clang's statement attribute,
/// nothing for compilers that do not know it.
#if defined(__clang__)
#define GRAD_NOINLINE_CALL [[clang::noinline]]
#else
#define GRAD_NOINLINE_CALL
#endif

namespace grad {

/// A dual number: the value `val` and the derivatives `der[0..N)` of `val`
/// along N seed directions. An aggregate: `dual<double>{x}` is the constant
/// x (all derivatives zero), `dual<double, 2>{x, {1, 0}}` seeds direction 0.
template <class _Tp, std::size_t _Np = 1> struct dual {
  static_assert(_Np > 0, "a dual number needs at least one derivative slot");
  using value_type = _Tp;
  static constexpr std::size_t slots = _Np;

  _Tp val{};      ///< the value
  _Tp der[_Np]{}; ///< der[I]: the derivative of val along seed direction I

  constexpr dual &operator+=(const dual &__o) {
    val += __o.val;
    for (std::size_t __i = 0; __i < _Np; ++__i)
      der[__i] += __o.der[__i];
    return *this;
  }
  constexpr dual &operator-=(const dual &__o) {
    val -= __o.val;
    for (std::size_t __i = 0; __i < _Np; ++__i)
      der[__i] -= __o.der[__i];
    return *this;
  }
  constexpr dual &operator*=(const dual &__o) {
    for (std::size_t __i = 0; __i < _Np; ++__i)
      der[__i] = der[__i] * __o.val + val * __o.der[__i];
    val *= __o.val;
    return *this;
  }
  constexpr dual &operator/=(const dual &__o) {
    val /= __o.val;
    for (std::size_t __i = 0; __i < _Np; ++__i)
      der[__i] = (der[__i] - val * __o.der[__i]) / __o.val;
    return *this;
  }
  constexpr dual &operator+=(const _Tp &__s) {
    val += __s;
    return *this;
  }
  constexpr dual &operator-=(const _Tp &__s) {
    val -= __s;
    return *this;
  }
  constexpr dual &operator*=(const _Tp &__s) {
    val *= __s;
    for (std::size_t __i = 0; __i < _Np; ++__i)
      der[__i] *= __s;
    return *this;
  }
  constexpr dual &operator/=(const _Tp &__s) {
    val /= __s;
    for (std::size_t __i = 0; __i < _Np; ++__i)
      der[__i] /= __s;
    return *this;
  }
};

/// N tangents of one value, one per direction (forward vector mode: the
/// tangents of a `[[grad::forward("lanes=N")]]` pushforward, docs/abi.md).
/// An aggregate: `lanes<double, 3>{{1, 0, 0}}` seeds direction 0, `{}` is
/// zero. Arithmetic is lane by lane, with scalars as C++ mixes arithmetic
/// types (`lanes<float, N> * double` is a `lanes<double, N>`); lanes of
/// different types convert implicitly, as their scalars do.
template <class _Tp, std::size_t _Np> struct lanes {
  static_assert(_Np > 0, "lanes needs at least one direction");
  using value_type = _Tp;
  static constexpr std::size_t size = _Np;

  _Tp der[_Np]{}; ///< der[I]: the tangent along direction I

  constexpr _Tp &operator[](std::size_t __i) { return der[__i]; }
  constexpr const _Tp &operator[](std::size_t __i) const { return der[__i]; }

  template <class _Up> constexpr operator lanes<_Up, _Np>() const {
    lanes<_Up, _Np> __r;
    for (std::size_t __i = 0; __i < _Np; ++__i)
      __r.der[__i] = static_cast<_Up>(der[__i]);
    return __r;
  }
  template <class _Up>
  constexpr lanes &operator+=(const lanes<_Up, _Np> &__o) {
    for (std::size_t __i = 0; __i < _Np; ++__i)
      der[__i] += __o.der[__i];
    return *this;
  }
  template <class _Up>
  constexpr lanes &operator-=(const lanes<_Up, _Np> &__o) {
    for (std::size_t __i = 0; __i < _Np; ++__i)
      der[__i] -= __o.der[__i];
    return *this;
  }
  template <class _Sp, std::enable_if_t<std::is_arithmetic_v<_Sp>, int> = 0>
  constexpr lanes &operator*=(_Sp __s) {
    for (std::size_t __i = 0; __i < _Np; ++__i)
      der[__i] *= __s;
    return *this;
  }
  template <class _Sp, std::enable_if_t<std::is_arithmetic_v<_Sp>, int> = 0>
  constexpr lanes &operator/=(_Sp __s) {
    for (std::size_t __i = 0; __i < _Np; ++__i)
      der[__i] /= __s;
    return *this;
  }
};

template <class _Tp, class _Up, std::size_t _Np>
constexpr lanes<std::common_type_t<_Tp, _Up>, _Np>
operator+(const lanes<_Tp, _Np> &__a, const lanes<_Up, _Np> &__b) {
  lanes<std::common_type_t<_Tp, _Up>, _Np> __r;
  for (std::size_t __i = 0; __i < _Np; ++__i)
    __r.der[__i] = __a.der[__i] + __b.der[__i];
  return __r;
}
template <class _Tp, class _Up, std::size_t _Np>
constexpr lanes<std::common_type_t<_Tp, _Up>, _Np>
operator-(const lanes<_Tp, _Np> &__a, const lanes<_Up, _Np> &__b) {
  lanes<std::common_type_t<_Tp, _Up>, _Np> __r;
  for (std::size_t __i = 0; __i < _Np; ++__i)
    __r.der[__i] = __a.der[__i] - __b.der[__i];
  return __r;
}
template <class _Tp, std::size_t _Np>
constexpr lanes<_Tp, _Np> operator-(const lanes<_Tp, _Np> &__a) {
  lanes<_Tp, _Np> __r;
  for (std::size_t __i = 0; __i < _Np; ++__i)
    __r.der[__i] = -__a.der[__i];
  return __r;
}
template <class _Tp, std::size_t _Np>
constexpr lanes<_Tp, _Np> operator+(const lanes<_Tp, _Np> &__a) {
  return __a;
}
template <class _Tp, std::size_t _Np, class _Sp,
          std::enable_if_t<std::is_arithmetic_v<_Sp>, int> = 0>
constexpr lanes<std::common_type_t<_Tp, _Sp>, _Np>
operator*(const lanes<_Tp, _Np> &__a, _Sp __s) {
  lanes<std::common_type_t<_Tp, _Sp>, _Np> __r;
  for (std::size_t __i = 0; __i < _Np; ++__i)
    __r.der[__i] = __a.der[__i] * __s;
  return __r;
}
template <class _Tp, std::size_t _Np, class _Sp,
          std::enable_if_t<std::is_arithmetic_v<_Sp>, int> = 0>
constexpr lanes<std::common_type_t<_Tp, _Sp>, _Np>
operator*(_Sp __s, const lanes<_Tp, _Np> &__a) {
  lanes<std::common_type_t<_Tp, _Sp>, _Np> __r;
  for (std::size_t __i = 0; __i < _Np; ++__i)
    __r.der[__i] = __s * __a.der[__i];
  return __r;
}
template <class _Tp, std::size_t _Np, class _Sp,
          std::enable_if_t<std::is_arithmetic_v<_Sp>, int> = 0>
constexpr lanes<std::common_type_t<_Tp, _Sp>, _Np>
operator/(const lanes<_Tp, _Np> &__a, _Sp __s) {
  lanes<std::common_type_t<_Tp, _Sp>, _Np> __r;
  for (std::size_t __i = 0; __i < _Np; ++__i)
    __r.der[__i] = __a.der[__i] / __s;
  return __r;
}

} // namespace grad

namespace grad::detail {

/// The result of a vector pushforward: the value and its lanes.
template <class _Tp, class _Up, std::size_t _Np>
constexpr dual<_Tp, _Np> make_dual(_Tp __v, const lanes<_Up, _Np> &__t) {
  dual<_Tp, _Np> __r{__v};
  for (std::size_t __i = 0; __i < _Np; ++__i)
    __r.der[__i] = static_cast<_Tp>(__t.der[__i]);
  return __r;
}
/// The lanes of a vector pushforward's result.
template <class _Tp, std::size_t _Np>
constexpr lanes<_Tp, _Np> lanes_of(const dual<_Tp, _Np> &__d) {
  lanes<_Tp, _Np> __r;
  for (std::size_t __i = 0; __i < _Np; ++__i)
    __r.der[__i] = __d.der[__i];
  return __r;
}

/// A value the stack holds as bytes.
template <class _Tp>
concept __tape_value =
    std::is_trivially_copyable_v<_Tp> ||
    (std::is_trivially_copy_assignable_v<_Tp> &&
     std::is_copy_constructible_v<_Tp> && !std::is_polymorphic_v<_Tp>);

/// A resizable contiguous container of trivially copyable values (a
/// std::vector): the stack records its elements and their count.
template <class _Cp>
concept __tape_container =
    !std::is_trivially_copyable_v<_Cp> &&
    std::is_trivially_copyable_v<typename _Cp::value_type> &&
    requires(_Cp &__c) {
      __c.data();
      __c.resize(__c.size());
    };

/// A container with a shape it can be built from (grad::tensor): the stack
/// records its elements, then its shape; pop builds it again.
template <class _Cp>
concept __tape_shaped =
    !std::is_trivially_copyable_v<_Cp> &&
    std::is_trivially_copyable_v<typename _Cp::value_type> &&
    requires(const _Cp &__c) {
      __c.data();
      __c.size();
      _Cp(__c.shape());
    } &&
    __tape_container<std::remove_cvref_t<
        decltype(std::declval<const _Cp &>().shape())>>;

class stack {
public:
  /// Capacity kept while the stack is empty (larger blocks are freed).
  static constexpr std::size_t keep_bytes = std::size_t(64) << 20;

  stack() = default;
  stack(const stack &) = delete;
  stack &operator=(const stack &) = delete;
  ~stack() { std::free(__begin); }

  template <class _Tp> static constexpr std::size_t slot() {
    return (sizeof(_Tp) + 7) & ~std::size_t(7);
  }

  /// Appends a copy of the value.
  /// (Also a value copied by trivial copy operations whose destructor has
  /// no effect the derivative needs, `struct Box { double v; ~Box() {} }`:
  /// the stack never destroys what it holds.)
  template <class _Tp> void push(const _Tp &__v) {
    static_assert(__tape_value<_Tp>, "the stack holds trivially copyable values");
    if ((__capacity - __pos) < slot<_Tp>()) [[unlikely]]
      __grow(slot<_Tp>());
    ::new (static_cast<void *>(__begin + __pos)) _Tp(__v);
    __pos += slot<_Tp>();
  }

  /// Removes the last value (of the argument's type) into the argument.
  template <class _Tp> void pop(_Tp &__v) {
    static_assert(__tape_value<_Tp>, "the stack holds trivially copyable values");
    __pos -= slot<_Tp>();
    __v = *std::launder(reinterpret_cast<_Tp *>(__begin + __pos));
  }

  /// A std::vector (any resizable contiguous container of trivially
  /// copyable values, such as a map's operand recorded in a loop): its
  /// elements, then their count; pop resizes the container to it.
  template <__tape_container _Cp>
  void push(const _Cp &__c) {
    using _Vp = typename _Cp::value_type;
    const std::size_t __n = __c.size();
    const std::size_t __bytes = (__n * sizeof(_Vp) + 7) & ~std::size_t(7);
    if ((__capacity - __pos) < __bytes) [[unlikely]]
      __grow(__bytes);
    if (__n)
      std::memcpy(__begin + __pos, __c.data(), __n * sizeof(_Vp));
    __pos += __bytes;
    push(__n);
  }
  template <__tape_container _Cp>
  void pop(_Cp &__c) {
    using _Vp = typename _Cp::value_type;
    std::size_t __n;
    pop(__n);
    __pos -= (__n * sizeof(_Vp) + 7) & ~std::size_t(7);
    __c.resize(__n);
    if (__n)
      std::memcpy(static_cast<void *>(__c.data()), __begin + __pos, __n * sizeof(_Vp));
  }

  template <__tape_shaped _Cp> void push(const _Cp &__c) {
    using _Vp = typename _Cp::value_type;
    const std::size_t __n = __c.size();
    const std::size_t __bytes = (__n * sizeof(_Vp) + 7) & ~std::size_t(7);
    if ((__capacity - __pos) < __bytes) [[unlikely]]
      __grow(__bytes);
    if (__n)
      std::memcpy(__begin + __pos, __c.data(), __n * sizeof(_Vp));
    __pos += __bytes;
    push(__c.shape());
  }
  template <__tape_shaped _Cp> void pop(_Cp &__c) {
    using _Vp = typename _Cp::value_type;
    std::remove_cvref_t<decltype(__c.shape())> __shape;
    pop(__shape);
    __c = _Cp(std::move(__shape));
    const std::size_t __n = __c.size();
    __pos -= (__n * sizeof(_Vp) + 7) & ~std::size_t(7);
    if (__n)
      std::memcpy(static_cast<void *>(__c.data()), __begin + __pos, __n * sizeof(_Vp));
  }

  /// Pushes the values in order (a split derivative's frame): one check
  /// for room, then one store per value, inlined.
  template <class... _Tps>
  [[gnu::always_inline]] void push_all(const _Tps &...__vs) {
    if constexpr ((__tape_value<_Tps> && ...)) {
      constexpr std::size_t __bytes = (slot<_Tps>() + ... + 0);
      if ((__capacity - __pos) < __bytes) [[unlikely]]
        __grow(__bytes);
      std::size_t __at = __pos;
      ((::new (static_cast<void *>(__begin + __at)) _Tps(__vs),
        __at += slot<_Tps>()),
       ...);
      __pos += __bytes;
    } else {
      (push(__vs), ...);
    }
  }
  /// Pops what push_all(...) pushed, into the same variables.
  template <class... _Tps>
  [[gnu::always_inline]] void pop_all(_Tps &...__vs) {
    if constexpr ((__tape_value<_Tps> && ...)) {
      constexpr std::size_t __bytes = (slot<_Tps>() + ... + 0);
      __pos -= __bytes;
      std::size_t __at = __pos;
      ((__vs = *std::launder(reinterpret_cast<_Tps *>(__begin + __at)),
        __at += slot<_Tps>()),
       ...);
    } else {
      __pop_reversed(__vs...);
    }
  }

  /// Room for \p __n values of trivially copyable \p _Tp on top of the
  /// stack (a loop's values, stored by iteration): valid until the stack
  /// grows, so no push may come between take() and the last write, nor
  /// between give() and the last read. give<_Tp>(__n) pops the same block
  /// and returns it.
  template <class _Tp> _Tp *take(std::size_t __n) {
    const std::size_t __bytes = (__n * sizeof(_Tp) + 7) & ~std::size_t(7);
    if ((__capacity - __pos) < __bytes) [[unlikely]]
      __grow(__bytes);
    _Tp *__p = reinterpret_cast<_Tp *>(__begin + __pos);
    __pos += __bytes;
    return __p;
  }
  template <class _Tp> _Tp *give(std::size_t __n) {
    __pos -= (__n * sizeof(_Tp) + 7) & ~std::size_t(7);
    return reinterpret_cast<_Tp *>(__begin + __pos);
  }

  /// Bytes in use; a position to come back to with reset().
  std::size_t size() const {
    return __pos;
  }
  std::size_t capacity() const {
    return __capacity;
  }
  bool empty() const { return __pos == 0; }
  /// Number of allocations made so far (for tests).
  std::size_t allocations() const { return __allocations; }

  /// Drops everything above the position it is given.
  void reset(std::size_t __size) {
    __pos = __size;
    if (__size == 0 && capacity() > keep_bytes)
      __release();
  }

private:
  void __pop_reversed() {}
  template <class _Tp, class... _Rest>
  void __pop_reversed(_Tp &__first, _Rest &...__more) {
    __pop_reversed(__more...);
    pop(__first);
  }

  [[gnu::noinline]] void __grow(std::size_t __need) {
    std::size_t __used = size();
    std::size_t __cap = capacity() ? 2 * capacity() : 4096;
    while (__cap - __used < __need)
      __cap *= 2;
    auto *__p = static_cast<unsigned char *>(std::realloc(__begin, __cap));
    if (!__p)
      std::abort();
    ++__allocations;
    __begin = __p;
    __capacity = __cap;
  }
  void __release() {
    std::free(__begin);
    __begin = nullptr;
    __pos = __capacity = 0;
  }

  unsigned char *__begin = nullptr;
  std::size_t __pos = 0, __capacity = 0;
  std::size_t __allocations = 0;
};

/// The calling thread's stack.
inline stack &thread_stack() {
  thread_local stack __s;
  return __s;
}

/// The shadow of heap memory a differentiated function allocates (new[],
/// malloc): zeroed bytes of the same size, freed by the reverse sweep.
inline void *shadow_alloc(std::size_t __bytes) {
  void *__p = std::calloc(__bytes ? __bytes : 1, 1);
  if (!__p)
    std::abort();
  return __p;
}
inline void shadow_free(void *__p) { std::free(__p); }

/// `&w` of a local pointer whose shadow is computed (its storage's shadow
/// plus an offset) and passed as a `T **` to a pullback: an lvalue holding
/// that pointer for the rest of the full expression (the call).
template <class _Tp> inline _Tp *&pointer_lvalue(_Tp *&&__p) noexcept {
  return __p;
}

template <class _Dp, class _Sp, class = void>
struct __adds : std::false_type {};
template <class _Dp, class _Sp>
struct __adds<_Dp, _Sp,
              decltype(void(std::declval<_Dp &>() +=
                            std::declval<const _Sp &>()))>
    : std::true_type {};

/// __dst += __src for scalars (and std::complex), arrays, std::vector,
/// std::array and tensors, also nested (a vector of vectors).
template <class _Dp, class _Sp> void accumulate(_Dp &__dst, const _Sp &__src) {
  if constexpr (std::is_arithmetic_v<_Dp> || __adds<_Dp, _Sp>::value)
    __dst += __src;
  else if constexpr (std::is_array_v<_Dp>)
    for (std::size_t __i = 0; __i < std::extent_v<_Dp>; ++__i)
      ::grad::detail::accumulate(__dst[__i], __src[__i]);
  else
    for (std::size_t __i = 0; __i < __dst.size(); ++__i)
      ::grad::detail::accumulate(__dst[__i], __src[__i]);
}

/// Sets every element (or the scalar) to zero, keeping the shape: arrays
/// (of any rank) and structs of floating members bytewise (IEEE zero is all
/// zero bits), containers element by element.
template <class _Dp> void zero(_Dp &__dst) {
  if constexpr (std::is_arithmetic_v<_Dp>)
    __dst = 0;
  else if constexpr (std::is_trivially_copyable_v<_Dp> ||
                     (std::is_trivially_copy_constructible_v<_Dp> &&
                      std::is_trivially_destructible_v<_Dp> &&
                      std::is_class_v<_Dp>) || // std::pair<double, double>
                     (__tape_value<_Dp> && std::is_class_v<_Dp>)) // ~Box() {}
    std::memset(static_cast<void *>(&__dst), 0, sizeof(_Dp));
  else
    for (auto &__e : __dst)
      ::grad::detail::zero(__e);
}

/// A copy of \p __v with every number zeroed, shaped like it (a std::vector,
/// also of vectors, a std::array): the adjoint of a temporary argument.
template <class _Tp> _Tp zero_like(const _Tp &__v) {
  _Tp __z(__v);
  ::grad::detail::zero(__z);
  return __z;
}

/// A zero object of trivially copyable class \p _Tp (the shadow of a
/// class-type value), made without calling a constructor: \p _Tp may have
/// no default constructor, or one that does not zero.
template <class _Tp> _Tp zeroed() {
  union __bytes {
    unsigned char __b[sizeof(_Tp)];
    _Tp __t;
    __bytes() : __b{} {}
    ~__bytes() {}
  } __z;
  return __z.__t;
}

/// The calling thread's saved objects of type \p _Tp (shadows of objects
/// that own their elements, see slot): last saved, first restored, like
/// the thread's stack, across the halves of split derivatives too.
template <class _Tp> class object_stack {
public:
  ~object_stack() {
    for (std::size_t __i = 0; __i < __count; ++__i)
      __items[__i].~_Tp();
    std::free(__items);
  }
  void push(const _Tp &__v) {
    if (__count == __capacity) {
      std::size_t __n = __capacity ? 2 * __capacity : 4;
      auto *__p = static_cast<_Tp *>(std::malloc(__n * sizeof(_Tp)));
      if (!__p)
        std::abort();
      for (std::size_t __i = 0; __i < __count; ++__i) {
        ::new (static_cast<void *>(__p + __i))
            _Tp(static_cast<_Tp &&>(__items[__i]));
        __items[__i].~_Tp();
      }
      std::free(__items);
      __items = __p;
      __capacity = __n;
    }
    ::new (static_cast<void *>(__items + __count)) _Tp(__v);
    ++__count;
  }
  _Tp &top() { return __items[__count - 1]; }
  void pop() { __items[--__count].~_Tp(); }

private:
  _Tp *__items = nullptr;
  std::size_t __count = 0, __capacity = 0;
};

template <class _Tp> object_stack<_Tp> &saved_objects() {
  thread_local object_stack<_Tp> __s;
  return __s;
}

/// An object that owns its elements as it was before a call of one of its
/// member functions (`m.set(i, j, v)`, or `m.get(i, j)` when the function
/// writes `m` later): keep() saves a copy in the forward sweep, kept()
/// takes it back in the reverse sweep, where the member function's pullback
/// runs on it.
template <class _Tp> void keep(const _Tp &__v) {
  saved_objects<_Tp>().push(__v);
}
template <class _Tp> _Tp kept() {
  object_stack<_Tp> &__s = saved_objects<_Tp>();
  _Tp __v(static_cast<_Tp &&>(__s.top()));
  __s.pop();
  return __v;
}

/// Storage for the shadow of a local object that owns its elements (a
/// class with a std::vector member): declared where the pullback starts,
/// constructed as a copy of the object where the object is declared (so its
/// sizes are the object's), destroyed when the pullback returns. save()
/// keeps the shadow (of each iteration of a loop, or for the reverse half of
/// a split derivative) on the thread's saved objects; restore() brings the
/// last one back.
template <class _Tp> class slot {
public:
  slot() = default;
  slot(const slot &) = delete;
  slot &operator=(const slot &) = delete;
  ~slot() {
    if (__live)
      get().~_Tp();
  }
  /// The object (constructed by the first emplace() or restore()).
  _Tp &get() { return *reinterpret_cast<_Tp *>(__bytes); }
  /// The shadow as a copy of \p __v (its floating data zeroed next).
  void emplace(const _Tp &__v) {
    if (__live) {
      get() = __v;
      return;
    }
    ::new (static_cast<void *>(__bytes)) _Tp(__v);
    __live = true;
  }
  void save() { saved_objects<_Tp>().push(get()); }
  void restore() {
    object_stack<_Tp> &__s = saved_objects<_Tp>();
    if (__live) {
      get() = static_cast<_Tp &&>(__s.top());
    } else {
      ::new (static_cast<void *>(__bytes)) _Tp(static_cast<_Tp &&>(__s.top()));
      __live = true;
    }
    __s.pop();
  }

private:
  alignas(_Tp) unsigned char __bytes[sizeof(_Tp)];
  bool __live = false;
};

/// Restores the stack's top when the pullback that made it returns.
class stack_mark {
public:
  explicit stack_mark(stack &__st) : __stack(__st), __saved(__st.size()) {}
  stack_mark(const stack_mark &) = delete;
  stack_mark &operator=(const stack_mark &) = delete;
  ~stack_mark() { __stack.reset(__saved); }

private:
  stack &__stack;
  std::size_t __saved;
};

/// The element loops that copies of floating elements stand for:
/// `std::copy(first, last, out)` and `std::copy_n(first, n, out)` over
/// pointers (or iterators of a std::vector or std::array), and
/// `std::memcpy` / `std::memmove` between, and `std::memset(p, 0, bytes)`
/// of, floating arrays. The plugin differentiates a call of these in their
/// place (their own bodies end in `__builtin_memmove`); they do what the
/// standard calls do.
template <class _Tp>
_Tp *copy_elements(const _Tp *__first, const _Tp *__last, _Tp *__out) {
  std::ptrdiff_t __n = __last - __first;
  for (std::ptrdiff_t __i = 0; __i < __n; ++__i)
    __out[__i] = __first[__i];
  return __out + __n;
}

template <class _Tp, class _Size>
_Tp *copy_n_elements(const _Tp *__first, _Size __count, _Tp *__out) {
  std::ptrdiff_t __n = static_cast<std::ptrdiff_t>(__count);
  if (__n < 0)
    __n = 0;
  for (std::ptrdiff_t __i = 0; __i < __n; ++__i)
    __out[__i] = __first[__i];
  return __out + __n;
}

/// memcpy and memmove (in statements of their own: their result is not
/// returned): overlapping ranges copy from the end when the destination
/// comes after the source.
template <class _Tp>
void move_elements(_Tp *__dst, const _Tp *__src, std::size_t __bytes) {
  std::size_t __n = __bytes / sizeof(_Tp);
  if (__dst <= __src || __dst >= __src + __n) {
    for (std::size_t __i = 0; __i < __n; ++__i)
      __dst[__i] = __src[__i];
  } else {
    for (std::size_t __k = 0; __k < __n; ++__k) {
      std::size_t __i = __n - 1 - __k;
      __dst[__i] = __src[__i];
    }
  }
}

template <class _Tp> void zero_elements(_Tp *__dst, std::size_t __bytes) {
  std::size_t __n = __bytes / sizeof(_Tp);
  for (std::size_t __i = 0; __i < __n; ++__i)
    __dst[__i] = _Tp(0);
}

/// `a < b`, the order std::sort uses without a comparator.
struct less_than {
  template <class _Tp> bool operator()(const _Tp &__a, const _Tp &__b) const {
    return __a < __b;
  }
};

/// How to sort the \p __n elements of \p __a under \p __less, as swaps:
/// for i = 0, 1, ..., swap the elements at i and `__swaps[i]` (>= i). A
/// stable merge sort of indices; it writes only integers, so no derivative
/// flows through the comparisons.
template <class _Tp, class _Less>
void sort_swaps(const _Tp *__a, std::ptrdiff_t __n, std::ptrdiff_t *__swaps,
                _Less __less) {
  std::ptrdiff_t *__perm = new std::ptrdiff_t[3 * __n];
  std::ptrdiff_t *__scratch = __perm + __n, *__pos = __perm + 2 * __n;
  for (std::ptrdiff_t __i = 0; __i < __n; ++__i)
    __perm[__i] = __i;
  for (std::ptrdiff_t __w = 1; __w < __n; __w *= 2) {
    for (std::ptrdiff_t __lo = 0; __lo < __n; __lo += 2 * __w) {
      std::ptrdiff_t __mid = __lo + __w < __n ? __lo + __w : __n;
      std::ptrdiff_t __hi = __lo + 2 * __w < __n ? __lo + 2 * __w : __n;
      std::ptrdiff_t __i = __lo, __j = __mid, __k = __lo;
      while (__i < __mid && __j < __hi)
        __scratch[__k++] = __less(__a[__perm[__j]], __a[__perm[__i]])
                               ? __perm[__j++]
                               : __perm[__i++];
      while (__i < __mid)
        __scratch[__k++] = __perm[__i++];
      while (__j < __hi)
        __scratch[__k++] = __perm[__j++];
    }
    for (std::ptrdiff_t __i = 0; __i < __n; ++__i)
      __perm[__i] = __scratch[__i];
  }
  // Place i gets element __perm[i]: __pos tracks where each element is,
  // __scratch which element each place holds.
  for (std::ptrdiff_t __i = 0; __i < __n; ++__i)
    __pos[__i] = __scratch[__i] = __i;
  for (std::ptrdiff_t __i = 0; __i < __n; ++__i) {
    std::ptrdiff_t __j = __pos[__perm[__i]];
    __swaps[__i] = __j;
    std::ptrdiff_t __e = __scratch[__i];
    __scratch[__j] = __e;
    __pos[__e] = __j;
    __scratch[__i] = __perm[__i];
    __pos[__perm[__i]] = __i;
  }
  delete[] __perm;
}

/// `std::sort` and `std::stable_sort` of floating elements: the order is
/// found on the values, then the elements are swapped into place (the
/// swaps' adjoints go back in the reverse sweep). The plugin
/// differentiates a call of this in their place; it sorts as they do
/// (stably).
template <class _Tp, class _Less>
void sort_elements(_Tp *__first, _Tp *__last, _Less __less) {
  std::ptrdiff_t __n = __last - __first;
  if (__n < 2)
    return;
  std::ptrdiff_t *__swaps = new std::ptrdiff_t[__n];
  sort_swaps(__first, __n, __swaps, __less);
  for (std::ptrdiff_t __i = 0; __i < __n; ++__i) {
    std::ptrdiff_t __j = __swaps[__i];
    _Tp __t = __first[__i];
    __first[__i] = __first[__j];
    __first[__j] = __t;
  }
  delete[] __swaps;
}

template <class _Tp> void sort_elements(_Tp *__first, _Tp *__last) {
  sort_elements(__first, __last, less_than{});
}

} // namespace grad::detail

#include "sincos.h"
#include "verify.h"

#endif // C++20
#endif // GRAD_CORE_H
