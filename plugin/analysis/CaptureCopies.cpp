//===- CaptureCopies.cpp - When a lambda's copy is the variable -----------===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "analysis/CaptureCopies.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;

namespace grad {

namespace {
/// The uses of \p V in a body: loads, assignments and increments of V
/// itself (where they are), and any other use (its address taken, a
/// reference bound to it, a write from inside a lambda), after which any
/// later write may change it.
struct Uses : RecursiveASTVisitor<Uses> {
  const VarDecl *V;
  /// The captured variables the rewrite passes to views (what they do
  /// with them is in the lambdas' bodies).
  const llvm::SmallPtrSetImpl<const Expr *> *Passed = nullptr;
  unsigned Refs = 0, Loads = 0, InLambda = 0;
  llvm::SmallVector<SourceLocation, 4> Writes;
  bool isV(const Expr *E) const {
    E = E->IgnoreParens();
    while (const auto *IC = dyn_cast<ImplicitCastExpr>(E)) {
      if (IC->getCastKind() != CK_NoOp)
        break;
      E = IC->getSubExpr()->IgnoreParens();
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    return DRE && DRE->getDecl() == V && !Passed->count(DRE);
  }
  bool TraverseLambdaExpr(LambdaExpr *L) {
    ++InLambda;
    bool R = RecursiveASTVisitor::TraverseLambdaExpr(L);
    --InLambda;
    return R;
  }
  // (A capture names the variable; what the lambda does with it is in its
  // body.)
  bool TraverseLambdaCapture(LambdaExpr *L, const LambdaCapture *C,
                             Expr *Init) {
    return !L->isInitCapture(C) ||
           RecursiveASTVisitor::TraverseLambdaCapture(L, C, Init);
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    Refs += DRE->getDecl() == V && !Passed->count(DRE);
    return true;
  }
  /// The references to V an lvalue \p E may be (`c ? x : y`).
  unsigned named(const Expr *E) const {
    E = E->IgnoreParens();
    if (const auto *CO = dyn_cast<ConditionalOperator>(E))
      return named(CO->getTrueExpr()) + named(CO->getFalseExpr());
    return isV(E);
  }
  bool VisitImplicitCastExpr(ImplicitCastExpr *IC) {
    if (IC->getCastKind() == CK_LValueToRValue)
      Loads += named(IC->getSubExpr());

    return true;
  }
  // (Bound to a const reference parameter: read; to another reference
  // parameter: written when the call returns.)
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD)
      return true;
    unsigned Off = isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(FD);
    for (unsigned I = Off; I < CE->getNumArgs(); ++I) {
      if (I - Off >= FD->getNumParams())
        break;
      QualType T = FD->getParamDecl(I - Off)->getType();
      if (!T->isReferenceType() || !isV(CE->getArg(I)))
        continue;
      if (T.getNonReferenceType().isConstQualified())
        ++Loads;
      else
        written(CE->getArg(I), CE->getEndLoc());
    }
    return true;
  }
  void written(const Expr *Target, SourceLocation At) {
    if (isV(Target) && !InLambda) {
      ++Loads; // (accounted for)
      Writes.push_back(At);
    }
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    // (It writes once its right operand is computed.)
    if (BO->isAssignmentOp())
      written(BO->getLHS(), BO->getEndLoc());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp())
      written(UO->getSubExpr(), UO->getExprLoc());
    return true;
  }
  llvm::SmallVector<SourceRange, 4> Loops;
  bool VisitStmt(Stmt *St) {
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(St))
      Loops.push_back(St->getSourceRange());
    return true;
  }
};

} // namespace

bool copyStaysCurrent(const VarDecl *V, SourceLocation Made, SourceLocation At,
                      const Stmt *Body, const SourceManager &SM,
                      const llvm::SmallPtrSetImpl<const Expr *> &Passed) {
  Uses U;
  U.V = V;
  U.Passed = &Passed;
  U.TraverseStmt(const_cast<Stmt *>(Body));
  if (U.Refs != U.Loads)
    return false;
  auto Before = [&](SourceLocation A, SourceLocation B) {
    return SM.isBeforeInTranslationUnit(A, B);
  };
  auto Within = [&](SourceLocation L, SourceRange R) {
    return !Before(L, R.getBegin()) && !Before(R.getEnd(), L);
  };
  for (SourceLocation W : U.Writes) {
    if (Before(W, Made))
      continue;
    if (Before(W, At))
      return false;
    for (SourceRange R : U.Loops)
      if (Within(At, R) && Within(W, R) && !Within(Made, R))
        return false;
  }
  return true;
}

} // namespace grad
