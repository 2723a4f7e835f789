//===- matmul.h - BLAS matrix product and its pullback ----------*- C++ -*-===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `matmul(A, B)` for 2-d `tensor<float>` / `tensor<double>` and its pullback,
/// both computed by CBLAS sgemm/dgemm (link with -lopenblas or any CBLAS).
/// Mixed float/double arguments convert the float one to double once and
/// still call dgemm. Empty operands (a zero extent) never reach BLAS.
///
/// The two CBLAS prototypes are declared here, so no cblas.h is needed. They
/// are declared under grad-private names bound to the C symbols with an asm
/// label: a user translation unit may include <cblas.h> too, in either order,
/// without "conflicting types" errors (cblas.h uses enum parameter types,
/// which are passed like int).
///
//===----------------------------------------------------------------------===//

#ifndef GRAD_MATMUL_H
#define GRAD_MATMUL_H

#include "tensor.h"

#include <climits>
#include <cstddef>
#include <type_traits>
#include <vector>

namespace grad {
namespace detail {

extern "C" {
/// CBLAS enum values (CBLAS_ORDER, CBLAS_TRANSPOSE).
enum : int { BlasRowMajor = 101, BlasNoTrans = 111, BlasTrans = 112 };

void blasSgemm(int Order, int TransA, int TransB, int M, int N, int K,
               float Alpha, const float *A, int Lda, const float *B, int Ldb,
               float Beta, float *C, int Ldc) __asm__("cblas_sgemm");
void blasDgemm(int Order, int TransA, int TransB, int M, int N, int K,
               double Alpha, const double *A, int Lda, const double *B, int Ldb,
               double Beta, double *C, int Ldc) __asm__("cblas_dgemm");
}

template <class T>
concept BlasFloat = std::is_same_v<T, float> || std::is_same_v<T, double>;

/// C(M x N) = Alpha * op(A) * op(B) + Beta * C, row-major. op(A) is M x K,
/// op(B) is K x N. Does nothing if M, N or K is 0 (C is then either empty or
/// scaled by Beta, which is 1 or unused by our callers).
template <class T>
void gemm(bool TransA, bool TransB, std::size_t M, std::size_t N, std::size_t K,
          T Alpha, const T *A, const T *B, T Beta, T *C) {
  if (M == 0 || N == 0 || K == 0)
    return;
  if (M > INT_MAX || N > INT_MAX || K > INT_MAX)
    throwLength("grad::matmul: matrix extent exceeds BLAS int");
  const int IM = static_cast<int>(M), IN = static_cast<int>(N),
            IK = static_cast<int>(K);
  // Row-major leading dimensions: the stored row length of each operand.
  const int Lda = TransA ? IM : IK, Ldb = TransB ? IK : IN;
  const int OA = TransA ? BlasTrans : BlasNoTrans;
  const int OB = TransB ? BlasTrans : BlasNoTrans;
  if constexpr (std::is_same_v<T, float>)
    blasSgemm(BlasRowMajor, OA, OB, IM, IN, IK, Alpha, A, Lda, B, Ldb, Beta, C,
              IN);
  else
    blasDgemm(BlasRowMajor, OA, OB, IM, IN, IK, Alpha, A, Lda, B, Ldb, Beta, C,
              IN);
}

[[noreturn]] inline void throwMatmul(const char *Fn, const char *What,
                                     const std::vector<std::size_t> &A,
                                     const std::vector<std::size_t> &B) {
  throwInvalid(message() << "grad::" << Fn << ": " << What << " " << A
                         << " and " << B);
}

inline void checkMatmul(const char *Fn, const std::vector<std::size_t> &A,
                        const std::vector<std::size_t> &B) {
  if (A.size() != 2 || B.size() != 2 || A[1] != B[0])
    throwMatmul(Fn, "cannot multiply matrices of shapes", A, B);
}

/// X itself if it already has element type U, else a copy converted into
/// Storage.
template <class U, class T>
const tensor<U> &widen(const tensor<T> &X, tensor<U> &Storage) {
  if constexpr (std::is_same_v<T, U>) {
    return X;
  } else {
    Storage = tensor<U>(X.shape(), std::vector<U>(X.begin(), X.end()));
    return Storage;
  }
}

/// *Adj += Alpha * op(A) * op(B), converting once if Adj is narrower than T.
template <class T, class TAdj>
void gemmAccumulate(bool TransA, bool TransB, std::size_t M, std::size_t N,
                    std::size_t K, const T *A, const T *B, tensor<TAdj> *Adj) {
  if constexpr (std::is_same_v<T, TAdj>) {
    gemm<T>(TransA, TransB, M, N, K, T(1), A, B, T(1), Adj->data());
  } else {
    tensor<T> Tmp({M, N});
    gemm<T>(TransA, TransB, M, N, K, T(1), A, B, T(0), Tmp.data());
    for (std::size_t I = 0; I < Tmp.size(); ++I)
      (*Adj)[I] += static_cast<TAdj>(Tmp[I]);
  }
}
} // namespace detail

/// The matrix product of an M x K and a K x N tensor, an M x N tensor of the
/// wider element type.
/// \throws std::invalid_argument unless both are 2-d with matching inner
/// extents.
template <class TA, class TB>
  requires detail::BlasFloat<TA> && detail::BlasFloat<TB>
tensor<std::common_type_t<TA, TB>> matmul(const tensor<TA> &A,
                                          const tensor<TB> &B) {
  using T = std::common_type_t<TA, TB>;
  detail::checkMatmul("matmul", A.shape(), B.shape());
  tensor<T> WA, WB;
  const tensor<T> &CA = detail::widen(A, WA), &CB = detail::widen(B, WB);
  const std::size_t M = A.shape()[0], K = A.shape()[1], N = B.shape()[1];
  tensor<T> C({M, N});
  detail::gemm<T>(false, false, M, N, K, T(1), CA.data(), CB.data(), T(0),
                  C.data());
  return C;
}

/// Pullback of `C = matmul(A, B)`: `*d_A += d_ret * B^T` and
/// `*d_B += A^T * d_ret`, by BLAS with beta = 1. d_ret has C's shape, the
/// adjoints their primal's.
/// \throws std::invalid_argument on any shape mismatch.
template <class TA, class TB>
  requires detail::BlasFloat<TA> && detail::BlasFloat<TB>
void matmul_pullback(const tensor<TA> &A, const tensor<TB> &B,
                     const tensor<std::common_type_t<TA, TB>> &d_ret,
                     tensor<TA> *d_A, tensor<TB> *d_B) {
  using T = std::common_type_t<TA, TB>;
  detail::checkMatmul("matmul_pullback", A.shape(), B.shape());
  const std::size_t M = A.shape()[0], K = A.shape()[1], N = B.shape()[1];
  if (d_ret.shape() != std::vector<std::size_t>{M, N})
    detail::throwMatmul("matmul_pullback",
                        "seed shape differs from the product's:", d_ret.shape(),
                        {M, N});
  if (d_A->shape() != A.shape())
    detail::throwMatmul("matmul_pullback",
                        "adjoint shape differs: A and d_A have shapes",
                        A.shape(), d_A->shape());
  if (d_B->shape() != B.shape())
    detail::throwMatmul("matmul_pullback",
                        "adjoint shape differs: B and d_B have shapes",
                        B.shape(), d_B->shape());
  tensor<T> WA, WB;
  const tensor<T> &CA = detail::widen(A, WA), &CB = detail::widen(B, WB);
  // dA (M x K) += dC (M x N) * B^T (N x K).
  detail::gemmAccumulate<T>(false, true, M, K, N, d_ret.data(), CB.data(), d_A);
  // dB (K x N) += A^T (K x M) * dC (M x N).
  detail::gemmAccumulate<T>(true, false, K, N, M, CA.data(), d_ret.data(), d_B);
}

} // namespace grad

#endif // GRAD_MATMUL_H
