//===- CopyBody.cpp - A function's body copied into another ---------------===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "ast/CopyBody.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Sema/EnterExpressionEvaluationContext.h"
#include "clang/Sema/Sema.h"
#include "clang/Sema/Template.h"

using namespace clang;

namespace grad {

namespace {
/// The locals a body declares, the references to them and to the
/// parameters, and the first construct the copy does not rebuild.
struct Scan {
  llvm::SmallVector<DeclRefExpr *, 16> Refs;
  llvm::SmallVector<VarDecl *, 8> Vars;
  const Stmt *Blocker = nullptr;
  std::string Why;

  void block(const Stmt *St, std::string What) {
    Blocker = St;
    Why = std::move(What);
  }
  void declared(const DeclStmt *DS) {
    for (Decl *D : DS->decls()) {
      if (isa<DecompositionDecl>(D))
        return block(DS, "a structured binding");
      auto *VD = dyn_cast<VarDecl>(D);
      if (!VD)
        continue;
      if (!VD->hasLocalStorage())
        return block(DS, "the static variable '" + VD->getNameAsString() +
                             "'");
      Vars.push_back(VD);
    }
  }
  void visit(Stmt *St) {
    if (!St || Blocker)
      return;
    if (isa<LambdaExpr>(St))
      return block(St, "a lambda");
    if (isa<BlockExpr, StmtExpr>(St))
      return block(St, "a statement expression");
    if (isa<LabelStmt, GotoStmt, IndirectGotoStmt>(St))
      return block(St, "a label");
    if (const auto *DS = dyn_cast<DeclStmt>(St))
      declared(DS);
    if (auto *DRE = dyn_cast<DeclRefExpr>(St))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (VD->isLocalVarDeclOrParm() && !VD->isStaticLocal())
          Refs.push_back(DRE);
    for (Stmt *C : St->children())
      visit(C);
  }
};

/// Points the references to stand-ins at the locals declared in their
/// place; false if a reference to one of the original function's locals or
/// parameters is left.
struct Repoint {
  const llvm::DenseMap<const VarDecl *, VarDecl *> &Final;
  const FunctionDecl *Def;
  bool Stale = false;
  void visit(Stmt *St) {
    if (!St)
      return;
    if (auto *DRE = dyn_cast<DeclRefExpr>(St)) {
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
        if (VarDecl *N = Final.lookup(VD))
          DRE->setDecl(N);
        else if (VD->getParentFunctionOrMethod() == Def &&
                 !VD->isStaticLocal())
          Stale = true;
      }
    }
    for (Stmt *C : St->children())
      visit(C);
  }
};
} // namespace

Stmt *copyBody(Sema &S, const FunctionDecl *Def, FunctionDecl *Into,
               ArrayRef<ParmVarDecl *> Params, std::string &Why) {
  Stmt *Body = const_cast<Stmt *>(Def->getBody());
  if (!Body || Def->getNumParams() != Params.size()) {
    Why = "its definition is not in this file";
    return nullptr;
  }
  Scan Sc;
  Sc.visit(Body);
  if (Sc.Blocker) {
    Why = "its body has " + Sc.Why;
    return nullptr;
  }
  ASTContext &Ctx = S.Context;
  // Parameters map to the new ones; locals to stand-ins declared in Into
  // (Sema refuses a reference to another function's local).
  llvm::DenseMap<const VarDecl *, VarDecl *> To;
  for (unsigned I = 0; I < Params.size(); ++I)
    To[Def->getParamDecl(I)] = Params[I];
  llvm::SmallVector<std::pair<VarDecl *, VarDecl *>, 8> StandIns;
  for (VarDecl *V : Sc.Vars) {
    VarDecl *N = VarDecl::Create(Ctx, Into, V->getBeginLoc(), V->getLocation(),
                                 V->getIdentifier(), V->getType(),
                                 V->getTypeSourceInfo(), V->getStorageClass());
    To[V] = N;
    StandIns.push_back({N, V});
  }
  llvm::SmallVector<std::pair<DeclRefExpr *, ValueDecl *>, 16> Saved;
  for (DeclRefExpr *DRE : Sc.Refs)
    if (VarDecl *N = To.lookup(cast<VarDecl>(DRE->getDecl()))) {
      Saved.push_back({DRE, DRE->getDecl()});
      DRE->setDecl(N);
    }
  llvm::DenseMap<const VarDecl *, VarDecl *> Final;
  StmtResult Out;
  unsigned Errors = S.Diags.getNumErrors();
  {
    Sema::ContextRAII Context(S, Into);
    LocalInstantiationScope Scope(S);
    S.PushFunctionScope();
    EnterExpressionEvaluationContext Eval(
        S, Sema::ExpressionEvaluationContext::PotentiallyEvaluated);
    // (Every node rebuilt, as in Replay.cpp.)
    Sema::ArgumentPackSubstitutionIndexRAII Rebuild(S, 0);
    MultiLevelTemplateArgumentList None;
    Out = S.SubstStmt(Body, None);
    for (auto &[N, Old] : StandIns)
      if (auto *Found = Scope.findInstantiationOf(Old))
        if (auto *D = dyn_cast_if_present<VarDecl>(Found->dyn_cast<Decl *>()))
          Final[N] = D;
    S.PopFunctionScopeInfo();
  }
  for (auto &[DRE, Old] : Saved)
    DRE->setDecl(Old);
  if (Out.isInvalid() || S.Diags.getNumErrors() != Errors) {
    Why = "its body could not be copied";
    return nullptr;
  }
  Repoint R{Final, Def};
  R.visit(Out.get());
  if (R.Stale || Final.size() != StandIns.size()) {
    Why = "its body could not be copied";
    return nullptr;
  }
  return Out.get();
}

} // namespace grad
