//===- frames.h - Saved forward values of split derivatives -----*- C++ -*-===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A call to a function that itself calls other differentiated functions is
/// differentiated in two halves (docs/design.md, "Split derivatives"): the
/// caller's forward sweep runs `_grad_f_fwd`, which computes f's value and
/// saves what f's reverse sweep needs as one *frame* here; the caller's
/// reverse sweep runs `_grad_f_rev`, which reads that frame back. Without
/// the split, the derivative of f would recompute f's forward sweep, and a
/// chain of N nested calls would cost O(N^2).
///
/// The store is one growing byte buffer per thread. A frame is addressed by
/// the position push_frame returned, so a reverse sweep reads exactly the
/// frame its forward sweep wrote, whatever else was pushed in between. The
/// pullback that starts a chain of split calls remembers frame_top() and
/// hands it to frame_reset() when it is done; the buffer keeps its capacity,
/// so steady-state pullbacks do not allocate.
///
//===----------------------------------------------------------------------===//

#ifndef GRAD_FRAMES_H
#define GRAD_FRAMES_H

#include <cstddef>
#include <cstring>
#include <memory>
#include <type_traits>

namespace grad::detail {

class frame_store {
public:
  std::size_t top() const { return Size; }
  void reset(std::size_t Top) { Size = Top; }

  template <class... T> std::size_t push(const T &...Values) {
    static_assert((std::is_trivially_copyable_v<T> && ...),
                  "frames hold scalars");
    const std::size_t Start = Size;
    const std::size_t Bytes = (sizeof(T) + ... + 0);
    if (Capacity - Size < Bytes) [[unlikely]]
      grow(Bytes);
    unsigned char *At = Data.get() + Size;
    ((std::memcpy(At, &Values, sizeof(T)), At += sizeof(T)), ...);
    Size += Bytes;
    return Start;
  }

  template <class... T> void read(std::size_t Start, T &...Values) const {
    const unsigned char *At = Data.get() + Start;
    ((std::memcpy(&Values, At, sizeof(T)), At += sizeof(T)), ...);
  }

private:
  /// Out of line: the generated code only inlines the fast path.
  [[gnu::noinline]] void grow(std::size_t Bytes) {
    std::size_t NewCapacity = 2 * (Size + Bytes) + 256;
    std::unique_ptr<unsigned char[]> NewData(new unsigned char[NewCapacity]);
    if (Size)
      std::memcpy(NewData.get(), Data.get(), Size);
    Data = std::move(NewData);
    Capacity = NewCapacity;
  }

  std::unique_ptr<unsigned char[]> Data;
  std::size_t Size = 0, Capacity = 0;
};

inline frame_store &frames() {
  thread_local frame_store Store;
  return Store;
}

inline std::size_t frame_top() { return frames().top(); }
inline void frame_reset(std::size_t Top) { frames().reset(Top); }

/// Saves Values as one frame; returns its position.
template <class... T> std::size_t push_frame(const T &...Values) {
  return frames().push(Values...);
}

/// Reads the frame at Start back into Values (same types, same order).
template <class... T> void read_frame(std::size_t Start, T &...Values) {
  frames().read(Start, Values...);
}

} // namespace grad::detail

#endif // GRAD_FRAMES_H
