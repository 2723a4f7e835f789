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
/// Values are trivially copyable and stored in 8-byte slots. push and pop
/// are O(1): one compare and a store (or load) on the fast path; growth is
/// amortised O(1) and out of line.
///
//===----------------------------------------------------------------------===//

#ifndef GRAD_CORE_H
#define GRAD_CORE_H

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <type_traits>

namespace grad::detail {

class stack {
public:
  /// Capacity kept while the stack is empty (larger blocks are freed).
  static constexpr std::size_t keep_bytes = std::size_t(64) << 20;

  stack() = default;
  stack(const stack &) = delete;
  stack &operator=(const stack &) = delete;
  ~stack() { std::free(Begin); }

  template <class T> static constexpr std::size_t slot() {
    return (sizeof(T) + 7) & ~std::size_t(7);
  }

  /// Appends a copy of V.
  template <class T> void push(const T &V) {
    static_assert(std::is_trivially_copyable_v<T>,
                  "the stack holds trivially copyable values");
    if (static_cast<std::size_t>(End - Top) < slot<T>()) [[unlikely]]
      grow(slot<T>());
    std::memcpy(Top, &V, sizeof(T));
    Top += slot<T>();
  }

  /// Removes the last value, which has type T, into V.
  template <class T> void pop(T &V) {
    static_assert(std::is_trivially_copyable_v<T>,
                  "the stack holds trivially copyable values");
    Top -= slot<T>();
    std::memcpy(static_cast<void *>(&V), Top, sizeof(T));
  }

  /// Pushes Values in order (a split derivative's frame).
  template <class... T> void push_all(const T &...Values) {
    (push(Values), ...);
  }
  /// Pops what push_all(Values...) pushed, into the same variables.
  template <class... T> void pop_all(T &...Values) {
    popReversed(Values...);
  }

  /// Bytes in use; a position to come back to with reset().
  std::size_t size() const { return static_cast<std::size_t>(Top - Begin); }
  std::size_t capacity() const { return static_cast<std::size_t>(End - Begin); }
  bool empty() const { return Top == Begin; }
  /// Number of allocations made so far (for tests).
  std::size_t allocations() const { return Allocations; }

  /// Drops everything above position Size.
  void reset(std::size_t Size) {
    Top = Begin + Size;
    if (Size == 0 && capacity() > keep_bytes)
      release();
  }

private:
  void popReversed() {}
  template <class T, class... Rest> void popReversed(T &First, Rest &...More) {
    popReversed(More...);
    pop(First);
  }

  [[gnu::noinline]] void grow(std::size_t Need) {
    std::size_t Used = size();
    std::size_t Cap = capacity() ? 2 * capacity() : 4096;
    while (Cap - Used < Need)
      Cap *= 2;
    auto *P = static_cast<unsigned char *>(std::realloc(Begin, Cap));
    if (!P)
      std::abort();
    ++Allocations;
    Begin = P;
    Top = P + Used;
    End = P + Cap;
  }
  void release() {
    std::free(Begin);
    Begin = Top = End = nullptr;
  }

  unsigned char *Begin = nullptr, *Top = nullptr, *End = nullptr;
  std::size_t Allocations = 0;
};

/// The calling thread's stack.
inline stack &thread_stack() {
  thread_local stack S;
  return S;
}

/// The shadow of heap memory a differentiated function allocates (new[],
/// malloc): zeroed bytes of the same size, freed by the reverse sweep.
inline void *shadow_alloc(std::size_t Bytes) {
  void *P = std::calloc(Bytes ? Bytes : 1, 1);
  if (!P)
    std::abort();
  return P;
}
inline void shadow_free(void *P) { std::free(P); }

/// Restores the stack's top when the pullback that made it returns.
class stack_mark {
public:
  explicit stack_mark(stack &S) : S(S), Size(S.size()) {}
  stack_mark(const stack_mark &) = delete;
  stack_mark &operator=(const stack_mark &) = delete;
  ~stack_mark() { S.reset(Size); }

private:
  stack &S;
  std::size_t Size;
};

} // namespace grad::detail

#endif // GRAD_CORE_H
