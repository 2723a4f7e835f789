//===- Sites.h - Where a body's derivatives flow ----------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The places of a body through which a derivative flows: an assignment to
/// or from a differentiated value, the initialiser of a local holding one,
/// a returned differentiated value, a single heap object built from one.
/// A builder must model each (give it a derivative, or refuse it); after a
/// body is built, the builder checks that it did (default deny: a construct
/// that fell through to a replay or a constant is an error, not a silently
/// wrong derivative).
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_SITES_H
#define CLANG_GRAD_SITES_H

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace grad {

class Activity;

/// One place: \p At (an assignment, a return statement, a new-expression,
/// the declaration statement of \p Var), with \p Var for an initialiser.
struct DerivativeSite {
  const clang::Stmt *At = nullptr;
  const clang::VarDecl *Var = nullptr;
};

/// The sites of \p Body (lambda bodies excluded: each is built as a
/// function of its own), in source order, by \p Act's activity.
void derivativeSites(const clang::Stmt *Body, Activity &Act,
                     llvm::SmallVectorImpl<DerivativeSite> &Out);

/// The sites of \p Sites that \p Seen (a builder's modelled nodes) does not
/// cover. A site is covered by itself, by its local, or by the value it
/// takes (the right operand, the initialiser, the returned value, the heap
/// object's initialiser) having been given a derivative.
void unmodelledSites(llvm::ArrayRef<DerivativeSite> Sites,
                     llvm::function_ref<bool(const void *)> Seen,
                     llvm::SmallVectorImpl<DerivativeSite> &Out);
/// The site as the user wrote it, for a message: "local 's'", "'s *= y'",
/// "'return s + t'"; and where it is.
std::string siteName(const clang::ASTContext &Ctx, const DerivativeSite &Site);
clang::SourceLocation siteLoc(const DerivativeSite &Site);

/// "sites: 3:5 's = s + x * x', 4:12 'return s'" (lines and columns in
/// \p Body's file), for -fplugin-arg-grad-print-activity.
std::string printSites(const clang::ASTContext &Ctx,
                       llvm::ArrayRef<DerivativeSite> Sites);

} // namespace grad

#endif
