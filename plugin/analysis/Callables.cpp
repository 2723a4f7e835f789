//===- Callables.cpp - Which callable an expression names -------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// findLambda / initLambda / findFunction: the lambda or function a call's
/// callee or a map's callable names, also through a local variable (`auto
/// f = [..]`, a `std::function` only called).
///
//===----------------------------------------------------------------------===//

#include "lift/Lift.h"
#include "analysis/Facts.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace grad {

static const Expr *peel(const Expr *E) {
  while (E) {
    const Expr *N = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *CE = dyn_cast<CXXConstructExpr>(N))
      if (CE->getNumArgs() == 1 && CE->getConstructor()->isCopyOrMoveConstructor())
        N = CE->getArg(0);
    if (const auto *UO = dyn_cast<UnaryOperator>(N))
      if (UO->getOpcode() == UO_AddrOf)
        N = UO->getSubExpr();
    if (N == E)
      return E;
    E = N;
  }
  return E;
}

namespace {
/// True if every use of \p VD in \p Body is a call `VD(...)`.
struct OnlyCalled : RecursiveASTVisitor<OnlyCalled> {
  const VarDecl *VD;
  bool OK = true;
  llvm::DenseSet<const DeclRefExpr *> Callees;
  explicit OnlyCalled(const VarDecl *VD) : VD(VD) {}
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
    if (OC->getOperator() == OO_Call && OC->getNumArgs() >= 1)
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(OC->getArg(0)->IgnoreImpCasts()))
        Callees.insert(DRE);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    // (The call's object is visited after the call itself.)
    if (DRE->getDecl() == VD && !Callees.count(DRE))
      OK = false;
    return OK;
  }
};

/// Parameter and result types as a call sees them (no references, no cv).
QualType callType(QualType T) {
  return T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
}
} // namespace

const LambdaExpr *initLambda(const VarDecl *VD) {
  if (!VD || !VD->isLocalVarDecl() || !VD->hasInit())
    return nullptr;
  if (const auto *L = dyn_cast<LambdaExpr>(peel(VD->getInit())))
    return L;
  // std::function<R(A...)> f = [..](A...) {..}, then only called: a name
  // for the lambda (whose call signature is the function's).
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      VD->getType()->getAsCXXRecordDecl());
  if (!Spec || !Spec->isInStdNamespace() || !Spec->getIdentifier() ||
      Spec->getName() != "function" || Spec->getTemplateArgs().size() != 1)
    return nullptr;
  const auto *CE = dyn_cast<CXXConstructExpr>(VD->getInit()->IgnoreImplicit());
  if (!CE || CE->getNumArgs() != 1 ||
      CE->getConstructor()->isCopyOrMoveConstructor())
    return nullptr;
  const auto *L = dyn_cast<LambdaExpr>(peel(CE->getArg(0)));
  const auto *FT = Spec->getTemplateArgs()[0].getAsType()
                       ->getAs<FunctionProtoType>();
  if (!L || !FT)
    return nullptr;
  const CXXMethodDecl *Op = L->getCallOperator();
  if (Op->isTemplated() || Op->getNumParams() != FT->getNumParams() ||
      callType(Op->getReturnType()) != callType(FT->getReturnType()))
    return nullptr;
  for (unsigned I = 0; I < FT->getNumParams(); ++I)
    if (callType(Op->getParamDecl(I)->getType()) !=
        callType(FT->getParamType(I)))
      return nullptr;
  auto &Called = Facts::get(VD->getASTContext()).OnlyCalled;
  auto [It, New] = Called.try_emplace(VD, false);
  if (New) {
    OnlyCalled C(VD);
    if (const auto *FD = dyn_cast<FunctionDecl>(VD->getDeclContext()))
      C.TraverseStmt(FD->getBody());
    else
      C.OK = false;
    It->second = C.OK;
  }
  return It->second ? L : nullptr;
}

const LambdaExpr *findLambda(const Expr *E) {
  E = peel(E);
  if (const auto *L = dyn_cast_or_null<LambdaExpr>(E))
    return L;
  // A local variable initialised with a lambda.
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E))
    return initLambda(dyn_cast<VarDecl>(DRE->getDecl()));
  return nullptr;
}

const FunctionDecl *findFunction(const Expr *E) {
  E = peel(E);
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E))
    return dyn_cast<FunctionDecl>(DRE->getDecl());
  return nullptr;
}

} // namespace grad
