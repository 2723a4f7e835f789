//===- TangentLanes.cpp - Calls in vector mode ----------------------------===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Calls that vector mode (`lanes=N`) handles on its own: a user's scalar
/// pushforward called once per lane, and an accessor's location in tangent
/// memory that holds lanes.
///
//===----------------------------------------------------------------------===//

#include "forward/TangentBuilder.h"
#include "ast/Diagnostics.h"

namespace grad {
namespace tangent {

VT TangentBuilder::perLaneCall(const CallExpr *CE, const FunctionDecl *FD,
                                FunctionDecl *User,
                                const PullbackSignature &Sig,
                                SmallVectorImpl<VT> &Args) {
  std::string Name = nameOf(FD);
  if (NoHoist)
    return {fail(CE, "call to '" + Name +
                         "' in a loop condition or increment"),
            nullptr};
  for (unsigned I = 0; I < FD->getNumParams(); ++I)
    if (Sig.AdjointIndex[I] >= 0 &&
        classifyParam(Ctx, FD->getParamDecl(I)->getType()).Kind !=
            ParamKind::Scalar)
      return {fail(CE->getArg(I),
                   "call to '" + Name + "', whose user pushforward '" +
                       User->getNameAsString() +
                       "' has scalar tangents, in vector mode (lanes are "
                       "passed one at a time for floating scalar parameters "
                       "only: declare an overload taking grad::lanes)"),
              nullptr};
  // Values and tangents are evaluated once, before the loop over lanes.
  SmallVector<Expr *, 8> Vs;
  SmallVector<std::pair<ValueDecl *, QualType>, 8> Ts;
  for (unsigned I = 0; I < FD->getNumParams(); ++I) {
    Expr *V = dup(Args[I], CE->getArg(I));
    if (!V)
      return {};
    Vs.push_back(V);
    int TI = Sig.AdjointIndex[I];
    if (TI < 0)
      continue;
    Expr *T = Args[I].T;
    if (T && !isa<DeclRefExpr>(T->IgnoreParenImpCasts()))
      T = hoist(T, T->getType(), nullptr);
    Ts.push_back(
        {T ? cast<DeclRefExpr>(T->IgnoreParenImpCasts())->getDecl() : nullptr,
         Sig.ParamTypes[TI]});
  }
  QualType R = FD->getReturnType().getUnqualifiedType();
  bool Void = R->isVoidType();
  VarDecl *Val = nullptr, *Tan = nullptr;
  if (!Void) {
    Val = B.var(Fn, fresh("v"), R, nullptr);
    Tan = B.var(Fn, fresh("t"), tanType(R), zeroOf(R));
    emit(B.declStmt(Val));
    emit(B.declStmt(Tan));
  }
  // for (std::size_t _k = 0; _k < N; ++_k) {
  //   auto _r = NAME_pushforward(values..., tangents[_k]...);
  //   _t[_k] = _r.der[0]; _v = _r.val;
  // }
  QualType SizeT = Ctx.getSizeType();
  VarDecl *K = B.var(Fn, fresh("k"), SizeT, B.intLit(0, SizeT));
  SmallVector<Expr *, 8> CallArgs(Vs.begin(), Vs.end());
  for (auto &[T, TTy] : Ts)
    CallArgs.push_back(T ? B.subscript(B.ref(T), B.ref(K)) : B.zero(TTy));
  Expr *Call = B.call(B.funcRef(User), CallArgs);
  SmallVector<Stmt *, 4> Body;
  if (Void) {
    Body.push_back(Call);
  } else {
    VarDecl *Res = B.var(Fn, fresh("r"), User->getReturnType(), Call);
    Body.push_back(B.declStmt(Res));
    Body.push_back(B.assign(
        B.subscript(B.ref(Tan), B.ref(K)),
        B.subscript(B.member(B.ref(Res), "der"), B.intLit(0, SizeT))));
    Body.push_back(B.assign(B.ref(Val), B.member(B.ref(Res), "val")));
  }
  emit(B.forStmt(B.declStmt(K),
                 B.binop(BO_LT, B.ref(K), B.intLit(Lanes, SizeT)),
                 B.unop(UO_PreInc, B.ref(K)), B.block(Body)));
  if (Void)
    return {};
  return {B.ref(Val), B.ref(Tan)};
}

VT TangentBuilder::laneAccessor(const CallExpr *CE, const FunctionDecl *FD,
                                 const Expr *Acc, SmallVectorImpl<VT> &Args,
                                 SmallVectorImpl<Expr *> &Vs,
                                 SmallVectorImpl<Expr *> &Ts) {
  // The tangent memory holds lanes, not the accessor's element type: the
  // location is found by the offset the accessor gave in the value memory,
  // `t_a + (at(a, i) - a)`.
  QualType AT = Acc->getType();
  QualType RT = FD->getReturnType();
  QualType RE = RT->getPointeeType();
  unsigned AI = 0;
  while (CE->getArg(AI) != Acc)
    ++AI;
  if (NoHoist || !AT->isPointerType() || !isFloating(RE) ||
      !Ctx.hasSameUnqualifiedType(AT->getPointeeType(), RE))
    return {fail(CE, "call to '" + nameOf(FD) +
                         "', which returns a location in its argument, in "
                         "vector mode (only element locations of floating "
                         "arrays, outside loop headers)"),
            nullptr};
  Expr *Base = dup(Args[AI], Acc);
  Vs[AI] = Args[AI].V;
  bool Ref = RT->isReferenceType();
  Expr *Call = B.call(B.funcRef(const_cast<FunctionDecl *>(FD)), Vs);
  Expr *Ptr = hoist(Ref ? B.addrOf(Call) : Call, Ctx.getPointerType(RE),
                    nullptr);
  if (!Ptr || !Base)
    return {};
  ValueDecl *PV = cast<DeclRefExpr>(Ptr)->getDecl();
  Expr *Tan = B.binop(BO_Add, Ts[AI],
                      B.paren(B.binop(BO_Sub, B.ref(PV), Base)));
  return {Ref ? B.deref(B.ref(PV)) : B.ref(PV), Ref ? B.deref(Tan) : Tan};
}

const CallExpr *TangentBuilder::liftedCall(const CXXOperatorCallExpr *OC) {
  auto Known = LambdaCalls.find(OC);
  if (Known != LambdaCalls.end())
    return Known->second;
  const LambdaExpr *L = findLambda(OC->getArg(0));
  SmallVector<const VarDecl *, 2> Copied;
  for (const auto &[Key, C] : CaptureCopies)
    if (Key.first == L)
      Copied.push_back(Key.second);
  if (L) {
    std::string Name = "lambda";
    if (const auto *DRE =
            dyn_cast<DeclRefExpr>(OC->getArg(0)->IgnoreParenImpCasts()))
      Name = "lambda '" + DRE->getDecl()->getNameAsString() + "'";
    std::string Why = copiedCaptureProblem(L, OC->getArg(0), Copied, Name);
    if (!Why.empty())
      return fail(OC, Why);
  }
  LambdaInfo *Info =
      D.lambdaInfo(OC->getArg(0), Def, nullptr, OC->getDirectCallee());
  FunctionDecl *Fn = Info ? D.liftFunction(*Info, 0, Def, nullptr) : nullptr;
  if (!Fn) {
    Errors = true;
    return nullptr;
  }
  // Its arguments as written, then the captured variables.
  SmallVector<Expr *, 6> Args;
  for (unsigned I = 1; I < OC->getNumArgs(); ++I)
    Args.push_back(const_cast<Expr *>(OC->getArg(I)));
  for (const LiftedCapture &C : Info->Caps) {
    if (C.This)
      return fail(OC, "call of a lambda capturing 'this'");
    auto Copy = C.ByRef ? CaptureCopies.end() : CaptureCopies.find({L, C.Var});
    VarDecl *V = Copy != CaptureCopies.end() ? Copy->second : C.Var;
    Args.push_back(DeclRefExpr::Create(
        Ctx, NestedNameSpecifierLoc(), SourceLocation(), V, false,
        OC->getExprLoc(), V->getType().getNonReferenceType(), VK_LValue));
  }
  SourceLocation Saved = B.Loc;
  B.Loc = OC->getExprLoc();
  const auto *Lifted =
      dyn_cast_or_null<CallExpr>(B.call(B.funcRef(Fn), Args));
  B.Loc = Saved;
  if (!Lifted)
    return fail(OC, "call of a lambda");
  LambdaCalls[OC] = Lifted;
  return Lifted;
}

} // namespace tangent
} // namespace grad
