//===- Shadow.cpp - Shadow lvalues of differentiated memory ---------------===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "reverse/Shadow.h"
#include "analysis/Paths.h"
#include "ast/SemaBuilder.h"
#include "ast/Abi.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace grad {

ShadowRoots::~ShadowRoots() = default;

Expr *buildStep(SemaBuilder &B, Expr *Base, const Expr *Step,
                llvm::function_ref<Expr *(const Expr *)> Index) {
  const Expr *K = Step->IgnoreParenImpCasts();
  if (!Base)
    return nullptr;
  if (const CXXMemberCallExpr *MC = elementMember(K)) {
    // v.back(), v.at(i): the same member of the shadow, which has the
    // primal's size at every point.
    SmallVector<Expr *, 1> Args;
    for (const Expr *A : MC->arguments())
      Args.push_back(Index(A));
    return B.memberCall(Base, MC->getMethodDecl()->getName(), Args);
  }
  if (const Expr *I = pathIndex(K))
    return B.subscript(Base, Index(I));
  if (const auto *UO = dyn_cast<UnaryOperator>(K))
    if (UO->getOpcode() == UO_Deref)
      return B.deref(Base);
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(K)) {
    SmallVector<Expr *, 4> Args;
    for (unsigned I = 1; I < OC->getNumArgs(); ++I)
      Args.push_back(Index(OC->getArg(I)));
    return B.call(Base, Args); // t(i, j, ...)
  }
  if (const CallExpr *Get = stdGet(K)) // std::get<I>(Base)
    return B.callStd(
        "get", {Base},
        {B.argLoc(
            Get->getDirectCallee()->getTemplateSpecializationArgs()->get(0))});
  const auto *ME = cast<MemberExpr>(K);
  return B.member(Base, ME->getMemberDecl()->getName(), ME->isArrow());
}

/// The shadow of the elements a call's result points into (argument \p A
/// of element type \p Elem): a pointer's shadow, a container's or an
/// object's shadow elements.
static Expr *shadowElements(ShadowRoots &R, SemaBuilder &B, const Expr *A,
                            QualType Elem) {
  if (A->getType()->isPointerType())
    return shadowPointer(R, B, A);
  return elementsOf(B, A, shadowLValue(R, B, A), Elem, /*Const=*/false);
}

Expr *shadowLValue(ShadowRoots &R, SemaBuilder &B, const Expr *E) {
  const Expr *K = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(K))
    return R.rootShadow(DRE);
  // `elem(A, n, i, j)`: A's shadow at the recorded offset.
  if (const Expr *A = refResultArg(K)) {
    // (Into a scalar argument: that scalar's shadow.)
    if (!A->getType()->isPointerType() && A->getType()->isRealFloatingType())
      return shadowLValue(R, B, A);
    Expr *Off = R.resultOffset(K);
    Expr *Base = Off ? shadowElements(R, B, A, K->getType()) : nullptr;
    return Base ? B.paren(B.deref(B.binop(BO_Add, Base, Off))) : nullptr;
  }
  const Expr *BaseE = pathBase(K);
  if (!BaseE)
    return R.noShadow(K, "expression");
  const Expr *BK = BaseE->IgnoreParenImpCasts();
  Expr *Base;
  if (isa<CXXThisExpr>(BK))
    Base = R.thisShadow(BK);
  else if (BaseE->getType()->isPointerType() && !BK->getType()->isArrayType())
    Base = shadowPointer(R, B, BaseE);
  else
    Base = shadowLValue(R, B, BaseE);
  if (!Base)
    return nullptr;
  return buildStep(B, Base, K,
                   [&](const Expr *I) { return R.indexValue(I); });
}

Expr *shadowPointer(ShadowRoots &R, SemaBuilder &B, const Expr *P) {
  const Expr *K = P->IgnoreParenImpCasts();
  // An array used as a pointer: its shadow array decays the same way.
  if (K->getType()->isArrayType())
    return shadowLValue(R, B, K);
  if (isa<CXXThisExpr>(K))
    return R.thisShadow(K);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(K))
    return R.rootShadow(DRE);
  bool Negate = false;
  if (const Expr *Off = pointerOffset(K, Negate)) {
    Expr *Base = shadowPointer(R, B, pointerBase(K));
    return B.binop(Negate ? BO_Sub : BO_Add, Base, R.indexValue(Off));
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(K)) {
    if (UO->getOpcode() == UO_AddrOf) {
      Expr *S = shadowLValue(R, B, UO->getSubExpr());
      // `&w` of a local pointer whose shadow is a value (the root's shadow
      // plus an offset): held in an lvalue for the call.
      if (S && !S->isGLValue() && S->getType()->isPointerType())
        S = B.callRuntime("pointer_lvalue", {}, {S}, /*Detail=*/true);
      return S ? B.addrOf(S) : nullptr;
    }
    // p++, ++p: the pointer's offset was recorded where it was used.
    if (UO->isIncrementDecrementOp())
      return shadowPointer(R, B, UO->getSubExpr());
  }
  if (const Expr *Obj = pointerBase(K))
    if (isa<CXXMemberCallExpr>(K)) // v.data()
      return B.memberCall(shadowLValue(R, B, Obj), "data", {});
  // a.end() of a std::array (a pointer): the shadow array's end().
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(K))
    if (const CXXMethodDecl *MD = MC->getMethodDecl();
        MD && isStdAccessor(MD) && MD->getIdentifier() &&
        (MD->getName() == "end" || MD->getName() == "cend") &&
        K->getType()->isPointerType() && MC->getNumArgs() == 0)
      return B.memberCall(
          shadowLValue(R, B, MC->getImplicitObjectArgument()), "end", {});
  // A helper's pointer into one of its arguments (`*argmax(a, n)`): the
  // argument's shadow at the offset the forward sweep found.
  if (const Expr *A = resultArg(K)) {
    Expr *Off = R.resultOffset(K);
    Expr *Base =
        Off ? shadowElements(R, B, A, K->getType()->getPointeeType())
            : nullptr;
    return Base ? B.binop(BO_Add, Base, Off) : nullptr;
  }
  // A pointer loaded from memory (pp[i], s.p): the shadow memory at the
  // same place holds its shadow. A `const double *` member of a shadow
  // object points to the caller's adjoint storage, which is written.
  if (pathBase(K) && K->isLValue()) {
    Expr *S = shadowLValue(R, B, K);
    QualType Pointee = K->getType()->getPointeeType();
    if (S && Pointee.isConstQualified())
      return B.constCast(
          B.Ctx.getPointerType(Pointee.getUnqualifiedType()), S);
    return S;
  }
  return R.noShadow(K, "pointer");
}

Expr *elementsOf(SemaBuilder &B, const Expr *A, Expr *Base, QualType Elem,
                 bool Const) {
  if (!Base || A->getType()->isPointerType())
    return Base;
  // A scalar (`twice(x)` returns a reference to x): its address.
  if (isFloating(A->getType()))
    return B.addrOf(Base);
  if (!intoObject(A))
    return B.memberCall(Base, "data", {}); // a std::vector or std::array
  QualType T = Elem.getUnqualifiedType();
  if (Const)
    T.addConst();
  return B.reinterpretCast(B.Ctx.getPointerType(T), B.addrOf(Base));
}

} // namespace grad
