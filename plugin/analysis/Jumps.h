//===- Jumps.h - Jumps out of loops and switches ----------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_JUMPS_H
#define CLANG_GRAD_JUMPS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace grad {

/// True if \p St has a `break` that leaves it (not one of a nested loop or
/// switch).
bool hasBreak(const clang::Stmt *St);
/// The first `continue` in \p St that leaves it (not one of a nested
/// loop), or null.
const clang::Stmt *findContinue(const clang::Stmt *St);
/// True if \p Body has a `return` (outside lambdas).
bool hasReturn(const clang::Stmt *Body);
/// True if \p Body has a `break` or `continue` that leaves it, or a
/// `return`.
bool hasJumps(const clang::Stmt *Body);

/// Recognises a counted loop `for (int i = A; i OP B; ++i / i++ / i += 1 /
/// --i ...)` whose body and condition do not write `i`: returns `i` and
/// sets \p Step to +1 or -1 (null otherwise).
const clang::VarDecl *canonicalIndex(const clang::ForStmt *FS, int &Step);

/// The returns of \p St that end the function on their path (the last
/// statement, or last in both branches of a final `if`).
void collectTailReturns(const clang::Stmt *St, clang::ASTContext &Ctx,
                        llvm::SmallPtrSetImpl<const clang::Stmt *> &Out);

} // namespace grad

#endif
