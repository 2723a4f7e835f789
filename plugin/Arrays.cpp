//===- Arrays.cpp - Element access on arrays and containers -----*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `p[i]` on pointers and arrays and `v[i]` on std::vector, std::array and
/// std::span. Element adjoints live in the caller's adjoint storage for
/// parameters (d_p[i], (*d_v)[i]) and in a same-shaped local for local
/// arrays and vectors. Reads of storage the function never writes are
/// re-read in the reverse sweep instead of being recorded.
///
//===----------------------------------------------------------------------===//

#include "Consumer.h"
#include "PullbackBuilder.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace grad {

static const Expr *stripAll(const Expr *E) {
  return E ? E->IgnoreParenImpCasts() : nullptr;
}

bool PullbackBuilder::isElementAccess(const Expr *E) const {
  bool IsThis;
  return pathRoot(E, IsThis, /*Strict=*/true) || IsThis;
}

const Expr *PullbackBuilder::elementBase(const Expr *E) const {
  return pathBase(E);
}

const Expr *PullbackBuilder::elementIndex(const Expr *E) const {
  E = stripAll(E);
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return AS->getIdx();
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E))
    if (OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2)
      return OC->getArg(1);
  return nullptr;
}

const VarDecl *PullbackBuilder::indexedVar(const Expr *E) const {
  bool IsThis;
  return pathRoot(E, IsThis, /*Strict=*/true);
}

bool PullbackBuilder::readOnly(const Expr *E) const {
  bool IsThis;
  const VarDecl *VD = pathRoot(E, IsThis);
  if (IsThis)
    return !Act.ThisWritten;
  return VD && !Act.isDataWritten(VD) && !Act.isWritten(VD);
}

/// Rebuilds the base of a path: a variable, `this`, or a shorter path.
Expr *PullbackBuilder::rebuildBase(const Expr *Base, bool NeedIdx) {
  const Expr *K = stripAll(Base);
  if (const auto *TE = dyn_cast<CXXThisExpr>(K))
    return S.BuildCXXThisExpr(B.Loc, TE->getType(), /*IsImplicit=*/false);
  if (isElementAccess(K))
    return rebuildPathImpl(K, false, true, NeedIdx);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(K)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (VD && !VD->isLocalVarDeclOrParm())
      return B.ref(const_cast<VarDecl *>(VD)); // a global table
    if (VD && !mapVar(VD))
      return unsupported(K, "access to '" + VD->getNameAsString() + "'");
  }
  return rebuild(K, false, true);
}

Expr *PullbackBuilder::index(Expr *Base, const Expr *K,
                             llvm::function_ref<Expr *(const Expr *)> Idx) {
  if (const Expr *I = elementIndex(K))
    return B.subscript(Base, Idx(I));
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(K)) {
    SmallVector<Expr *, 4> Args;
    for (unsigned I = 1; I < OC->getNumArgs(); ++I)
      Args.push_back(Idx(OC->getArg(I)));
    return B.call(Base, Args); // t(i, j, ...)
  }
  if (const CallExpr *Get = stdGet(K)) // std::get<I>(Base)
    return B.callStd(
        "get", {Base},
        {B.argLoc(Get->getDirectCallee()->getTemplateSpecializationArgs()
                      ->get(0))});
  const auto *ME = cast<MemberExpr>(K);
  return B.member(Base, ME->getMemberDecl()->getName(), ME->isArrow());
}

Expr *PullbackBuilder::rebuildPathImpl(const Expr *E, bool Need, bool Plain,
                                       bool NeedIdx) {
  const Expr *K = stripAll(E);
  Expr *Base = rebuildBase(pathBase(K), NeedIdx);
  Expr *R = index(Base, K, [&](const Expr *I) {
    return rebuild(I, NeedIdx, true);
  });
  if (Need && !readOnly(K))
    return record(K, R);
  return R;
}

Expr *PullbackBuilder::rebuildElement(const Expr *E, bool Need, bool Plain) {
  const Expr *K = stripAll(E);
  bool ElemActive = !Plain && Act.isActive(K);
  // The reverse sweep indexes the adjoint with the same indices, and
  // re-reads read-only storage.
  bool NeedIdx = ElemActive || (Need && readOnly(K));
  return rebuildPathImpl(K, Need, Plain, NeedIdx);
}

Expr *PullbackBuilder::valPath(const Expr *E) {
  const Expr *K = stripAll(E);
  const Expr *BaseE = stripAll(pathBase(K));
  Expr *Base;
  if (const auto *TE = dyn_cast<CXXThisExpr>(BaseE))
    Base = S.BuildCXXThisExpr(B.Loc, TE->getType(), /*IsImplicit=*/false);
  else if (isElementAccess(BaseE))
    Base = valPath(BaseE);
  else
    Base = plain(BaseE);
  return index(Base, K, [&](const Expr *I) { return val(I); });
}

Expr *PullbackBuilder::adjointStorage(const VarDecl *VD) {
  if (const auto *P = dyn_cast<ParmVarDecl>(VD)) {
    unsigned I = P->getFunctionScopeIndex();
    if (I < Sig.AdjointIndex.size() && Sig.AdjointIndex[I] >= 0 &&
        P->getDeclContext() == Primal) {
      ParmVarDecl *DP = param(Sig.AdjointIndex[I]);
      ParamKind K = classifyParam(Ctx, P->getType()).Kind;
      // The caller's *d_x is the adjoint of a scalar's initial value only:
      // an overwritten one (x = layer(x)) or an in/out one accumulates
      // locally and is stored once at the end.
      if ((K == ParamKind::Scalar && Act.isWritten(P)) ||
          K == ParamKind::ScalarRef)
        return B.ref(adjointOf(VD));
      if (K == ParamKind::Pointer)
        return B.ref(DP);
      return B.paren(B.deref(B.ref(DP)));
    }
  }
  return B.ref(adjointOf(VD));
}

Expr *PullbackBuilder::adjointElement(const Expr *E) {
  const Expr *K = stripAll(E);
  const Expr *BaseE = stripAll(pathBase(K));
  Expr *Base;
  if (isa<CXXThisExpr>(BaseE)) {
    if (Sig.ThisIndex < 0)
      return unsupported(K, "member access without an adjoint for 'this'");
    Base = B.ref(param(Sig.ThisIndex)); // a pointer, like this
  } else if (isElementAccess(BaseE)) {
    Base = adjointElement(BaseE);
  } else {
    const auto *DRE = dyn_cast<DeclRefExpr>(BaseE);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD)
      return unsupported(K, constructName(K));
    Base = adjointStorage(VD);
  }
  return index(Base, K, [&](const Expr *I) { return val(I); });
}

} // namespace grad
