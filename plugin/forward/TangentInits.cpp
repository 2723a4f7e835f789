//===- TangentInits.cpp - Initialisers in forward mode --------------------===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The initialisers of arrays, containers and objects in a pushforward,
/// rebuilt in one pass as value and tangent.
///
//===----------------------------------------------------------------------===//

#include "ast/Records.h"
#include "analysis/Selectors.h"
#include "lift/StdForms.h"
#include "forward/TangentBuilder.h"

namespace grad {
namespace tangent {

Expr *TangentBuilder::initListOf(MutableArrayRef<Expr *> Elems) {
  if (llvm::is_contained(Elems, nullptr))
    return nullptr;
  ExprResult R = S.ActOnInitList(B.Loc, Elems, B.Loc);
  return R.isInvalid() ? nullptr : R.get();
}

bool TangentBuilder::initPart(const Expr *A, QualType AT, Expr *&V, Expr *&Tn) {
  if (isFloating(AT) || AT->isArrayType() || hasFloatingData(AT) ||
      isa<CXXStdInitializerListExpr>(A->IgnoreImplicit())) {
    if (!initPair(A, AT, V, Tn))
      return false;
    if (!Tn)
      Tn = zeroOf(AT);
    return V && Tn;
  }
  // (Pointers and iterators into memory would give the tangent the
  // values.)
  if ((AT->isPointerType() && floatingOrPointer(AT)) ||
      holdsWritablePointer(AT) || holdsFloatingPointer(AT)) {
    fail(A, "construction from '" + spelled(A) + "'");
    return false;
  }
  VT X = expr(A, false);
  V = X.V;
  Tn = V ? dup(X, A) : nullptr;
  V = X.V; // (dup may have bound it to a temporary)
  return V && Tn;
}

bool TangentBuilder::initListPair(const InitListExpr *IL, Expr *&VOut,
                                  Expr *&TOut) {
  if (IL->isSyntacticForm() && IL->getSemanticForm())
    IL = IL->getSemanticForm();
  SmallVector<Expr *, 8> Vs, Ts;
  for (const Expr *Ei : IL->inits()) {
    if (isa<ImplicitValueInitExpr>(Ei))
      break;
    Expr *V, *Tn;
    if (!initPart(Ei, Ei->getType(), V, Tn))
      return false;
    Vs.push_back(V);
    Ts.push_back(Tn);
  }
  VOut = initListOf(Vs);
  TOut = initListOf(Ts);
  return VOut && TOut;
}

bool TangentBuilder::rangeConstructionPair(const CXXConstructExpr *CE,
                                           const Expr *PA, const Expr *QA,
                                           Expr *&VOut, Expr *&TOut) {
  QualType CT = CE->getType();
  VT P = expr(PA, true);
  VT Q = P.V ? expr(QA, false) : VT{};
  Expr *P2 = Q.V ? dup(P, PA) : nullptr;
  Expr *Q2 = P2 ? dup(Q, QA) : nullptr;
  if (!Q2)
    return false;
  Expr *N = B.paren(B.binop(BO_Sub, Q2, P2));
  VOut = B.construct(CT, {P.V, Q.V}, false);
  if (P.T) {
    VT TP{P.T, nullptr};
    Expr *T1 = dup(TP, nullptr);
    Expr *T2 = T1 ? dup(TP, nullptr) : nullptr;
    if (!T2)
      return false;
    TOut = B.construct(CT, {T1, B.binop(BO_Add, T2, N)}, false);
  } else {
    TOut = B.construct(
        CT,
        {B.staticCast(Ctx.getSizeType(), N), B.zero(elementTypeOf(Ctx, CT))},
        false);
  }
  return VOut && TOut;
}

bool TangentBuilder::constructorPair(const CXXConstructExpr *CE, QualType T,
                                     Expr *&VOut, Expr *&TOut) {
  const CXXConstructorDecl *Ctor = CE->getConstructor();
  bool Std = Ctor->getParent()->isInStdNamespace();
  // (`Vec3(x, y, z)` through a constructor that copies its parameters
  // into members: the same constructor on the tangents.)
  if (!Std && !Ctor->isTrivial() && CE->getNumArgs() &&
      !linearConstruction(CE)) {
    fail(CE, "constructor call of '" + T.getAsString(Ctx.getPrintingPolicy()) +
                 "'");
    return false;
  }
  SmallVector<Expr *, 4> Vs, Ts;
  QualType CT = CE->getType();
  // std::vector<double> v(p, q), v(w.begin(), w.end()): the tangent is
  // built from the tangent range (zeros for memory without tangents).
  unsigned NA = 0;
  while (NA < CE->getNumArgs() && !isa<CXXDefaultArgExpr>(CE->getArg(NA)))
    ++NA;
  if (Std && NA == 2 && !CE->isListInitialization()) {
    const Expr *PA = CE->getArg(0), *QA = CE->getArg(1);
    if (!PA->getType()->isPointerType()) {
      PA = iteratorPointer(B, PA);
      QA = PA ? iteratorPointer(B, QA) : nullptr;
    }
    if (PA && QA && PA->getType()->isPointerType() &&
        QA->getType()->isPointerType() && floatingOrPointer(PA->getType()))
      return rangeConstructionPair(CE, PA, QA, VOut, TOut);
  }
  for (const Expr *A : CE->arguments()) {
    if (isa<CXXDefaultArgExpr>(A))
      break;
    Expr *V, *Tn;
    if (!initPart(A, A->getType(), V, Tn))
      return false;
    Vs.push_back(V);
    Ts.push_back(Tn);
  }
  VOut = B.construct(CT, Vs, CE->isListInitialization());
  TOut = B.construct(CT, Ts, CE->isListInitialization());
  return VOut && TOut;
}

/// The initialiser \p Init of an array, container or object of type \p T,
/// rebuilt in one pass as value (\p VOut) and tangent (\p TOut, null for
/// zero): the tangents of its elements, members or constructor arguments;
/// sizes and other integers are shared.
bool TangentBuilder::initPair(const Expr *Init, QualType T, Expr *&VOut,
                              Expr *&TOut) {
  VOut = TOut = nullptr;
  const Expr *K = Init->IgnoreImplicit()->IgnoreParens();
  if (const auto *IL = dyn_cast<InitListExpr>(K))
    return initListPair(IL, VOut, TOut);
  if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(K))
    return initPair(SIL->getSubExpr(), SIL->getSubExpr()->getType(), VOut,
                    TOut);
  if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(K))
    return initPair(MT->getSubExpr(), T, VOut, TOut);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(K);
      CE && CE->getConstructor()->isCopyOrMoveConstructor() &&
      CE->getNumArgs() >= 1)
    return initPair(CE->getArg(0), T, VOut, TOut);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(K))
    return constructorPair(CE, T, VOut, TOut);
  VT X = expr(Init, true);
  VOut = X.V;
  TOut = X.T;
  return VOut != nullptr;
}

} // namespace tangent
} // namespace grad
