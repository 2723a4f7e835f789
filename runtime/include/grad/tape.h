//===- tape.h - LIFO store for the reverse pass -----------------*- C++ -*-===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `tape<T>`: the stack on which a pullback's forward sweep saves overwritten
/// values and control-flow decisions (branch taken, loop trip counts) for the
/// reverse sweep to pop in reverse order.
///
/// Storage is a list of blocks that never move and are never freed before the
/// tape is destroyed: block K holds min(First << K, Max) elements (about 1 KiB
/// growing to 64 KiB). Popping back into an earlier block keeps the later
/// ones for reuse, so a tape that is filled and drained repeatedly (a loop in
/// a pullback called many times) allocates only while it reaches a new
/// high-water mark. Constructing an empty tape allocates nothing.
///
/// Complexity: push, pop, back, size, empty are O(1); the fast path of push
/// is one pointer compare and a store, of pop one compare and a load. Moving
/// to a new block is amortised O(1) (a block allocation, only the first time
/// the tape grows that far). clear() is O(1) for trivially destructible T,
/// otherwise O(size()). References returned by back() stay valid until that
/// element is popped or the tape is cleared, moved from or destroyed.
///
//===----------------------------------------------------------------------===//

#ifndef GRAD_TAPE_H
#define GRAD_TAPE_H

#include <cassert>
#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace grad {

template <class T> class tape {
public:
  using value_type = T;
  using size_type = std::size_t;

  tape() = default;
  tape(const tape &) = delete;
  tape &operator=(const tape &) = delete;
  tape(tape &&O) noexcept { steal(O); }
  tape &operator=(tape &&O) noexcept {
    if (this != &O) {
      release();
      steal(O);
    }
    return *this;
  }
  ~tape() { release(); }

  /// Appends a copy of V.
  void push(const T &V) {
    if (Cur == End) [[unlikely]]
      nextBlock();
    ::new (static_cast<void *>(Cur)) T(V);
    ++Cur;
  }
  /// Appends V, moved.
  void push(T &&V) {
    if (Cur == End) [[unlikely]]
      nextBlock();
    ::new (static_cast<void *>(Cur)) T(std::move(V));
    ++Cur;
  }
  /// Appends T(Args...) and returns it.
  template <class... Args> T &emplace(Args &&...A) {
    if (Cur == End) [[unlikely]]
      nextBlock();
    T *P = ::new (static_cast<void *>(Cur)) T(std::forward<Args>(A)...);
    ++Cur;
    return *P;
  }

  /// Removes the last element and returns it. Precondition: !empty().
  T pop() {
    if (Cur == Begin) [[unlikely]]
      prevBlock();
    --Cur;
    T V = std::move(*Cur);
    Cur->~T();
    return V;
  }

  /// The last element. Precondition: !empty().
  T &back() {
    assert(!empty() && "tape::back on an empty tape");
    return Cur != Begin ? Cur[-1] : Blocks[CurBlock - 1].End[-1];
  }
  const T &back() const { return const_cast<tape *>(this)->back(); }

  size_type size() const {
    return Before + static_cast<size_type>(Cur - Begin);
  }
  bool empty() const { return Cur == Begin && Before == 0; }

  /// Destroys all elements; keeps the blocks for reuse.
  void clear() {
    destroyAll();
    if (!Blocks.empty()) {
      enterBlock(0, 0);
      Cur = Begin;
    }
  }

  /// Number of blocks allocated so far (they are kept until destruction).
  size_type block_count() const { return Blocks.size(); }
  /// Number of elements the allocated blocks can hold.
  size_type capacity() const {
    size_type N = 0;
    for (const Block &B : Blocks)
      N += static_cast<size_type>(B.End - B.Begin);
    return N;
  }

private:
  struct Block {
    T *Begin;
    T *End;
  };

  static constexpr size_type FirstBlockBytes = 1024;
  static constexpr size_type MaxBlockBytes = 64 * 1024;
  static constexpr size_type FirstBlock =
      sizeof(T) >= FirstBlockBytes ? 1 : FirstBlockBytes / sizeof(T);
  static constexpr size_type MaxBlock =
      sizeof(T) >= MaxBlockBytes ? 1 : MaxBlockBytes / sizeof(T);

  static size_type blockSize(size_type K) {
    size_type N = FirstBlock;
    for (; K > 0 && N < MaxBlock; --K)
      N *= 2;
    return N < MaxBlock ? N : MaxBlock;
  }

  void enterBlock(size_type K, size_type ElementsBefore) {
    CurBlock = K;
    Before = ElementsBefore;
    Begin = Blocks[K].Begin;
    End = Blocks[K].End;
  }

  /// The current block is full (or there is none): move to the next one,
  /// allocating it the first time.
  [[gnu::noinline]] void nextBlock() {
    size_type K = Blocks.empty() ? 0 : CurBlock + 1;
    size_type ElementsBefore = Blocks.empty() ? 0 : size();
    if (K == Blocks.size()) {
      Blocks.reserve(K + 1);
      size_type N = blockSize(K);
      T *P = static_cast<T *>(
          ::operator new(N * sizeof(T), std::align_val_t(alignof(T))));
      Blocks.push_back({P, P + N});
    }
    enterBlock(K, ElementsBefore);
    Cur = Begin;
  }

  /// The current block is empty: step back to the (full) previous one.
  [[gnu::noinline]] void prevBlock() {
    assert(!Blocks.empty() && CurBlock > 0 && "tape::pop on an empty tape");
    const Block &Prev = Blocks[CurBlock - 1];
    enterBlock(CurBlock - 1,
               Before - static_cast<size_type>(Prev.End - Prev.Begin));
    Cur = End;
  }

  static void destroy(T *First, T *Last) {
    for (; First != Last; ++First)
      First->~T();
  }

  void destroyAll() {
    if constexpr (!std::is_trivially_destructible_v<T>) {
      for (size_type K = 0; K < CurBlock && K < Blocks.size(); ++K)
        destroy(Blocks[K].Begin, Blocks[K].End);
      if (!Blocks.empty())
        destroy(Begin, Cur);
    }
  }

  void release() {
    destroyAll();
    for (const Block &B : Blocks)
      ::operator delete(B.Begin, std::align_val_t(alignof(T)));
    Blocks.clear();
    Cur = Begin = End = nullptr;
    CurBlock = Before = 0;
  }

  void steal(tape &O) {
    Blocks = std::move(O.Blocks);
    Cur = std::exchange(O.Cur, nullptr);
    Begin = std::exchange(O.Begin, nullptr);
    End = std::exchange(O.End, nullptr);
    CurBlock = std::exchange(O.CurBlock, 0);
    Before = std::exchange(O.Before, 0);
    O.Blocks.clear();
  }

  T *Cur = nullptr;   ///< next free slot in the current block
  T *Begin = nullptr; ///< the current block
  T *End = nullptr;
  size_type CurBlock = 0; ///< index of the current block in Blocks
  size_type Before = 0;   ///< elements in the (full) blocks before it
  std::vector<Block> Blocks;
};

} // namespace grad

#endif // GRAD_TAPE_H
