//===- tensor.h - Owning row-major N-d array --------------------*- C++ -*-===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `tensor<T>`: an owning, row-major (C order) N-d array, plus `zeros_like`
/// (the zero adjoint of any supported container) and `shape_to_string`.
///
/// Shape errors throw std::invalid_argument. The runtime formats their
/// messages itself and includes neither <string> nor <stdexcept> (with
/// libstdc++; they are a third of a translation unit's parse time), so
/// `shape_to_string`, a template returning std::string, needs <string> where
/// it is called.
///
/// A tensor's shape is a std::vector<std::size_t>; its size is the product
/// of the extents, so a rank-0 tensor (shape {}) holds one element and any
/// zero extent makes it empty. A default-constructed tensor has shape {0}.
///
//===----------------------------------------------------------------------===//

#ifndef GRAD_TENSOR_H
#define GRAD_TENSOR_H

#include <array>
#include <cassert>
#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(__GLIBCXX__)
#include <bits/stringfwd.h> // std::string, declared only
#else
#include <stdexcept>
#include <string>
#endif

namespace grad {
namespace detail {

/// An error message of at most 511 characters (longer ones end in "..."),
/// built without <string>: `message() << "shape " << Shape << " needs " << N`.
class message {
public:
  message &operator<<(const char *S) {
    while (*S)
      put(*S++);
    return *this;
  }
  message &operator<<(std::size_t N) {
    char Digits[24];
    int K = 0;
    do
      Digits[K++] = static_cast<char>('0' + N % 10);
    while ((N /= 10) != 0);
    while (K)
      put(Digits[--K]);
    return *this;
  }
  /// "[2, 3]" for shape {2, 3}; "[]" for a rank-0 shape.
  message &operator<<(const std::vector<std::size_t> &Shape) {
    *this << "[";
    for (std::size_t I = 0; I < Shape.size(); ++I)
      *this << (I != 0 ? ", " : "") << Shape[I];
    return *this << "]";
  }
  const char *c_str() const { return Buf; }

private:
  void put(char C) {
    if (Len + 1 < sizeof(Buf)) {
      Buf[Len++] = C;
      Buf[Len] = 0;
    } else {
      Buf[Len - 3] = Buf[Len - 2] = Buf[Len - 1] = '.';
    }
  }
  char Buf[512] = {};
  std::size_t Len = 0;
};

/// Throws std::invalid_argument(M.c_str()).
[[noreturn]] inline void throwInvalid(const message &M) {
#if defined(__GLIBCXX__)
  std::__throw_invalid_argument(M.c_str());
#else
  throw std::invalid_argument(M.c_str());
#endif
}

/// Throws std::length_error(What).
[[noreturn]] inline void throwLength(const char *What) {
#if defined(__GLIBCXX__)
  std::__throw_length_error(What);
#else
  throw std::length_error(What);
#endif
}

} // namespace detail

/// "[2, 3]" for shape {2, 3}; "[]" for a rank-0 shape. (A template only so
/// that the header needs no <string>: include it where this is called.)
template <class String = std::string>
String shape_to_string(const std::vector<std::size_t> &Shape) {
  return String((detail::message() << Shape).c_str());
}

/// The number of elements of a tensor of shape Shape.
inline std::size_t shape_size(const std::vector<std::size_t> &Shape) {
  std::size_t N = 1;
  for (std::size_t E : Shape)
    N *= E;
  return N;
}

template <class T> class tensor {
public:
  using value_type = T;
  using size_type = std::size_t;
  using reference = typename std::vector<T>::reference;
  using const_reference = typename std::vector<T>::const_reference;
  using iterator = typename std::vector<T>::iterator;
  using const_iterator = typename std::vector<T>::const_iterator;

  /// An empty tensor of shape {0}.
  tensor() : Shape{0} {}
  /// A tensor of the given shape with every element equal to Fill.
  explicit tensor(std::vector<std::size_t> Shape, T Fill = T{})
      : Shape(std::move(Shape)), Data(shape_size(this->Shape), Fill) {}
  /// A tensor of the given shape holding Data in row-major order. (A braced
  /// single value, `tensor<double>({1}, {2.0})`, selects the fill
  /// constructor; pass `std::vector<double>{2.0}` to mean the data.)
  /// \throws std::invalid_argument if Data.size() is not the shape's size.
  tensor(std::vector<std::size_t> Shape, std::vector<T> Data)
      : Shape(std::move(Shape)), Data(std::move(Data)) {
    if (this->Data.size() != shape_size(this->Shape))
      detail::throwInvalid(detail::message()
                           << "grad::tensor: shape " << this->Shape
                           << " needs " << shape_size(this->Shape)
                           << " elements, got " << this->Data.size());
  }

  const std::vector<std::size_t> &shape() const { return Shape; }
  size_type rank() const { return Shape.size(); }
  size_type size() const { return Data.size(); }
  bool empty() const { return Data.empty(); }

  T *data() { return Data.data(); }
  const T *data() const { return Data.data(); }

  /// Flat (row-major) element access. Precondition: I < size().
  reference operator[](size_type I) {
    assert(I < Data.size() && "tensor index out of range");
    return Data[I];
  }
  const_reference operator[](size_type I) const {
    assert(I < Data.size() && "tensor index out of range");
    return Data[I];
  }

  /// Element (I0, I1, ...). Precondition: one index per axis, each in range.
  template <class... Is>
    requires(std::is_integral_v<Is> && ...)
  reference operator()(Is... Idx) {
    return Data[offset(Idx...)];
  }
  template <class... Is>
    requires(std::is_integral_v<Is> && ...)
  const_reference operator()(Is... Idx) const {
    return Data[offset(Idx...)];
  }

  iterator begin() { return Data.begin(); }
  iterator end() { return Data.end(); }
  const_iterator begin() const { return Data.begin(); }
  const_iterator end() const { return Data.end(); }
  const_iterator cbegin() const { return Data.cbegin(); }
  const_iterator cend() const { return Data.cend(); }

  /// Elementwise accumulation (adjoints accumulate with +=).
  /// \throws std::invalid_argument if the shapes differ.
  tensor &operator+=(const tensor &O) {
    checkSameShape(O, "+=");
    for (size_type I = 0; I < Data.size(); ++I)
      Data[I] += O.Data[I];
    return *this;
  }
  tensor &operator-=(const tensor &O) {
    checkSameShape(O, "-=");
    for (size_type I = 0; I < Data.size(); ++I)
      Data[I] -= O.Data[I];
    return *this;
  }
  tensor &operator*=(const T &S) {
    for (auto &&E : Data)
      E *= S;
    return *this;
  }

  /// Same shape and equal elements.
  friend bool operator==(const tensor &A, const tensor &B) {
    return A.Shape == B.Shape && A.Data == B.Data;
  }

private:
  template <class... Is> size_type offset(Is... Idx) const {
    assert(sizeof...(Is) == Shape.size() && "wrong number of tensor indices");
    size_type Off = 0, Axis = 0;
    ((assert(static_cast<size_type>(Idx) < Shape[Axis] &&
             "tensor index out of range"),
      Off = Off * Shape[Axis++] + static_cast<size_type>(Idx)),
     ...);
    return Off;
  }

  void checkSameShape(const tensor &O, const char *Op) const {
    if (Shape != O.Shape)
      detail::throwInvalid(detail::message()
                           << "grad::tensor " << Op << ": shape mismatch "
                           << Shape << " vs " << O.Shape);
  }

  std::vector<std::size_t> Shape;
  std::vector<T> Data;
};

/// A zero-filled object shaped like X: the initial value of an adjoint.
template <class T> tensor<T> zeros_like(const tensor<T> &X) {
  return tensor<T>(X.shape());
}
template <class T, class A>
std::vector<T, A> zeros_like(const std::vector<T, A> &X) {
  return std::vector<T, A>(X.size(), T{}, X.get_allocator());
}
template <class T, std::size_t N>
std::array<T, N> zeros_like(const std::array<T, N> &) {
  return {};
}
template <class T>
  requires std::is_arithmetic_v<T>
T zeros_like(const T &) {
  return T{};
}

} // namespace grad

#endif // GRAD_TENSOR_H
