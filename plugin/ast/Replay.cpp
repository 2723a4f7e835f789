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
  explicit Scan(bool HoistLambdas) : HoistLambdas(HoistLambdas) {}
  bool HoistLambdas;
  llvm::SmallVector<DeclRefExpr *, 8> Refs;
  /// The places of capture-free lambdas (children of their parents).
  llvm::SmallVector<Stmt **, 2> Lambdas;
  const Stmt *Blocker = nullptr;
  static bool captureFree(const Stmt *St) {
    const auto *L = dyn_cast_or_null<LambdaExpr>(St);
    return L && L->capture_size() == 0 && L->getCaptureDefault() == LCD_None;
  }
  void visit(Stmt *St) {
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
    for (Stmt *&C : St->children()) {
      if (HoistLambdas && captureFree(C))
        Lambdas.push_back(&C);
      else
        visit(C);
    }
  }
};
} // namespace

template <class Fn>
Expr *Replayer::withMapping(const Expr *E, Fn F) {
  Scan Sc(static_cast<bool>(Hoist));
  if (Hoist && Scan::captureFree(E))
    return Hoist(cast<LambdaExpr>(const_cast<Expr *>(E)));
  Sc.visit(const_cast<Expr *>(E));
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
  // Each capture-free lambda: its variable, in its place for the rebuild.
  llvm::SmallVector<std::pair<Stmt **, Stmt *>, 2> Lambdas;
  for (Stmt **Place : Sc.Lambdas) {
    auto *L = cast<LambdaExpr>(*Place);
    Expr *Var = Hoist(L);
    if (!Var) {
      for (auto &[P, Old] : Lambdas)
        *P = Old;
      FailedAt = L;
      Why = "construct";
      return nullptr;
    }
    Lambdas.push_back({Place, L});
    *Place = Var;
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
  for (auto &[Place, Old] : Lambdas)
    *Place = Old;
  if (!Out) {
    FailedAt = E;
    Why = "expression";
  }
  return Out;
}

VarDecl *Replayer::lambdaVariable(Sema &S, DeclContext *DC, StringRef Name,
                                  LambdaExpr *L) {
  // Declared `auto`, as written (a closure type has no spelling), and
  // initialised with the lambda itself, whose closure type the calls that
  // name the variable were instantiated with.
  ASTContext &Ctx = S.Context;
  SourceLocation Loc = L->getBeginLoc();
  auto *V = VarDecl::Create(
      Ctx, DC, Loc, Loc, &Ctx.Idents.get(Name), L->getType(),
      Ctx.getTrivialTypeSourceInfo(Ctx.getAutoDeductType(), Loc), SC_None);
  S.AddInitializerToDecl(V, L, /*DirectInit=*/false);
  return V->isInvalidDecl() ? nullptr : V;
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
