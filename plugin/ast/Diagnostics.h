//===- Diagnostics.h - clang-grad diagnostics -------------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The plugin's diagnostics, from the table in Diagnostics.def. Clang 19
/// custom diagnostics ignore -w and -Werror, so report() applies both itself.
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_DIAGNOSTICS_H
#define CLANG_GRAD_DIAGNOSTICS_H

#include "clang/Basic/Diagnostic.h"

#include <string>

namespace clang {
class ASTContext;
class Expr;
class Stmt;
class FunctionDecl;
class NamedDecl;
} // namespace clang

namespace grad {

enum class Diag {
#define GRAD_DIAG(ID, Level, Text) ID,
#include "ast/Diagnostics.def"
  NumDiags
};

/// Emits diagnostic \p D at \p Loc, honouring -w and -Werror for warnings.
clang::DiagnosticBuilder report(clang::DiagnosticsEngine &DE, Diag D,
                                clang::SourceLocation Loc);

/// The construct \p S as the user would name it in a diagnostic ("call to
/// 'f'", "brace initialisation of 'std::vector<double>'"), never by its
/// AST class.
std::string constructName(const clang::Stmt *S);

/// The name of \p D as the user wrote it: a function the plugin made to
/// stand for one of the user's (a callee specialised on the lambdas it is
/// passed, driver/CallableViews.h) takes the name of that one.
std::string nameOf(const clang::NamedDecl *D);
/// Messages name \p D as \p As.
void nameAs(const clang::NamedDecl *D, const clang::NamedDecl *As);

/// \p E as the user wrote it: its source text when it is in a file (and
/// short), else the printed expression.
/// For a write through what a member function returns (`M(0, 0) = x`):
/// when the object's class keeps its numbers behind a raw pointer member,
/// a hint that a std::vector member is supported; empty otherwise.
std::string pointerMemberHint(const clang::Expr *LHS);
std::string spelledExpr(const clang::ASTContext &Ctx, const clang::Expr *E);
/// What a run-time check's message names: "f.cpp:3:20: in 'ns::f': " then
/// \p What ("the adjoint of 'x'").
std::string runtimeCheckSite(const clang::ASTContext &Ctx,
                             clang::SourceLocation Loc,
                             const clang::FunctionDecl *Fn,
                             llvm::StringRef What);

} // namespace grad

#endif
