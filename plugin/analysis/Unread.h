//===- Unread.h - Calls whose values are never read ------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The calls in the body of a lambda lowered to dual numbers for a pullback
/// (only the derivative part of its result is read) whose value part is
/// never read, so that a rule with a partial over x alone (tanh) can skip
/// computing the value.
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_UNREAD_H
#define CLANG_GRAD_UNREAD_H

#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseSet.h"

namespace grad {

/// Calls of GRAD_RULE1X functions in \p Body whose value no derivative and
/// no returned value part reads: what \p Body returns is read for its
/// derivative only; sums, negations, and products and quotients by a
/// literal pass that on to their operands; a local's initialiser and the
/// right side of its assignments are read as far as the local is; anything
/// else (arguments of calls, conditions, members, references, pointers)
/// reads its operands' values.
llvm::DenseSet<const clang::CallExpr *>
unreadRuleCalls(const clang::Stmt *Body);

} // namespace grad

#endif
