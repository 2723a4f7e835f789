//===- Replay.cpp - Primal code replayed as written -----------------------===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "ast/Replay.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Sema/Sema.h"
#include "clang/Sema/Template.h"

using namespace clang;

namespace grad {

namespace {
/// References to the primal's locals and parameters, and what stops a
/// replay (a construct that declares variables of its own).
struct Scan {
  llvm::SmallVector<DeclRefExpr *, 8> Refs;
  const Stmt *Blocker = nullptr;
  void visit(const Stmt *St) {
    if (!St || Blocker)
      return;
    if (isa<LambdaExpr>(St) || isa<StmtExpr>(St) || isa<BlockExpr>(St) ||
        isa<RequiresExpr>(St)) {
      Blocker = St;
      return;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(St)) {
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (VD->isLocalVarDeclOrParm() && !VD->isStaticLocal())
          Refs.push_back(const_cast<DeclRefExpr *>(DRE));
      if (isa<BindingDecl>(DRE->getDecl()))
        Refs.push_back(const_cast<DeclRefExpr *>(DRE));
    }
    for (const Stmt *C : St->children())
      visit(C);
  }
};
} // namespace

template <class Fn>
Expr *Replayer::withMapping(const Expr *E, Fn F) {
  Scan Sc;
  Sc.visit(E);
  if (Sc.Blocker) {
    FailedAt = Sc.Blocker;
    Why = "construct";
    return nullptr;
  }
  llvm::SmallVector<std::pair<DeclRefExpr *, ValueDecl *>, 8> Saved;
  for (DeclRefExpr *DRE : Sc.Refs) {
    ValueDecl *New = Map(DRE->getDecl());
    if (!New) {
      FailedAt = DRE;
      Why = "reference to '" + DRE->getDecl()->getNameAsString() + "'";
      return nullptr;
    }
    Saved.push_back({DRE, DRE->getDecl()});
  }
  // Point the references at the builder's variables while Sema rebuilds
  // the expression (every node: ArgumentPackSubstitutionIndex != -1 makes
  // the instantiator rebuild unchanged nodes too), then restore them.
  for (auto &[DRE, Old] : Saved)
    DRE->setDecl(Map(Old));
  Expr *Out;
  {
    Sema::ArgumentPackSubstitutionIndexRAII Rebuild(S, 0);
    Out = F(const_cast<Expr *>(E));
  }
  for (auto &[DRE, Old] : Saved)
    DRE->setDecl(Old);
  if (!Out) {
    FailedAt = E;
    Why = "expression";
  }
  return Out;
}

Expr *Replayer::expr(const Expr *E) {
  return withMapping(E, [&](Expr *X) -> Expr * {
    MultiLevelTemplateArgumentList None;
    ExprResult R = S.SubstExpr(X, None);
    return R.isInvalid() ? nullptr : R.get();
  });
}

Expr *Replayer::discarded(const Expr *E) {
  Expr *R = expr(E);
  if (!R)
    return nullptr;
  ExprResult F = S.ActOnFinishFullExpr(R, /*DiscardedValue=*/true);
  if (F.isInvalid()) {
    FailedAt = E;
    Why = "expression";
    return nullptr;
  }
  return F.get();
}

Expr *Replayer::initializer(const VarDecl *VD) {
  const Expr *Init = VD->getInit();
  if (!Init)
    return nullptr;
  return withMapping(Init, [&](Expr *X) -> Expr * {
    MultiLevelTemplateArgumentList None;
    ExprResult R = S.SubstInitializer(
        X, None, VD->getInitStyle() == VarDecl::CallInit);
    return R.isInvalid() ? nullptr : R.get();
  });
}

} // namespace grad
