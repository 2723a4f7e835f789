//===- CopyBody.h - A function's body copied into another -------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The body of an ordinary (non-template) function rebuilt, node by node,
/// as the body of another function with parameters of the same types: its
/// locals declared anew, its references pointed at the new parameters and
/// locals. Sema's instantiation machinery rebuilds the statements (as for
/// Replay.h, with no template arguments); since Clang leaves the locals of
/// a non-dependent function alone while it substitutes, every reference is
/// pointed at a stand-in declared in the new function for the duration of
/// the rebuild, and at the local the rebuild declared after it.
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_COPYBODY_H
#define CLANG_GRAD_COPYBODY_H

#include "clang/AST/Decl.h"
#include "llvm/ADT/ArrayRef.h"

#include <string>

namespace clang {
class Sema;
class Stmt;
} // namespace clang

namespace grad {

/// \p Def's body rebuilt for \p Into, whose parameters \p Params stand for
/// Def's, one for one; null with the reason in \p Why (a construct the
/// copy does not rebuild: a lambda, a static local, a label, a structured
/// binding) or after a Sema error.
clang::Stmt *copyBody(clang::Sema &S, const clang::FunctionDecl *Def,
                      clang::FunctionDecl *Into,
                      llvm::ArrayRef<clang::ParmVarDecl *> Params,
                      std::string &Why);

} // namespace grad

#endif
