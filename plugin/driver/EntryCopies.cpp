//===- EntryCopies.cpp - Re-seated pointer parameters as locals -----------===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "driver/EntryCopies.h"
#include "analysis/Paths.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Sema/Sema.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace grad {

namespace {
/// The parameters the body re-seats, and every reference to them; a lambda
/// capturing one of them stops the rewrite (its capture names the
/// parameter, not a reference the rewrite can point elsewhere).
struct ReseatScan : RecursiveASTVisitor<ReseatScan> {
  llvm::SmallPtrSet<const ParmVarDecl *, 2> Params;
  llvm::SmallVector<DeclRefExpr *, 8> Refs;
  llvm::SmallVector<const LambdaExpr *, 1> Lambdas;
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (const ParmVarDecl *P = reseatedParam(BO))
      Params.insert(P);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (isa<ParmVarDecl>(DRE->getDecl()))
      Refs.push_back(DRE);
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *LE) {
    Lambdas.push_back(LE);
    return true;
  }
  bool capturedByLambda() const {
    for (const LambdaExpr *LE : Lambdas)
      for (const LambdaCapture &C : LE->captures())
        if (C.capturesVariable())
          if (const auto *P = dyn_cast<ParmVarDecl>(C.getCapturedVar());
              P && Params.count(P))
            return true;
    return false;
  }
};
} // namespace

EntryCopies::EntryCopies(Sema &S, const FunctionDecl *Def) : Def(Def) {
  auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  if (!Body || isa<CXXMethodDecl>(Def))
    return;
  ReseatScan Scan;
  Scan.TraverseStmt(Body);
  if (Scan.Params.empty() || Scan.capturedByLambda())
    return;
  ASTContext &Ctx = S.Context;
  auto *DC = const_cast<DeclContext *>(Def->getDeclContext());
  View = FunctionDecl::Create(
      Ctx, DC, Def->getInnerLocStart(), Def->getNameInfo(), Def->getType(),
      Def->getTypeSourceInfo(), Def->getStorageClass(),
      /*UsesFPIntrin=*/false, Def->isInlineSpecified(),
      /*hasWrittenPrototype=*/true, Def->getConstexprKind(),
      /*TrailingRequiresClause=*/nullptr);
  // The re-seated parameters get a stand-in, read once into the local that
  // takes their name; the others are shared with the definition.
  llvm::SmallVector<ParmVarDecl *, 4> Params;
  llvm::SmallVector<Stmt *, 8> Stmts;
  llvm::DenseMap<const ValueDecl *, VarDecl *> Locals;
  for (ParmVarDecl *P : Def->parameters()) {
    if (!Scan.Params.count(P)) {
      Params.push_back(P);
      continue;
    }
    auto *In = ParmVarDecl::Create(
        Ctx, View, P->getInnerLocStart(),
        P->getLocation(), &Ctx.Idents.get(P->getName().str() + "_in"),
        P->getType(), P->getTypeSourceInfo(), SC_None, nullptr);
    In->setScopeInfo(0, P->getFunctionScopeIndex());
    Params.push_back(In);
    auto *L = VarDecl::Create(Ctx, View, P->getInnerLocStart(),
                              P->getLocation(), P->getIdentifier(),
                              P->getType(), P->getTypeSourceInfo(), SC_None);
    auto *Ref = DeclRefExpr::Create(
        Ctx, NestedNameSpecifierLoc(), SourceLocation(), In,
        /*RefersToEnclosingVariableOrCapture=*/false, P->getLocation(),
        In->getType(), VK_LValue);
    L->setInit(ImplicitCastExpr::Create(Ctx, In->getType(), CK_LValueToRValue,
                                        Ref, nullptr, VK_PRValue,
                                        FPOptionsOverride()));
    Stmts.push_back(new (Ctx) DeclStmt(DeclGroupRef(L), P->getLocation(),
                                       P->getLocation()));
    Locals[P] = L;
  }
  View->setParams(Params);
  llvm::append_range(Stmts, Body->body());
  View->setBody(CompoundStmt::Create(Ctx, Stmts, Body->getStoredFPFeaturesOrDefault(),
                                     Body->getLBracLoc(), Body->getRBracLoc()));
  for (DeclRefExpr *DRE : Scan.Refs)
    if (VarDecl *L = Locals.lookup(DRE->getDecl())) {
      Redirected.push_back({DRE, DRE->getDecl()});
      DRE->setDecl(L);
    }
}

EntryCopies::~EntryCopies() {
  for (auto &[DRE, P] : Redirected)
    DRE->setDecl(P);
}

} // namespace grad
