//===- TangentCalls.cpp - Calls in forward mode ---------------------------===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Calls in a pushforward (rules, pushforwards of callees, accessors,
/// helpers returning pointers, the runtime's helpers); member calls are in
/// TangentMembers.cpp, initialisers in TangentInits.cpp, vector mode's own
/// calls in TangentLanes.cpp.
///
//===----------------------------------------------------------------------===//

#include "analysis/Positions.h"
#include "analysis/CallShapes.h"
#include "ast/Diagnostics.h"
#include "lift/Lift.h"
#include "ast/Records.h"
#include "analysis/Selectors.h"
#include "forward/TangentBuilder.h"

namespace grad {
namespace tangent {

VT TangentBuilder::sinCosRule(const CallExpr *CE, const Rule &R,
                              const VT &Arg) {
  // Value and partial from one sincos (calls on the same value, the
  // primal's sin(theta) and cos(theta), are merged by the optimiser).
  QualType T = CE->getType().getUnqualifiedType();
  Expr *X = Arg.V;
  if (!Ctx.hasSameUnqualifiedType(X->getType(), T))
    X = B.staticCast(T, X);
  Expr *Pair = B.callRuntime("sin_cos", {}, {X});
  if (!Pair)
    return {};
  Pair = hoist(Pair, Pair->getType(), nullptr);
  bool Sin = StringRef(R.Name) == "sin";
  Expr *V = B.member(Pair, Sin ? "__sin" : "__cos");
  Expr *P = B.member(B.ref(cast<DeclRefExpr>(Pair)->getDecl()),
                     Sin ? "__cos" : "__sin");
  if (!Sin)
    P = B.paren(B.unop(UO_Minus, P));
  return {V, mul(P, Arg.T)};
}

VT TangentBuilder::ruleCall(const CallExpr *CE, const FunctionDecl *FD,
                            const Rule &R, bool NeedT) {
  unsigned N = std::min<unsigned>(CE->getNumArgs(), R.Arity);
  SmallVector<VT, 3> Args;
  bool Any = false;
  for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
    Args.push_back(expr(CE->getArg(I), NeedT));
    if (!Args.back().V)
      return {};
    Any |= I < N && Args.back().T;
  }
  auto Call = [&] {
    SmallVector<Expr *, 3> Vs;
    for (VT &A : Args)
      Vs.push_back(A.V);
    return B.call(B.funcRef(const_cast<FunctionDecl *>(FD)), Vs);
  };
  if (!NeedT || !Any)
    return {Call(), nullptr};
  if (isSinCosCall(CE, R) && !NoHoist && D.options().SinCos &&
      B.hasRuntime("sin_cos"))
    return sinCosRule(CE, R, Args[0]);
  // Arguments the partials read are bound first; so is the result when a
  // partial reads it.
  unsigned UsedArgs = 0;
  bool UsesY = false;
  for (unsigned I = 0; I < N; ++I)
    if (Args[I].T) {
      UsedArgs |= R.Uses[I] & 7;
      UsesY |= (R.Uses[I] & UsesResult) != 0;
    }
  SmallVector<Expr *, 3> Copies(N, nullptr);
  for (unsigned I = 0; I < N; ++I)
    if ((UsedArgs >> I) & 1) {
      Copies[I] = dup(Args[I], CE->getArg(I));
    }
  Expr *V = Call();
  Expr *Y = nullptr;
  if (UsesY) {
    V = hoist(V, CE->getType(), CE);
    Y = V;
  }
  QualType T = CE->getType().getNonReferenceType().getUnqualifiedType();
  Expr *Tan = nullptr;
  for (unsigned I = 0; I < N; ++I) {
    if (!Args[I].T)
      continue;
    SmallVector<Expr *, 3> Vs;
    for (unsigned J = 0; J < N; ++J) {
      Expr *C = nullptr;
      if ((R.Uses[I] >> J) & 1) {
        C = Copies[J] ? Copies[J] : dup(Args[J], CE->getArg(J));
        Copies[J] = nullptr; // each copy is used once: make another
        if (!C)
          return {};
      }
      Vs.push_back(C);
    }
    Expr *YC = nullptr;
    if (R.Uses[I] & UsesResult) {
      VT YV{Y, nullptr};
      YC = dup(YV, CE);
    }
    Expr *P = buildPartial(B, R, I, Vs, YC, T);
    Tan = add(Tan, mul(B.paren(P), Args[I].T));
  }
  return {V, Tan};
}

WrtMask TangentBuilder::droppedArgs(const CallExpr *CE,
                                    const FunctionDecl *FD) const {
  unsigned NP = FD->getNumParams();
  WrtMask Drop(NP, false);
  for (unsigned I = 0; I < NP && I < CE->getNumArgs(); ++I) {
    bool IsThisRoot = false;
    const VarDecl *Root = pathRoot(CE->getArg(I), IsThisRoot);
    Drop[I] = Root && Dropped.count(Root) &&
              CE->getArg(I)->getType()->isPointerType();
  }
  return Drop;
}

TangentBuilder::PointedResult
TangentBuilder::pointedResult(const CallExpr *CE, const FunctionDecl *FD) {
  PointedResult P;
  // A pointer result (`argmax(a, n)`, `std::max_element(a, a + n)`) points
  // into one argument's memory: its tangent is at the same offset in that
  // argument's tangent memory.
  // Likewise a reference computed into a pointer argument (`double
  // &largest(double *a, int n)`).
  P.Ref = FD->getReturnType()->isLValueReferenceType() &&
          isFloating(FD->getReturnType().getNonReferenceType());
  P.Ptr = FD->getReturnType()->isPointerType() || P.Ref;
  const Expr *Ptd = nullptr;
  if (P.Ptr) {
    // (The forward half of a split pullback returns what its primal does.)
    const FunctionDecl *Src = FD;
    for (const auto &E : D.entries())
      if (E->Fwd == FD)
        Src = E->Primal;
    int I = pointedParam(Src);
    Ptd = I >= 0 && unsigned(I) < CE->getNumArgs() ? CE->getArg(I) : nullptr;
    // (Into a pointer or a std::vector / std::array: offsets of elements;
    // into a scalar argument `double &twice(double &v)`: that scalar.)
    if (P.Ref && Ptd && !Ptd->getType()->isPointerType() &&
        !isa_and_nonnull<ClassTemplateSpecializationDecl>(
            Ptd->getType()->getAsCXXRecordDecl()) &&
        !(Ptd->isLValue() && isFloating(Ptd->getType())))
      Ptd = nullptr;
  }
  P.Arg = Ptd;
  P.Scalar =
      Ptd && !Ptd->getType()->isPointerType() && isFloating(Ptd->getType());
  return P;
}

bool TangentBuilder::pointedArg(const CallExpr *CE, const FunctionDecl *FD,
                                PointedResult &P, VT &X) {
  const Expr *A = P.Arg;
  X = expr(A, true);
  if (!X.V)
    return false;
  if (P.Scalar) {
    P.T = X.T; // the scalar's tangent, in/out
    return true;
  }
  if (!X.T)
    return true;
  if (NoHoist)
    return failed(CE, "call to '" + nameOf(FD) +
                          "', whose pointer result needs a tangent, in "
                          "a loop condition or increment");
  auto *TD = dyn_cast<DeclRefExpr>(X.T->IgnoreParenImpCasts());
  if (!A->getType()->isPointerType()) {
    // Element pointers of the container and of its tangent, both
    // variables (a copy would be another container).
    auto *VD = dyn_cast<DeclRefExpr>(X.V->IgnoreParenImpCasts());
    if (!TD || !VD)
      return failed(A, "container '" + spelled(A) +
                           "' that is not a variable, passed to '" +
                           nameOf(FD) +
                           "', which returns a reference into it");
    P.V = B.memberCall(B.ref(VD->getDecl()), "data", {});
    P.T = B.memberCall(B.ref(TD->getDecl()), "data", {});
    return P.V && P.T;
  }
  P.V = dup(X, A);
  if (!TD) {
    QualType TT = X.T->getType();
    if (TT->isArrayType())
      TT = Ctx.getArrayDecayedType(TT);
    X.T = hoist(X.T, TT, nullptr);
    TD = X.T ? dyn_cast<DeclRefExpr>(X.T->IgnoreParenImpCasts()) : nullptr;
  }
  if (!TD)
    return false;
  P.T = B.ref(TD->getDecl());
  return true;
}

bool TangentBuilder::pushforwardArgs(const CallExpr *CE, const FunctionDecl *FD,
                                     const WrtMask &Drop, PointedResult &P,
                                     SmallVectorImpl<VT> &Args) {
  for (unsigned I = 0; I < FD->getNumParams(); ++I) {
    const Expr *A = I < CE->getNumArgs() ? CE->getArg(I) : nullptr;
    if (!A)
      return failed(CE, "call with too few arguments");
    if (A == P.Arg) {
      VT X;
      if (!pointedArg(CE, FD, P, X))
        return false;
      Args.push_back(X);
      continue;
    }
    bool Diff =
        classifyParam(Ctx, FD->getParamDecl(I)->getType()).Kind !=
        ParamKind::None;
    AllowDropped = Drop[I];
    Args.push_back(expr(A, Diff || Drop[I]));
    AllowDropped = false;
    if (!Args.back().V)
      return false;
    if (Drop[I]) // never read: null
      Args.back().V = B.staticCast(
          A->getType(), new (Ctx) CXXNullPtrLiteralExpr(Ctx.NullPtrTy, B.Loc));
  }
  return true;
}

VT TangentBuilder::primalCall(const CallExpr *CE, const FunctionDecl *FD,
                              ArrayRef<VT> Args) {
  SmallVector<Expr *, 8> Vs;
  for (const VT &A : Args)
    Vs.push_back(A.V);
  Expr *Call = B.call(B.funcRef(const_cast<FunctionDecl *>(FD)), Vs);
  if (FD->getReturnType()->isVoidType() && CE != Discard) {
    emit(Call);
    return {};
  }
  return {Call, nullptr};
}

VT TangentBuilder::linearPushforwardCall(const CallExpr *CE,
                                         const FunctionDecl *FD,
                                         ArrayRef<VT> Args) {
  // Every argument with a tangent is an adjoint: only its lanes are
  // passed, to the linear pushforward. Without one, the call is the
  // pullback's own (a forward half, a primal helper).
  unsigned NP = FD->getNumParams();
  WrtMask With(NP, false);
  for (unsigned I = 0; I < NP; ++I) {
    if (!Args[I].T)
      continue;
    QualType PT = FD->getParamDecl(I)->getType();
    // (Pointers, scalars, and containers by reference: `const
    // std::array<double, 3> &d_ret` of a callee returning one.)
    if (!PT->isPointerType() && !isFloating(PT) &&
        !(PT->isReferenceType() && !tanType(PT.getNonReferenceType()).isNull()))
      return {fail(CE->getArg(I), "adjoint '" + spelled(CE->getArg(I)) +
                                      "' passed to '" + nameOf(FD) +
                                      "'"),
              nullptr};
    With[I] = true;
  }
  if (!llvm::is_contained(With, true))
    return primalCall(CE, FD, Args);
  if (!FD->getReturnType()->isVoidType())
    return {fail(CE, "call to '" + nameOf(FD) +
                         "' with adjoint arguments and a result"),
            nullptr};
  std::string Why;
  PushforwardEntry *Callee = D.calleePushforward(FD, CE->getExprLoc(), Primal,
                                                 Why, &With, &With, Lanes,
                                                 /*Linear=*/true);
  if (!Callee)
    return {fail(CE, "call to '" + nameOf(FD) + "' (" + Why + ")"),
            nullptr};
  SmallVector<Expr *, 8> Vs;
  for (unsigned I = 0; I < NP; ++I)
    if (!With[I])
      Vs.push_back(Args[I].V);
  for (unsigned I = 0; I < NP; ++I)
    if (With[I])
      Vs.push_back(Args[I].T);
  Expr *Call = B.call(B.funcRef(Callee->Pushforward), Vs);
  if (CE == Discard)
    return {Call, nullptr};
  emit(Call);
  return {};
}

bool TangentBuilder::narrowReadOnly(const FunctionDecl *FD, ArrayRef<VT> Args,
                                    const WrtMask &Drop, WrtMask &Only) {
  bool Narrow = false;
  for (unsigned I = 0; I < FD->getNumParams(); ++I) {
    if (!Only[I] || Args[I].T || Drop[I])
      continue;
    QualType PT = FD->getParamDecl(I)->getType();
    ParamKind K = classifyParam(Ctx, PT).Kind;
    bool ReadOnly =
        (K == ParamKind::Pointer && PT->isPointerType() &&
         PT->getPointeeType().isConstQualified()) ||
        (K == ParamKind::Class &&
         (!PT->isReferenceType() ||
          PT.getNonReferenceType().isConstQualified()));
    if (ReadOnly) {
      Only[I] = false;
      Narrow = true;
    }
  }
  return Narrow;
}

bool TangentBuilder::calleeTangentArgs(const CallExpr *CE,
                                       const FunctionDecl *FD,
                                       const PullbackSignature &Sig,
                                       ArrayRef<VT> Args,
                                       SmallVectorImpl<Expr *> &Ts) {
  for (unsigned I = 0; I < FD->getNumParams(); ++I) {
    int TI = Sig.AdjointIndex[I];
    if (TI < 0)
      continue;
    QualType PT = Sig.ParamTypes[TI];
    Expr *T = Args[I].T;
    const ParmVarDecl *P = FD->getParamDecl(I);
    ParamKind K = classifyParam(Ctx, P->getType()).Kind;
    if (K == ParamKind::Scalar) {
      Ts.push_back(orZero(T, PT));
      continue;
    }
    // A constant given to `double &&` (`std::exchange(p, 1.5)`): a zero
    // tangent, in a local below.
    if (!T && K == ParamKind::ScalarRef &&
        P->getType()->isRValueReferenceType())
      T = orZero(nullptr, (PT->isPointerType() ? PT->getPointeeType()
                                               : PT.getNonReferenceType())
                              .getUnqualifiedType());
    if (!T) {
      // Read-only objects without a tangent: a zero object stands in.
      if (K == ParamKind::Class && PT->isReferenceType() &&
          !isa<ClassTemplateSpecializationDecl>(
              PT.getNonReferenceType()->getAsCXXRecordDecl())) {
        Ts.push_back(zeroOf(PT.getNonReferenceType()));
        continue;
      }
      return failed(CE->getArg(I), "argument '" + spelled(CE->getArg(I)) +
                                       "' of '" + nameOf(FD) +
                                       "', which has no tangent");
    }
    if (K == ParamKind::ScalarRef && !T->isLValue() && !NoHoist) {
      // A temporary given to `double &&`: its tangent, in a local.
      VarDecl *V = B.var(Fn, fresh("t"), T->getType().getUnqualifiedType(), T);
      emit(B.declStmt(V));
      T = B.ref(V);
    }
    if (K == ParamKind::ScalarRef ||
        (K == ParamKind::Class && PT->isPointerType()))
      T = B.addrOf(T);
    // (`&_t_q` of a `const double *q` for the `double **` tangent of a
    // `const double **` parameter: the same pointers, qualified
    // differently below the top level.)
    if (T && PT->isPointerType() && T->getType()->isPointerType() &&
        !Ctx.hasSameType(T->getType(), PT) &&
        Ctx.hasSimilarType(T->getType(), PT))
      T = B.constCast(PT, T);
    Ts.push_back(T);
  }
  return true;
}

VT TangentBuilder::pushforwardResult(const CallExpr *CE, const FunctionDecl *FD,
                                     const PushforwardEntry &Callee, Expr *Call,
                                     const PointedResult &P) {
  if (FD->getReturnType()->isVoidType()) {
    if (CE == Discard)
      return {Call, nullptr};
    emit(Call);
    return {};
  }
  if (NoHoist)
    return {fail(CE, "call to '" + nameOf(FD) +
                         "' in a loop condition or increment"),
            nullptr};
  VarDecl *Res =
      B.var(Fn, fresh("r"), Callee.Pushforward->getReturnType(), Call);
  emit(B.declStmt(Res));
  if (P.Ptr && P.Scalar)
    return {B.ref(Res), P.T};
  if (P.Ptr) {
    Expr *At = P.Ref ? B.addrOf(B.ref(Res)) : B.ref(Res);
    Expr *T =
        P.T ? B.binop(BO_Add, P.T, B.paren(B.binop(BO_Sub, At, P.V))) : nullptr;
    return {B.ref(Res), P.Ref && T ? B.deref(B.paren(T)) : T};
  }
  Expr *Der = Lanes ? B.callRuntime("lanes_of", {}, {B.ref(Res)})
                    : B.subscript(B.member(B.ref(Res), "der"),
                                  B.intLit(0, Ctx.getSizeType()));
  return {B.member(B.ref(Res), "val"), Der};
}

VT TangentBuilder::pushforwardCall(const CallExpr *CE, const FunctionDecl *FD) {
  std::string Why;
  unsigned NP = FD->getNumParams();
  // Arguments pointing into dropped memory: the callee drops them too.
  WrtMask Drop = droppedArgs(CE, FD);
  PointedResult P = pointedResult(CE, FD);
  if (P.Ptr && !P.Arg)
    return {fail(CE, std::string(P.Ref ? "reference" : "pointer") +
                         " returned by '" + nameOf(FD) +
                         "', whose target the plugin cannot track (it must "
                         "point into one pointer or container argument)"),
            nullptr};
  SmallVector<VT, 8> Args;
  if (!pushforwardArgs(CE, FD, Drop, P, Args))
    return {};
  if (Linear)
    return linearPushforwardCall(CE, FD, Args);
  // No argument carries a tangent: the call's derivative is zero, and the
  // primal runs as written (a user's NAME_pushforward is not called).
  // (Not a generated function: its reverse half reads the tangents it
  // saves.)
  if (!Lanes && !P.Ptr && !llvm::is_contained(Drop, true) &&
      !D.isGenerated(FD->getCanonicalDecl()) && !D.isGenerated(FD) &&
      llvm::none_of(Args, [](const VT &A) { return A.T != nullptr; }))
    return primalCall(CE, FD, Args);
  // Read-only memory without a tangent (data, constant tables) needs none:
  // the callee's pushforward for the other parameters.
  WrtMask Only = fullMask(FD);
  Only.resize(NP);
  bool Narrow = narrowReadOnly(FD, Args, Drop, Only);
  // Vector mode and a user's scalar NAME_pushforward: the user's
  // derivative wins, called once per lane (unless the user also declared
  // the overload taking grad::lanes, which is called as it is).
  if (Lanes && !Narrow && !llvm::is_contained(Drop, true)) {
    PullbackSignature Scalar, Vector;
    std::string W;
    auto *F = const_cast<FunctionDecl *>(FD);
    bool UserLanes =
        computePushforwardSignature(S, F, Only, Vector, W, Lanes) &&
        D.userDerivative(FD, Vector);
    if (!UserLanes &&
        computePushforwardSignature(S, F, Only, Scalar, W, 0))
      if (FunctionDecl *User = D.userDerivative(FD, Scalar))
        return perLaneCall(CE, FD, User, Scalar, Args);
  }
  PushforwardEntry *Callee =
      D.calleePushforward(FD, CE->getExprLoc(), Primal, Why,
                          llvm::is_contained(Drop, true) ? &Drop : nullptr,
                          Narrow ? &Only : nullptr, Lanes);
  if (!Callee)
    return {fail(CE, "call to '" + nameOf(FD) + "' (" + Why + ")"),
            nullptr};
  SmallVector<Expr *, 8> Vs, Ts;
  if (!calleeTangentArgs(CE, FD, Callee->Sig, Args, Ts))
    return {};
  for (const VT &A : Args)
    Vs.push_back(A.V);
  for (Expr *T : Ts)
    Vs.push_back(T);
  Expr *Call = B.call(B.funcRef(Callee->Pushforward), Vs);
  return pushforwardResult(CE, FD, *Callee, Call, P);
}

/// True if \p OC calls an empty function object (a comparator such as
/// std::greater<double>()) that writes nothing through its parameters.
static bool isStatelessPredicate(const CXXOperatorCallExpr *OC) {
  const CXXRecordDecl *FO =
      OC->getArg(0)->getType().getNonReferenceType()->getAsCXXRecordDecl();
  return FO && FO->hasDefinition() && FO->isEmpty() &&
         (writesNothing(OC->getDirectCallee()) ||
          llvm::all_of(OC->getDirectCallee()
                           ? OC->getDirectCallee()->parameters()
                           : ArrayRef<ParmVarDecl *>(),
                       [](const ParmVarDecl *P) {
                         QualType T = P->getType();
                         return !T->isPointerType() &&
                                (!T->isReferenceType() ||
                                 T.getNonReferenceType().isConstQualified());
                       }));
}

/// A call of an overloaded operator: a lifted lambda's call, a subscript,
/// an assignment, a stateless predicate, iterator arithmetic, or anything
/// else run as written when no object with floating data takes part.
VT TangentBuilder::operatorCall(const CXXOperatorCallExpr *OC, bool NeedT) {
  const CallExpr *CE = OC;
  OverloadedOperatorKind OK = OC->getOperator();
  if (OK == OO_Call && OC->getNumArgs() >= 1 && findLambda(OC->getArg(0))) {
    const CallExpr *Lifted = liftedCall(OC);
    return Lifted ? call(Lifted, NeedT) : VT{};
  }
  if (OK == OO_Subscript && OC->getNumArgs() == 2) {
    VT Base = expr(OC->getArg(0), true);
    VT Idx = expr(OC->getArg(1), false);
    Expr *I2 = Base.T ? dup(Idx, OC->getArg(1)) : nullptr;
    return {B.subscript(Base.V, Idx.V),
            Base.T ? B.subscript(Base.T, I2) : nullptr};
  }
  if (OK == OO_Equal && OC->getNumArgs() == 2)
    return assignment(CE, BO_Assign, OC->getArg(0), OC->getArg(1));
  // A stateless predicate (a comparator such as std::greater<double>())
  // called on values: run as written; nothing it returns has a tangent.
  if (OK == OO_Call && !floatingOrPointer(CE->getType()) &&
      isStatelessPredicate(OC)) {
    VT Obj = expr(OC->getArg(0), false);
    SmallVector<Expr *, 2> Vals;
    for (unsigned I = 1; I < OC->getNumArgs() && Obj.V; ++I) {
      Vals.push_back(expr(OC->getArg(I), false).V);
      if (!Vals.back())
        return {};
    }
    return {Obj.V ? B.call(Obj.V, Vals) : nullptr, nullptr};
  }
  // `it + k`, `it - k`, `it1 - it2` on iterators: positions, as written.
  if ((OK == OO_Plus || OK == OO_Minus) && OC->getNumArgs() == 2 &&
      holdsWritablePointer(
          OC->getArg(0)->getType().getNonReferenceType()) &&
      !isFloating(CE->getType()) && !CE->getType()->isPointerType()) {
    VT L = expr(OC->getArg(0), false);
    VT R = L.V ? expr(OC->getArg(1), false) : VT{};
    if (!R.V)
      return {};
    return {B.binop(OK == OO_Plus ? BO_Add : BO_Sub, L.V, R.V), nullptr};
  }
  return operatorAsWritten(OC, NeedT);
}

/// Any other operator (stream output, comparisons of library types): run
/// as written when no object with floating data takes part (a `v += w` on
/// a struct would change values without their tangents).
VT TangentBuilder::operatorAsWritten(const CXXOperatorCallExpr *OC,
                                     bool NeedT) {
  const CallExpr *CE = OC;
  OverloadedOperatorKind OK = OC->getOperator();
  // A functor's call operator: named by its class (the arguments are not
  // what is refused).
  if (std::string Why = unseenTarget(Ctx, CE); !Why.empty())
    return {fail(CE, Why), nullptr};
  if (OK == OO_Call)
    return {fail(CE, "call operator of '" +
                         OC->getArg(0)
                             ->getType()
                             .getNonReferenceType()
                             .getUnqualifiedType()
                             .getAsString(Ctx.getPrintingPolicy()) +
                         "' (forward mode does not differentiate member "
                         "functions yet)"),
            nullptr};
  for (const Expr *A : OC->arguments())
    if (hasFloatingData(A->getType().getNonReferenceType()))
      return {fail(CE, std::string("operator '") +
                           getOperatorSpelling(OK) + "' on '" +
                           A->getType()
                               .getNonReferenceType()
                               .getUnqualifiedType()
                               .getAsString(Ctx.getPrintingPolicy()) +
                           "'"),
              nullptr};
  SmallVector<VT, 2> Args;
  for (const Expr *A : OC->arguments()) {
    Args.push_back(expr(A, false));
    if (!Args.back().V)
      return {};
  }
  if (floatingOrPointer(CE->getType()) && NeedT &&
      (isFloating(CE->getType()) || hasFloatingData(CE->getType())))
    return {fail(CE, constructName(CE)), nullptr};
  if (OC->getNumArgs() == 2) {
    BinaryOperatorKind BK = BinaryOperator::getOverloadedOpcode(OK);
    return {B.binop(BK, Args[0].V, Args[1].V), nullptr};
  }
  if (OC->getNumArgs() == 1) {
    UnaryOperatorKind UK = UnaryOperator::getOverloadedOpcode(OK, false);
    return {B.unop(UK, Args[0].V), nullptr};
  }
  return {fail(CE, constructName(CE)), nullptr};
}

/// True if a tangent may flow through \p CE by the types of its value and
/// of its arguments (floating data, or a pointer that may reach some).
static bool typesMayCarryTangent(const CallExpr *CE) {
  auto Carries = [](QualType T) {
    T = T.getNonReferenceType();
    if (T->isPointerType())
      T = T->getPointeeType();
    return isFloating(T) || hasFloatingData(T) || T->isPointerType() ||
           T->isVoidType();
  };
  if (!CE->getType()->isVoidType() && Carries(CE->getType()))
    return true;
  return llvm::any_of(CE->arguments(), [&](const Expr *A) {
    return Carries(A->getType());
  });
}

bool TangentBuilder::byShape(const CallExpr *CE, VT &Done) {
  switch (CallShape Shape = callShape(CE)) {
  case CallShape::Function:
  case CallShape::StaticMember:
  case CallShape::Member:
  case CallShape::Destructor:
  case CallShape::FreeOperator:
  case CallShape::MemberOperator:
  case CallShape::Lambda:
  case CallShape::Functor:
  case CallShape::Builtin:
  case CallShape::Literal:
  case CallShape::PseudoDestructor:
    return false; // dispatched by call
  case CallShape::FunctionPointer:
  case CallShape::MemberPointer:
    // A callback given no floating data and returning none (`log(n)`):
    // as written. Else refused by call.
    if (typesMayCarryTangent(CE))
      return false;
    Done = {replayed(CE), nullptr};
    return true;
  case CallShape::Virtual:
  case CallShape::Variadic:
    return false; // refused by call where a tangent would flow through it
  case CallShape::Kernel:
  case CallShape::Unknown:
    Done = {fail(CE, callShapeRefusal(Ctx, CE, Shape)), nullptr};
    return true;
  }
  Done = {fail(CE, constructName(CE)), nullptr};
  return true;
}

/// True if the virtual method \p MD is given or returns differentiated
/// data through its parameters or its object.
static bool virtualTakesData(const CXXMethodDecl *MD) {
  bool Data = false;
  for (const ParmVarDecl *P : MD->parameters()) {
    QualType T = P->getType();
    QualType O =
        T->isPointerType() ? T->getPointeeType() : T.getNonReferenceType();
    Data |= (T->isPointerType() || T->isReferenceType()) &&
            (isFloating(O) || hasFloatingData(O));
  }
  Data |= hasFloatingData(MD->getThisType()->getPointeeType());
  return Data;
}

/// True if \p FD is the runtime's `grad::detail::` helper one of \p Names.
static bool isRuntimeDetail(const FunctionDecl *FD,
                            std::initializer_list<StringRef> Names) {
  return FD->getIdentifier() && llvm::is_contained(Names, FD->getName()) &&
         StringRef(FD->getQualifiedNameAsString())
             .starts_with("grad::detail::");
}

VT TangentBuilder::linearRuntimeCall(const CallExpr *CE,
                                     const FunctionDecl *FD) {
  SmallVector<Expr *, 2> Vs, Ts;
  bool Any = false;
  for (const Expr *A : CE->arguments()) {
    VT X = expr(A, true);
    if (!X.V)
      return {};
    Vs.push_back(X.V);
    Ts.push_back(X.T);
    Any |= X.T != nullptr;
  }
  if (Any) {
    if (!Ts[0])
      return {fail(CE, "write of a differentiated value to memory without "
                       "a tangent"),
              nullptr};
    // (Lanes: the runtime's template deduced again for the tangents.)
    if (Ts.size() < 2 || Ts[1])
      emit(Lanes ? B.callRuntime(FD->getName(), {}, Ts, /*Detail=*/true)
                 : B.call(B.funcRef(const_cast<FunctionDecl *>(FD)), Ts));
    if (Linear) // (no value to zero or accumulate)
      return {};
  }
  return {B.call(B.funcRef(const_cast<FunctionDecl *>(FD)), Vs), nullptr};
}

bool TangentBuilder::runtimeHelper(const CallExpr *CE, const FunctionDecl *FD,
                                   bool NeedT, VT &Out) {
  // A pullback built in verify mode, pushed forward (HVP, vector pullback):
  // `verify_reread(now, then, what)` is `now`. ...
  if (CE->getNumArgs() == 3 && isRuntimeDetail(FD, {"verify_reread"}))
    Out = expr(CE->getArg(0), NeedT);
  // Its other checks are the scalar pullback's: `verify_mix(h, v)` is `h`,
  // `verify_recall` and `verify_iteration` are dropped.
  else if (CE->getNumArgs() == 2 && isRuntimeDetail(FD, {"verify_mix"}))
    Out = expr(CE->getArg(0), false);
  else if (CE->getNumArgs() == 3 &&
           isRuntimeDetail(FD, {"verify_recall", "verify_iteration"}))
    Out = {};
  // `check_shape(*d_x, x, what)` at a pullback's entry: the adjoint's
  // tangent, which stands in for it (a Hessian-vector product's output),
  // has the shape.
  else if (CE->getNumArgs() >= 3 && isRuntimeDetail(FD, {"check_shape"}))
    Out = shapeCheckCall(CE, FD);
  // The runtime's `zeroed<T>()` (a struct's zero shadow) is a constant.
  else if (CE->getNumArgs() == 0 && isRuntimeDetail(FD, {"zeroed"}))
    Out = {B.call(B.funcRef(const_cast<FunctionDecl *>(FD)), {}), nullptr};
  // The runtime's sin_cos(x), pair_sin(x), pair_cos(x) (sin and cos in a
  // pullback that a Hessian-vector product pushes forward).
  else if (CE->getNumArgs() == 1 &&
           isRuntimeDetail(FD, {"sin_cos", "pair_sin", "pair_cos"}))
    Out = sinCosPair(CE, FD, NeedT);
  // The runtime's `zero(x)` and `accumulate(dst, src)` in a pullback are
  // linear: the same call on the tangents. (Linear mode: `shadow_free(p)`
  // of a shadow frees its lanes.)
  else if (isRuntimeDetail(FD, {"zero", "accumulate"}) ||
           (Linear && isRuntimeDetail(FD, {"shadow_free"})))
    Out = linearRuntimeCall(CE, FD);
  else
    return false;
  return true;
}

VT TangentBuilder::shapeCheckCall(const CallExpr *CE, const FunctionDecl *FD) {
  AllowDropped = true;
  VT Adj = expr(CE->getArg(0), true);
  AllowDropped = false;
  VT Val = expr(CE->getArg(1), false);
  VT What = expr(CE->getArg(2), false);
  if (!Adj.T || !Val.V || !What.V)
    return {fail(CE, "entry check of an adjoint without a tangent"), nullptr};
  return {B.call(B.funcRef(const_cast<FunctionDecl *>(FD)),
                 {Adj.T, Val.V, What.V}),
          nullptr};
}

VT TangentBuilder::accessorCall(const CallExpr *CE, const FunctionDecl *FD,
                                const Expr *Acc, bool NeedT) {
  SmallVector<VT, 4> Args;
  for (const Expr *A : CE->arguments()) {
    if (isa<CXXDefaultArgExpr>(A))
      break;
    Args.push_back(expr(A, A == Acc));
    if (!Args.back().V)
      return {};
  }
  SmallVector<Expr *, 4> Vs, Ts;
  bool HasT = false;
  for (unsigned I = 0; I < Args.size(); ++I) {
    const Expr *A = CE->getArg(I);
    if (A == Acc) {
      HasT = Args[I].T != nullptr;
      Ts.push_back(Args[I].T);
    } else {
      Ts.push_back(dup(Args[I], A));
    }
    Vs.push_back(Args[I].V);
  }
  Expr *Fn2 = B.funcRef(const_cast<FunctionDecl *>(FD));
  if (HasT && Lanes && NeedT)
    return laneAccessor(CE, FD, Acc, Args, Vs, Ts);
  if (Lanes)
    HasT = false; // (lanes cannot be passed to the accessor itself)
  Expr *V = B.call(Fn2, Vs);
  return {V, HasT ? B.call(B.funcRef(const_cast<FunctionDecl *>(FD)), Ts)
                  : nullptr};
}

VT TangentBuilder::nodiffCall(const CallExpr *CE, const FunctionDecl *FD) {
  SmallVector<Expr *, 4> Vs;
  for (const Expr *A : CE->arguments()) {
    if (isa<CXXDefaultArgExpr>(A))
      break;
    VT X = expr(A, false);
    if (!X.V)
      return {};
    Vs.push_back(X.V);
  }
  return {B.call(B.funcRef(const_cast<FunctionDecl *>(FD)), Vs), nullptr};
}

VT TangentBuilder::opaqueCall(const CallExpr *CE, const FunctionDecl *FD,
                              bool NeedT) {
  bool FloatResult = floatingOrPointer(FD->getReturnType());
  // (`std::bit_cast<std::uint64_t>(x)`: the derivative cannot follow.)
  QualType BitsTo;
  const Expr *Bits = bitCopySource(CE, BitsTo);
  SmallVector<Expr *, 4> Vs;
  bool AnyT = false;
  for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
    const Expr *A = CE->getArg(I);
    if (isa<CXXDefaultArgExpr>(A))
      break;
    bool BitsArg =
        Bits && A->IgnoreParenImpCasts() == Bits->IgnoreParenImpCasts();
    VT X = expr(A, (NeedT && FloatResult) || BitsArg);
    if (!X.V)
      return {};
    if (BitsArg && X.T)
      return {fail(CE, bitCopyMessage(Ctx, CE)), nullptr};
    // Differentiated memory handed to a parameter that may write it
    // (`memset(a, 0, sizeof a)` through `void *`): its tangent would be
    // left as it was.
    if (X.T && I < FD->getNumParams()) {
      // (A lifted lambda's argument is what it captures: no generated
      // name in the message.)
      if (writableParam(FD->getParamDecl(I)->getType()) &&
          FD->getName().starts_with("_grad_lambda_")) {
        const auto *DRE = dyn_cast<DeclRefExpr>(A->IgnoreParenImpCasts());
        return {fail(A, "call of a lambda writing '" +
                            (DRE ? DRE->getDecl()->getNameAsString()
                                 : spelled(A)) +
                            "', which it captures by reference (assign "
                            "it in this function instead)"),
                nullptr};
      }
      if (writableParam(FD->getParamDecl(I)->getType()))
        return {fail(A, "call to '" + nameOf(FD) +
                            "', which may write the differentiated memory '" +
                            spelled(A) +
                            "' and has no visible body or user pushforward"),
                nullptr};
    }
    AnyT |= X.T != nullptr;
    Vs.push_back(X.V);
  }
  if (NeedT && FloatResult && AnyT &&
      (isFloating(FD->getReturnType()) || FD->getReturnType()->isPointerType()))
    return {fail(CE, "call to '" + nameOf(FD) +
                         "' (no visible body, no derivative rule and no "
                         "user pushforward)"),
            nullptr};
  return {B.call(B.funcRef(const_cast<FunctionDecl *>(FD)), Vs), nullptr};
}

/// A lambda given to a library function the call would differentiate
/// (`std::nth_element(b, b + 1, b + 3, cmp)`; the algorithms that only call
/// their callable reach here as calls of their views), or null.
static const Expr *lambdaToLibrary(const CallExpr *CE, const FunctionDecl *FD) {
  if (!FD->isInStdNamespace())
    return nullptr;
  for (const Expr *A : CE->arguments())
    if (findLambda(A))
      return A;
  return nullptr;
}

VT TangentBuilder::call(const CallExpr *CE, bool NeedT) {
  // `it -= 1`, `it == v.end()` of an iterator that only marks a
  // position: as written.
  if (onPosition(CE))
    return {replayed(CE), nullptr};
  // grad::map / grad::broadcast: lowered in reverse mode only.
  StringRef Prim = runtimePrimitive(CE);
  if (Prim == "map" || Prim == "broadcast")
    return {fail(CE, "call to 'grad::" + Prim +
                         "' (map and broadcast are lowered in reverse mode "
                         "only: write the loop)"),
            nullptr};
  // std::min(a, b, comp): the '?:' it evaluates.
  if (hasComparator(Facts::get(Ctx), CE))
    return conditional(selectorForm(Facts::get(Ctx), CE), NeedT);
  // std::fill(v.begin(), v.end(), x), a.fill(x): the call over pointers.
  if (const CallExpr *PF = pointerForm(Facts::get(Ctx), CE))
    return call(PF, NeedT);
  if (VT Done; byShape(CE, Done))
    return Done;
  // A virtual call whose override is not known, given or returning
  // differentiated data.
  if (const CXXMethodDecl *MD = virtualDispatch(CE))
    if ((NeedT && floatingOrPointer(CE->getType())) || virtualTakesData(MD))
      return {fail(CE, virtualCallName(MD)), nullptr};
  // free(w) of heap memory with a tangent: the tangent memory too.
  if (isDeallocation(CE->getDirectCallee()) && CE->getNumArgs() == 1)
    if (Expr *FreeT = freedTangent(CE->getArg(0))) {
      emit(FreeT);
      VT P = expr(CE->getArg(0), false);
      auto *Free = const_cast<FunctionDecl *>(CE->getDirectCallee());
      return {P.V ? B.call(B.funcRef(Free), {P.V}) : nullptr, nullptr};
    }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
    return memberCall(MC, NeedT);
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE))
    return operatorCall(OC, NeedT);
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return {fail(CE, constructName(CE)), nullptr};
  if (const Expr *A = movedArg(CE))
    return expr(A, NeedT);
  if (VT Out; runtimeHelper(CE, FD, NeedT, Out))
    return Out;
  // An accessor (`double *at(double *a, int i) { return a + i; }`): called
  // on the tangent memory, it gives the tangent location.
  if (const Expr *Acc = accessorArg(CE))
    return accessorCall(CE, FD, Acc, NeedT);
  // [[grad::nodiff]]: its calls are constants for differentiation (SPEC),
  // as in reverse mode: run as written, without tangents.
  if (Facts::get(Ctx).isNodiff(FD))
    return nodiffCall(CE, FD);
  if (const Rule *R = findRule(FD))
    return ruleCall(CE, FD, *R, NeedT);
  return functionCall(CE, FD, NeedT);
}

/// A call of a function the rules do not know: pushed forward when
/// anything differentiated flows into or out of it, else run as written.
VT TangentBuilder::functionCall(const CallExpr *CE, const FunctionDecl *FD,
                                bool NeedT) {
  // (A library template's specialization may not be instantiated yet:
  // `std::accumulate(a, a + n, 0.0)`.)
  bool HasBody = instantiatedDefinition(S, FD, CE->getBeginLoc()) ||
                 FD->hasBody();
  // Does anything differentiated flow into or out of the call? A generated
  // function (the forward half of a split pullback) also saves values on
  // the tape, which its reverse half reads with their tangents: always
  // pushed forward.
  // (A helper that only reads through its pointers is pushed forward all
  // the same: its pointer result's tangent comes from its pushforward.)
  // (The halves of a std function's split derivative are generated in
  // its namespace, and defined later; those returning a pointer, the scans'
  // output iterators, are refused at the call.)
  bool Generated =
      D.isGenerated(FD->getCanonicalDecl()) || D.isGenerated(FD);
  bool Writes = writesThroughParams(FD, /*Deep=*/false) || Generated;
  bool FloatResult = floatingOrPointer(FD->getReturnType());
  if (!pushforwardUnsupported(FD) && !FD->isVariadic() &&
      (Writes || (NeedT && FloatResult)) &&
      (HasBody || !FD->isInStdNamespace() ||
       (Generated && !FD->getReturnType()->isPointerType()))) {
    if (const Expr *L = lambdaToLibrary(CE, FD))
      return {fail(L, lambdaPassed(Ctx, L, FD, "(write the loop)")), nullptr};
    return pushforwardCall(CE, FD);
  }
  if (Writes)
    return {fail(CE, "call to '" + nameOf(FD) +
                         "', which writes differentiated memory and has no "
                         "visible body or user pushforward"),
            nullptr};
  return opaqueCall(CE, FD, NeedT);
}

/// `sin_cos(x)` (or the pair with one member, `pair_sin(x)`, `pair_cos(x)`):
/// the whole pair P and its tangent {P.cos * t_x, -P.sin * t_x}.
VT TangentBuilder::sinCosPair(const CallExpr *CE, const FunctionDecl *FD,
                              bool NeedT) {
  VT X = expr(CE->getArg(0), NeedT);
  if (!X.V)
    return {};
  auto *Callee = const_cast<FunctionDecl *>(FD);
  if (!X.T)
    return {B.call(B.funcRef(Callee), {X.V}), nullptr};
  QualType PT = CE->getType().getUnqualifiedType();
  if (Lanes)
    return {fail(CE, "sin and cos of a differentiated value in a pullback "
                     "in vector mode"),
            nullptr};
  Expr *Pair = B.callRuntime("sin_cos", {}, {X.V});
  Pair = hoist(Pair, PT, nullptr);
  Expr *TX = hoist(X.T, X.T->getType(), nullptr);
  if (!Pair || !TX)
    return {};
  auto *P = cast<DeclRefExpr>(Pair->IgnoreParenImpCasts())->getDecl();
  auto *TV = cast<DeclRefExpr>(TX->IgnoreParenImpCasts())->getDecl();
  Expr *DSin = mul(B.member(B.ref(P), "__cos"), B.ref(TV));
  Expr *DCos =
      mul(B.paren(B.unop(UO_Minus, B.member(B.ref(P), "__sin"))), B.ref(TV));
  return {Pair, B.construct(PT, {DSin, DCos}, /*List=*/true)};
}

} // namespace tangent
} // namespace grad
