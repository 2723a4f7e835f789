//===- Complex.h - Derivatives of std::complex values -----------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Calls of <complex>'s functions and operators, classified by the rule
/// that differentiates them (Complex.cpp).
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_COMPLEX_H
#define CLANG_GRAD_COMPLEX_H

#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"

namespace clang {
class CXXConstructExpr;
}

namespace grad {

struct Rule;

enum class ComplexOp {
  Unknown, ///< a <complex> function without a rule: an error if active
  Rule,    ///< a holomorphic rules.def GRAD_COMPLEX row
  Pos,
  Neg,
  Add,
  Sub,
  Mul,
  Div,
  Real,
  Imag,
  Abs,
  Arg,
  Norm,
  Conj,
  Proj,
  Polar,
};

struct ComplexCall {
  ComplexOp Op = ComplexOp::Unknown;
  const Rule *Ru = nullptr;
  const clang::FunctionDecl *Callee = nullptr;
  /// z.real(), z.imag(): Args[0] is the object.
  bool Member = false;
  llvm::SmallVector<const clang::Expr *, 2> Args;
};

/// True if \p FD belongs to <complex>: a function or operator of namespace
/// std with a std::complex parameter or result, or a member of std::complex.
bool isComplexFunction(const clang::FunctionDecl *FD);

/// True if \p CE calls a function or operator of <complex> that takes or
/// returns std::complex values (not its assignments and setters, which
/// write their object); \p CC says how it is differentiated.
bool complexCall(const clang::CallExpr *CE, ComplexCall &CC);

/// `std::complex<double>(re, im)`, `{re}`, a conversion from another
/// complex type: the construction, or null (copies are not).
const clang::CXXConstructExpr *complexConstruction(const clang::Expr *E);

} // namespace grad

#endif
