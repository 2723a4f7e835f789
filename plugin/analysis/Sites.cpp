//===- Sites.cpp - Where a body's derivatives flow --------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// One walk over a body's statements (not into lambda bodies, which are
/// built as functions of their own, nor into unevaluated operands) that
/// collects the derivative sites by the activity analysis: what may carry a
/// derivative there is decided by Activity alone, never by a builder.
///
//===----------------------------------------------------------------------===//

#include "analysis/Sites.h"
#include "analysis/Activity.h"
#include "ast/Abi.h"
#include "ast/Diagnostics.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ExprConcepts.h"
#include "clang/Basic/SourceManager.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace grad {

namespace {
/// Values (not pointers, not references) that may hold a derivative.
bool differentiable(QualType T) {
  T = T.getNonReferenceType();
  return !T->isPointerType() && (isFloating(T) || hasFloatingData(T));
}

struct SiteWalk {
  Activity &Act;
  SmallVectorImpl<DerivativeSite> &Out;

  void var(const DeclStmt *DS, const VarDecl *VD) {
    if (VD->getType()->isReferenceType() || !VD->hasInit() ||
        !differentiable(VD->getType()) ||
        (VD->isStaticLocal() && VD->getType().isConstQualified()))
      return;
    if (Act.isActive(stripExpr(VD->getInit())))
      Out.push_back({DS, VD});
  }

  void walk(const Stmt *S) {
    if (!S || isa<LambdaExpr>(S) || isa<UnaryExprOrTypeTraitExpr>(S) ||
        isa<CXXTypeidExpr>(S) || isa<CXXNoexceptExpr>(S) ||
        isa<RequiresExpr>(S) || isa<ConceptSpecializationExpr>(S))
      return;
    if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (BO->isAssignmentOp() && differentiable(BO->getLHS()->getType()) &&
          (Act.isActive(stripExpr(BO->getRHS())) ||
           Act.isActive(stripExpr(BO->getLHS()))))
        Out.push_back({BO, nullptr});
    } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D))
          var(DS, VD);
    } else if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
      if (const Expr *RV = RS->getRetValue();
          RV && differentiable(RV->getType()) &&
          Act.isActive(stripExpr(RV)))
        Out.push_back({RS, nullptr});
    } else if (const auto *NE = dyn_cast<CXXNewExpr>(S)) {
      if (!NE->isArray() && Act.isActive(NE))
        Out.push_back({NE, nullptr});
    }
    for (const Stmt *C : S->children())
      walk(C);
  }
};
} // namespace

void derivativeSites(const Stmt *Body, Activity &Act,
                     SmallVectorImpl<DerivativeSite> &Out) {
  SiteWalk{Act, Out}.walk(Body);
}

void unmodelledSites(ArrayRef<DerivativeSite> Sites,
                     llvm::function_ref<bool(const void *)> Seen,
                     SmallVectorImpl<DerivativeSite> &Out) {
  for (const DerivativeSite &Site : Sites) {
    const Expr *Value = nullptr;
    if (Site.Var)
      Value = Site.Var->getInit();
    else if (const auto *BO = dyn_cast<BinaryOperator>(Site.At))
      Value = BO->getRHS();
    else if (const auto *RS = dyn_cast<ReturnStmt>(Site.At))
      Value = RS->getRetValue();
    else if (const auto *NE = dyn_cast<CXXNewExpr>(Site.At))
      Value = NE->getInitializer();
    if (Seen(Site.At) || (Site.Var && Seen(Site.Var)) ||
        (Value && (Seen(Value) || Seen(stripExpr(Value)))))
      continue;
    Out.push_back(Site);
  }
}

std::string siteName(const ASTContext &Ctx, const DerivativeSite &Site) {
  if (Site.Var)
    return "local '" + Site.Var->getNameAsString() + "'";
  if (const auto *RS = dyn_cast<ReturnStmt>(Site.At))
    return "'return " + spelledExpr(Ctx, RS->getRetValue()) + "'";
  return "'" + spelledExpr(Ctx, cast<Expr>(Site.At)) + "'";
}

SourceLocation siteLoc(const DerivativeSite &Site) {
  return Site.Var ? Site.Var->getLocation() : Site.At->getBeginLoc();
}

std::string printSites(const ASTContext &Ctx, ArrayRef<DerivativeSite> Sites) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::string Out;
  for (const DerivativeSite &Site : Sites) {
    SourceLocation L = SM.getExpansionLoc(siteLoc(Site));
    if (!Out.empty())
      Out += ", ";
    Out += std::to_string(SM.getExpansionLineNumber(L)) + ":" +
           std::to_string(SM.getExpansionColumnNumber(L)) + " '";
    if (Site.Var)
      Out += Site.Var->getNameAsString() + " = " +
             spelledExpr(Ctx, Site.Var->getInit());
    else if (const auto *RS = dyn_cast<ReturnStmt>(Site.At))
      Out += "return " + spelledExpr(Ctx, RS->getRetValue());
    else
      Out += spelledExpr(Ctx, cast<Expr>(Site.At));
    Out += "'";
  }
  return Out;
}

} // namespace grad
