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
  return indexedVar(E) != nullptr;
}

const Expr *PullbackBuilder::elementBase(const Expr *E) const {
  E = stripAll(E);
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return AS->getBase();
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E))
    if (OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2)
      return OC->getArg(0);
  return nullptr;
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
  const Expr *Base = stripAll(elementBase(E));
  if (!Base)
    return nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(Base);
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

Expr *PullbackBuilder::rebuildElement(const Expr *E, bool Need, bool Plain) {
  const VarDecl *VD = indexedVar(E);
  VarDecl *M = mapVar(VD);
  if (!M) {
    if (VD->isLocalVarDeclOrParm())
      return unsupported(E, "access to '" + VD->getNameAsString() + "'");
    M = const_cast<VarDecl *>(VD); // a global table: constant data
  }
  bool ReadOnly = !Act.isDataWritten(VD);
  bool ElemActive = !Plain && Act.isActive(stripAll(E));
  bool NeedIdx = ElemActive || (Need && ReadOnly);
  Expr *Idx = rebuild(elementIndex(E), NeedIdx, true);
  Expr *R = B.subscript(B.ref(M), Idx);
  if (Need && !ReadOnly)
    return record(E, R);
  return R;
}

Expr *PullbackBuilder::adjointStorage(const VarDecl *VD) {
  if (const auto *P = dyn_cast<ParmVarDecl>(VD)) {
    unsigned I = P->getFunctionScopeIndex();
    if (I < Sig.AdjointIndex.size() && Sig.AdjointIndex[I] >= 0 &&
        P->getDeclContext() == Primal) {
      ParmVarDecl *DP = PB->getParamDecl(Sig.AdjointIndex[I]);
      ParamKind K = classifyParam(Ctx, P->getType()).Kind;
      if (K == ParamKind::Pointer)
        return B.ref(DP);
      return B.paren(B.deref(B.ref(DP)));
    }
  }
  return B.ref(adjointOf(VD));
}

Expr *PullbackBuilder::adjointElement(const Expr *E) {
  const VarDecl *VD = indexedVar(E);
  return B.subscript(adjointStorage(VD), val(elementIndex(E)));
}

} // namespace grad
