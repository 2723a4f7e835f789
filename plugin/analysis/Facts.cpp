//===- Facts.cpp - Per-TU caches of the analysis ----------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "analysis/Facts.h"
#include "analysis/Paths.h"
#include "analysis/Selectors.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace grad {

Facts &Facts::get(ASTContext &Ctx) {
  // The driver installs a Make that builds its State, a Facts.
  return static_cast<Facts &>(AstFacts::get(Ctx));
}

Facts::~Facts() { clearDerefForms(&DerefForms); }

/// Collects the expressions of \p St evaluated only for their side
/// effects: expression statements, for-loop increments, the left of a
/// comma, operands of a void cast (through parentheses and cleanups).
static void collectDiscarded(const Stmt *St,
                             llvm::DenseSet<const Expr *> &Out) {
  if (!St)
    return;
  auto Add = [&](const Stmt *C) {
    const auto *E = dyn_cast_or_null<Expr>(C);
    while (E) {
      Out.insert(E);
      if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
        E = EWC->getSubExpr();
      else if (const auto *PE = dyn_cast<ParenExpr>(E))
        E = PE->getSubExpr();
      else
        E = nullptr;
    }
  };
  if (isa<CompoundStmt>(St) || isa<CaseStmt>(St) || isa<DefaultStmt>(St) ||
      isa<LabelStmt>(St))
    for (const Stmt *C : St->children())
      Add(C);
  if (const auto *FS = dyn_cast<ForStmt>(St)) {
    Add(FS->getInc());
    Add(FS->getBody());
  }
  if (const auto *IS = dyn_cast<IfStmt>(St)) {
    Add(IS->getThen());
    Add(IS->getElse());
  }
  if (const auto *WS = dyn_cast<WhileStmt>(St))
    Add(WS->getBody());
  if (const auto *DS = dyn_cast<DoStmt>(St))
    Add(DS->getBody());
  if (const auto *BO = dyn_cast<BinaryOperator>(St);
      BO && BO->getOpcode() == BO_Comma)
    Add(BO->getLHS());
  if (const auto *CE = dyn_cast<CastExpr>(St);
      CE && CE->getType()->isVoidType())
    Add(CE->getSubExpr());
  for (const Stmt *C : St->children())
    collectDiscarded(C, Out);
}

void Facts::noteStatementCalls(const Stmt *Body) const {
  // (Built from the body: clang's parent map is computed once per
  // translation unit and misses functions parsed after that.)
  setDerefForms(&DerefForms);
  if (Body && StatementBodies.insert(Body).second) {
    collectDiscarded(Body, StatementCalls);
    noteDerefForms(*this, Body);
  }
}

bool writesThroughParams(const FunctionDecl *FD, bool Deep) {
  for (const ParmVarDecl *P : FD->parameters()) {
    QualType T = P->getType();
    QualType Pointee = T->isPointerType() ? T->getPointeeType()
                       : T->isReferenceType() ? T.getNonReferenceType()
                                              : QualType();
    // (Through pointers loaded from it too: `(*pp)[1] = v` of a `double
    // **pp`.)
    for (unsigned Depth = 0; !Pointee.isNull() && Depth < 4; ++Depth) {
      if (!Pointee.isConstQualified() && hasFloatingData(Pointee))
        return !Deep || !writesNothing(FD);
      Pointee = Pointee->isPointerType() ? Pointee->getPointeeType()
                                         : QualType();
    }
  }
  return false;
}

} // namespace grad
