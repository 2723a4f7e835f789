//===- Facts.h - Per-TU caches of the analysis ------------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What the analyses learn about a translation unit and keep for later
/// questions: the forms of standard calls (Selectors.cpp), the expressions
/// evaluated only for their side effects, and memo tables of helper
/// queries. Facts::get returns the translation unit's AstFacts object
/// (ast/Abi.h), whose most derived type is the driver's State.
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_ANALYSIS_FACTS_H
#define CLANG_GRAD_ANALYSIS_FACTS_H

#include "ast/Abi.h"

namespace clang {
class BinaryOperator;
class CallExpr;
class ConditionalOperator;
class IfStmt;
} // namespace clang

namespace grad {

class Facts : public AstFacts {
public:
  static Facts &get(clang::ASTContext &Ctx);
  ~Facts() override;

  /// Local std::function variables: whose only uses are calls (Lift.cpp,
  /// initLambda).
  llvm::DenseMap<const clang::VarDecl *, bool> OnlyCalled;
  /// Conditional forms of std::min / max / clamp calls (Selectors.cpp),
  /// built on first use; null for calls that have none.
  mutable llvm::DenseMap<const clang::CallExpr *,
                         const clang::ConditionalOperator *>
      SelectorForms;
  mutable llvm::DenseSet<const clang::ConditionalOperator *> SelectorParts;
  /// Calls over iterators of contiguous containers as calls over pointers
  /// (Selectors.cpp pointerForm); null for calls that have none.
  mutable llvm::DenseMap<const clang::CallExpr *, const clang::CallExpr *>
      PointerForms;
  /// Expressions evaluated only for their side effects (expression
  /// statements, for-loop increments, the left of a comma, operands of a
  /// void cast) of the bodies noted so far: a reference result may only be
  /// dropped there, and a copy into an iterator or a memcpy has a pointer
  /// form with another result type only there.
  mutable llvm::DenseSet<const clang::Expr *> StatementCalls;
  /// `*std::max_element(v.begin(), v.end())` as the dereference of the
  /// same call over pointers (Selectors.cpp noteDerefForms), for the
  /// bodies noted so far; stripExpr sees through them.
  mutable llvm::DenseMap<const clang::Expr *, const clang::Expr *> DerefForms;
  mutable llvm::DenseSet<const clang::Stmt *> StatementBodies;
  /// Member function definitions whose every return points into their own
  /// object (CallResults.cpp objectArg): bit 0 set if so, bit 1 set if the
  /// body also reads members without floating data (`cols`).
  mutable llvm::DenseMap<const clang::FunctionDecl *, unsigned>
      ObjectAccessors;
  /// Notes the side-effect-only expressions of \p Body (once per body;
  /// before any builder or analysis of it asks for pointer forms).
  void noteStatementCalls(const clang::Stmt *Body) const;
  /// Paths.cpp pointedParam, by canonical helper (-1: none).
  mutable llvm::DenseMap<const clang::FunctionDecl *, int> PointedParams;
  /// Writes.cpp: helpers whose body writes nothing their caller sees.
  mutable llvm::DenseMap<const clang::FunctionDecl *, bool> WritesNothing;
  /// `(c ? a : b) op= e` statements as `if (c) a op= e; else b op= e;`.
  mutable llvm::DenseMap<const clang::BinaryOperator *, const clang::IfStmt *>
      ConditionalAssigns;
};

/// True if \p FD has a non-const pointer or reference parameter to
/// floating data and may write through it (Paths.h writesNothing; with
/// \p Deep false, whatever its body does).
bool writesThroughParams(const clang::FunctionDecl *FD, bool Deep = true);

} // namespace grad

#endif
