//===- CaptureCopies.h - When a lambda's copy is the variable ----*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A lambda passed to a function (driver/CallableViews.h) is differentiated
/// as a call passing what it captures. A by-copy capture can be passed as
/// the variable itself only when the variable cannot change between the
/// lambda and the call: this analysis follows the variable's writes in the
/// function's body (by name; through a non-const reference argument at
/// the end of the call) and says when that holds.
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_CAPTURECOPIES_H
#define CLANG_GRAD_CAPTURECOPIES_H

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang {
class Expr;
class SourceManager;
class Stmt;
class VarDecl;
} // namespace clang

namespace grad {

/// True if the copy of \p V a lambda made at \p Made is V's value at the
/// call \p At of \p Body: V is only assigned (or incremented) by name,
/// outside lambdas, and no assignment runs between the two (none after
/// the lambda and before the call, none after the call in a loop around
/// the call that the lambda is made before). The references in \p Passed
/// (the captured variables a rewrite passes to views) are not uses.
bool copyStaysCurrent(const clang::VarDecl *V, clang::SourceLocation Made,
                      clang::SourceLocation At, const clang::Stmt *Body,
                      const clang::SourceManager &SM,
                      const llvm::SmallPtrSetImpl<const clang::Expr *> &Passed);

} // namespace grad

#endif
