//===- TangentStmts.cpp - Statements of pushforwards and HVPs ---------------===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Statements of a pushforward (declarations are in TangentDecls.cpp), the
/// binding of parameters (pushforward and HVP) and the entry points
/// buildPushforward / buildHvp.
///
//===----------------------------------------------------------------------===//

#include "analysis/Paths.h"
#include "ast/Diagnostics.h"
#include "ast/Records.h"
#include "analysis/Selectors.h"
#include "analysis/Sites.h"
#include "forward/TangentBuilder.h"
#include "ast/Replay.h"

namespace grad {
namespace tangent {

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

void TangentBuilder::block(const Stmt *St, SmallVectorImpl<Stmt *> &Out) {
  auto *Saved = Cur;
  Cur = &Out;
  if (const auto *CS = dyn_cast<CompoundStmt>(St))
    for (const Stmt *C : CS->body())
      stmt(C);
  else
    stmt(St);
  Cur = Saved;
}

/// The tangent of the returned value returned with it (a dual number,
/// lanes, or the pointer or reference itself).
void TangentBuilder::returnStmt(const ReturnStmt *RS) {
  modelled(RS);
  const Expr *RV = RS->getRetValue();
  if (RetT.isNull() || !RV) {
    if (RV) {
      const Expr *SavedDiscard = Discard;
      Discard = RV->IgnoreParenImpCasts();
      VT X = expr(RV, false);
      Discard = SavedDiscard;
      if (X.V)
        emit(X.V);
    }
    StmtResult Ret = S.BuildReturnStmt(B.Loc, nullptr);
    emit(Ret.isInvalid() ? nullptr : Ret.get());
    return;
  }
  if (RetT->isPointerType() || RetT->isReferenceType()) {
    // A pointer or reference into an argument: returned as it is
    // (callers find its tangent from its offset).
    VT X = expr(RV, false);
    if (X.V)
      emit(B.returnStmt(X.V));
    return;
  }
  VT X = expr(RV, true);
  if (!X.V)
    return;
  QualType VTy = Def->getReturnType().getUnqualifiedType();
  Expr *Tan = orZero(X.T, VTy);
  if (Lanes) {
    // return ::grad::detail::make_dual<R>(value, lanes);
    emit(B.returnStmt(B.callRuntime("make_dual", {B.typeArg(VTy)},
                                    {X.V, Tan})));
    return;
  }
  auto As = [&](Expr *X) {
    return X && Ctx.hasSameUnqualifiedType(X->getType(), VTy)
               ? X
               : B.staticCast(VTy, X);
  };
  Expr *TC = As(Tan);
  ExprResult Inner = S.ActOnInitList(B.Loc, MultiExprArg(&TC, 1), B.Loc);
  if (Inner.isInvalid()) {
    Errors = true;
    return;
  }
  Expr *Ret = B.construct(RetT, {As(X.V), Inner.get()},
                          /*List=*/true);
  emit(B.returnStmt(Ret));
  return;
}

/// `if` (with an init statement, constexpr), on the values' condition.
void TangentBuilder::ifStmt(const IfStmt *IS) {
  if (IS->isConsteval())
    return (void)fail(IS, "'if consteval'");
  if (IS->getConditionVariable())
    return (void)fail(IS, "'if' with a condition variable");
  SmallVector<Stmt *, 4> Scope;
  auto *Saved = Cur;
  bool Scoped = IS->getInit() != nullptr;
  if (Scoped) {
    Cur = &Scope;
    stmt(IS->getInit());
    StmtFailed = false;
  }
  if (IS->isConstexpr()) {
    // The branch clang chose.
    std::optional<const Stmt *> Taken = IS->getNondiscardedCase(Ctx);
    if (Taken && *Taken)
      stmt(*Taken);
  } else {
    VT C = expr(IS->getCond(), false);
    Stmt *Then = blockOf(IS->getThen());
    Stmt *Else = IS->getElse() ? blockOf(IS->getElse()) : nullptr;
    if (C.V)
      emit(B.ifStmt(B.condition(C.V), Then, Else));
  }
  if (Scoped) {
    Cur = Saved;
    emit(B.block(Scope));
  }
  return;
}

/// `for`: the header's values and tangents, the body as a block.
void TangentBuilder::forStmt(const ForStmt *FS) {
  if (FS->getConditionVariable())
    return (void)fail(FS, "'for' with a condition variable");
  SmallVector<Stmt *, 4> Scope;
  auto *Saved = Cur;
  Cur = &Scope;
  stmt(FS->getInit());
  StmtFailed = false;
  Expr *Cond = FS->getCond() ? condition(FS->getCond()) : nullptr;
  StmtFailed = false;
  Expr *Inc = headerExpr(FS->getInc());
  Stmt *Body = blockOf(FS->getBody());
  Cur = Saved;
  if ((FS->getCond() && !Cond) || (FS->getInc() && !Inc)) {
    Errors = true;
    return;
  }
  Stmt *Init = nullptr;
  if (Scope.size() == 1) {
    Init = Scope[0];
    Scope.clear();
  }
  Scope.push_back(B.forStmt(Init, Cond, Inc, Body));
  if (Scope.size() == 1)
    emit(Scope[0]);
  else
    emit(B.block(Scope));
  return;
}

/// `while` on the values' condition.
void TangentBuilder::whileStmt(const WhileStmt *WS) {
  if (WS->getConditionVariable())
    return (void)fail(WS, "'while' with a condition variable");
  Expr *Cond = condition(WS->getCond());
  Stmt *Body = blockOf(WS->getBody());
  if (Cond)
    emit(B.whileStmt(Cond, Body));
  else
    Errors = true;
  return;
}

/// `do ... while` on the values' condition.
void TangentBuilder::doStmt(const DoStmt *DoS) {
  Stmt *Body = blockOf(DoS->getBody());
  Expr *Cond = condition(DoS->getCond());
  if (Cond)
    emit(B.doStmt(Body, Cond));
  else
    Errors = true;
  return;
}

/// An expression statement: its value discarded, its tangent written
/// where it writes one.
void TangentBuilder::exprStmt(const Expr *X) {
  // (c ? a : b) op= e: if (c) a op= e; else b op= e;
  if (const IfStmt *IS = conditionalAssignment(Facts::get(Ctx), X)) {
    modelled(X->IgnoreParenImpCasts());
    return stmt(IS);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(X->IgnoreParenImpCasts());
      BO && BO->isAssignmentOp() && D.options().TestReplayAssignments) {
    emit(replayed(BO)); // (tests of checkSites only)
    return;
  }
  const Expr *SavedDiscard = Discard;
  Discard = X->IgnoreParenImpCasts();
  VT R = expr(X, false);
  Discard = SavedDiscard;
  if (R.V)
    emit(R.V);
  return;
}

void TangentBuilder::stmt(const Stmt *St) {
  if (!St)
    return;
  B.Loc = St->getBeginLoc();
  StmtFailed = false;
  if (const auto *CS = dyn_cast<CompoundStmt>(St)) {
    emit(blockOf(CS));
    return;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(St)) {
    declStmt(DS);
    return;
  }
  if (const auto *RS = dyn_cast<ReturnStmt>(St))
    return returnStmt(RS);
  if (const auto *IS = dyn_cast<IfStmt>(St))
    return ifStmt(IS);
  if (const auto *FS = dyn_cast<ForStmt>(St))
    return forStmt(FS);
  if (const auto *WS = dyn_cast<WhileStmt>(St))
    return whileStmt(WS);
  if (const auto *DoS = dyn_cast<DoStmt>(St))
    return doStmt(DoS);
  if (isa<BreakStmt>(St)) {
    emit(B.breakStmt());
    return;
  }
  if (isa<ContinueStmt>(St)) {
    emit(B.continueStmt());
    return;
  }
  if (isa<NullStmt>(St))
    return;
  if (const auto *X = dyn_cast<Expr>(St))
    return exprStmt(X);
  // `[[clang::noinline]] call;` (a pullback's calls of split halves): the
  // statement itself.
  if (const auto *AS = dyn_cast<AttributedStmt>(St)) {
    stmt(AS->getSubStmt());
    return;
  }
  // Jumps keep their meaning: the tangents run with the values.
  if (const auto *LS = dyn_cast<LabelStmt>(St)) {
    emit(B.labelStmt(labelFor(LS->getDecl()), nullptr));
    stmt(LS->getSubStmt());
    return;
  }
  if (const auto *GS = dyn_cast<GotoStmt>(St)) {
    emit(B.gotoStmt(labelFor(GS->getLabel())));
    return;
  }
  if (const auto *SS = dyn_cast<SwitchStmt>(St)) {
    switchStmt(SS);
    return;
  }
  // Labels of the innermost switch being rebuilt: `case v:` on an empty
  // statement, then what it labelled (fallthrough and `break` keep their
  // meaning; the values are the original constant expressions).
  if (isa<CaseStmt, DefaultStmt>(St)) {
    // (Nested in a statement of the switch body, as in Duff's device.)
    labelOnly(St);
    stmt(isa<CaseStmt>(St) ? cast<CaseStmt>(St)->getSubStmt()
                           : cast<DefaultStmt>(St)->getSubStmt());
    return;
  }
  if (const auto *RS = dyn_cast<CXXForRangeStmt>(St)) {
    rangeFor(RS);
    return;
  }
  fail(St, constructName(St));
}

/// `for (T v : r)` over an array, std::vector, std::array or
/// std::initializer_list, rebuilt as an
/// index loop over the range and its tangent:
///   { auto &&__range = r; std::size_t _n = size; for (std::size_t _i = 0;
///     _i < _n; ++_i) { T v = __range[_i]; body } }
void TangentBuilder::rangeFor(const CXXForRangeStmt *RS) {
  QualType RT = RS->getRangeInit()->getType().getNonReferenceType();
  const ConstantArrayType *CAT = Ctx.getAsConstantArrayType(RT);
  const CXXRecordDecl *RD = RT->getAsCXXRecordDecl();
  bool List = RD && RD->isInStdNamespace() && RD->getIdentifier() &&
              RD->getName() == "initializer_list";
  bool Std = List || (RD && RD->isInStdNamespace() && RD->getIdentifier() &&
                      (RD->getName() == "vector" || RD->getName() == "array"));
  const auto *RangeDS = dyn_cast_or_null<DeclStmt>(RS->getRangeStmt());
  const auto *RangeVD =
      RangeDS && RangeDS->isSingleDecl()
          ? dyn_cast<VarDecl>(RangeDS->getSingleDecl())
          : nullptr;
  if ((!CAT && !Std) || !RangeVD)
    return (void)fail(RS, "range-based 'for' over '" +
                              RT.getUnqualifiedType().getAsString(
                                  Ctx.getPrintingPolicy()) +
                              "' (arrays, std::vector, std::array and "
                              "std::initializer_list only)");
  SmallVector<Stmt *, 4> Scope;
  auto *Saved = Cur;
  Cur = &Scope;
  if (RS->getInit())
    stmt(RS->getInit());
  StmtFailed = false;
  stmt(RangeDS);
  StmtFailed = false;
  auto VI = Vals.find(RangeVD);
  if (VI == Vals.end() || FailedVars.count(RangeVD)) {
    Cur = Saved;
    Errors = true;
    return;
  }
  B.Loc = RS->getBeginLoc();
  VarDecl *Range = VI->second;
  auto TI = Tans.find(RangeVD);
  VarDecl *RangeT = TI != Tans.end() ? TI->second : nullptr;
  QualType SizeT = Ctx.getSizeType();
  Expr *Count = CAT ? B.intLit(CAT->getSize().getZExtValue(), SizeT)
                    : B.memberCall(B.ref(Range), "size", {});
  VarDecl *N = B.var(Fn, fresh("n"), SizeT, Count);
  emit(B.declStmt(N));
  VarDecl *I = B.var(Fn, fresh("i"), SizeT, B.intLit(0, SizeT));
  const VarDecl *Elem = RS->getLoopVariable();
  // (An initializer_list has no operator[]: begin()[i].)
  auto At = [&](VarDecl *R) {
    return B.subscript(List ? B.memberCall(B.ref(R), "begin", {}) : B.ref(R),
                       B.ref(I));
  };
  InitOverride[Elem] = VT{At(Range), RangeT ? At(RangeT) : nullptr};
  SmallVector<Stmt *, 16> Body;
  Cur = &Body;
  stmt(RS->getLoopVarStmt());
  InitOverride.erase(Elem);
  StmtFailed = false;
  block(RS->getBody(), Body);
  Cur = &Scope;
  emit(B.forStmt(B.declStmt(I), B.binop(BO_LT, B.ref(I), B.ref(N)),
                 B.unop(UO_PreInc, B.ref(I)), B.block(Body)));
  Cur = Saved;
  emit(B.block(Scope));
}

/// The label of \p St (a `case` or `default`) on an empty statement, added
/// to the innermost switch being rebuilt.
void TangentBuilder::labelOnly(const Stmt *St) {
  if (Switches.empty())
    return (void)fail(St, "'case' outside a 'switch'");
  B.Loc = St->getBeginLoc();
  SwitchCase *N;
  if (const auto *CS = dyn_cast<CaseStmt>(St)) {
    auto *C = CaseStmt::Create(Ctx, const_cast<Expr *>(CS->getLHS()),
                               const_cast<Expr *>(CS->getRHS()), B.Loc, B.Loc,
                               B.Loc);
    C->setSubStmt(new (Ctx) NullStmt(B.Loc));
    N = C;
  } else {
    N = new (Ctx) DefaultStmt(B.Loc, B.Loc, new (Ctx) NullStmt(B.Loc));
  }
  Switches.back()->addSwitchCase(N);
  emit(N);
}

/// A statement directly in a switch body: its labels stay in the switch's
/// scope; the temporaries it needs go in a block of their own, so that no
/// later `case` jumps over their initialisation.
void TangentBuilder::switchScopeStmt(const Stmt *St) {
  while (isa<CaseStmt, DefaultStmt>(St)) {
    const Stmt *Sub = isa<CaseStmt>(St) ? cast<CaseStmt>(St)->getSubStmt()
                                        : cast<DefaultStmt>(St)->getSubStmt();
    labelOnly(St);
    St = Sub;
  }
  if (isa<DeclStmt>(St))
    return stmt(St);
  SmallVector<Stmt *, 8> Tmp;
  auto *Saved = Cur;
  Cur = &Tmp;
  stmt(St);
  Cur = Saved;
  if (llvm::any_of(Tmp, [](Stmt *X) { return isa_and_nonnull<DeclStmt>(X); }))
    emit(B.block(Tmp));
  else
    for (Stmt *X : Tmp)
      emit(X);
}

void TangentBuilder::switchStmt(const SwitchStmt *SS) {
  if (SS->getConditionVariable())
    return (void)fail(SS, "'switch' with a condition variable");
  SmallVector<Stmt *, 4> Scope;
  auto *Saved = Cur;
  bool Scoped = SS->getInit() != nullptr;
  if (Scoped) {
    Cur = &Scope;
    stmt(SS->getInit());
    StmtFailed = false;
  }
  B.Loc = SS->getBeginLoc();
  VT C = expr(SS->getCond(), false);
  Expr *Cond = nullptr;
  if (C.V) {
    // The condition as Sema converted it (promoted integer or enum).
    ExprResult R = S.PerformImplicitConversion(
        C.V, SS->getCond()->getType(), Sema::AA_Converting);
    Cond = R.isInvalid() ? nullptr : R.get();
  }
  if (!Cond) {
    Errors = true;
  } else {
    SwitchStmt *N = SwitchStmt::Create(Ctx, nullptr, nullptr, Cond, B.Loc,
                                       B.Loc);
    if (SS->isAllEnumCasesCovered())
      N->setAllEnumCasesCovered();
    Switches.push_back(N);
    SmallVector<Stmt *, 16> Out;
    auto *Outer = Cur;
    Cur = &Out;
    if (const auto *CS = dyn_cast<CompoundStmt>(SS->getBody()))
      for (const Stmt *C : CS->body())
        switchScopeStmt(C);
    else
      switchScopeStmt(SS->getBody());
    Cur = Outer;
    Stmt *Body = B.block(Out);
    Switches.pop_back();
    N->setBody(Body);
    emit(N);
  }
  if (Scoped) {
    Cur = Saved;
    emit(B.block(Scope));
  }
}

void TangentBuilder::bindPushforward() {
  const PullbackSignature &Sig = PE->Sig;
  // Which parameters the body writes (the reverse builder's analysis).
  Activity Act(Facts::get(Ctx));
  Act.run(Def, PE->Wrt);
  unsigned DroppedBefore = 0;
  for (unsigned I = 0; I < Def->getNumParams(); ++I) {
    const ParmVarDecl *P = Def->getParamDecl(I);
    int TI = Sig.AdjointIndex[I];
    if (Linear && TI >= 0) {
      // An adjoint: no value parameter (PushforwardEntry::Linear).
      Dropped.insert(P);
      Tans[P] = Fn->getParamDecl(TI);
      ++DroppedBefore;
      continue;
    }
    ParmVarDecl *NP = Fn->getParamDecl(I - DroppedBefore);
    Vals[P] = NP;
    QualType PT = P->getType();
    if (TI < 0 && Linear)
      continue;
    if (TI < 0) {
      // A floating scalar outside the wrt list that the body writes: a
      // zero tangent of its own, so that the writes are tracked.
      if (isFloating(PT) && !PT->isReferenceType() && Act.isWritten(P)) {
        VarDecl *TV = B.var(Fn, "_t_" + NP->getNameAsString(),
                            tanType(PT.getUnqualifiedType()),
                            zeroOf(PT.getUnqualifiedType()));
        emit(B.declStmt(TV));
        Tans[P] = TV;
      }
      continue;
    }
    ParmVarDecl *TP = Fn->getParamDecl(TI);
    if (I < PE->Drop.size() && PE->Drop[I]) {
      Dropped.insert(P);
      Tans[P] = TP;
      continue;
    }
    ParamKind K = classifyParam(Ctx, PT).Kind;
    if (K == ParamKind::Class)
      checkTangentShape(P, TP);
    if (K == ParamKind::ScalarRef ||
        (K == ParamKind::Class && TP->getType()->isPointerType())) {
      TanByPointer.insert(P);
      Tans[P] = TP;
    } else if (K == ParamKind::Class && !PT->isReferenceType()) {
      // By value: the callee may write its copy, and so its tangent.
      VarDecl *TV = B.var(Fn, "_t_" + NP->getNameAsString(),
                          PT.getUnqualifiedType(), B.ref(TP));
      emit(B.declStmt(TV));
      Tans[P] = TV;
    } else {
      Tans[P] = TP;
    }
  }
}

void TangentBuilder::checkTangentShape(const ParmVarDecl *P,
                                       ParmVarDecl *TP) {
  // Only in the pushforwards users call (callers the plugin generates pass
  // tangents made from the values), of containers the function cannot
  // resize.
  QualType VT = P->getType().getNonReferenceType();
  if (PE->Requester || Lanes || Linear || !isStdClass(VT, "vector") ||
      (P->getType()->isReferenceType() && !VT.isConstQualified()))
    return;
  Expr *Tan = TP->getType()->isPointerType() ? B.deref(B.ref(TP)) : B.ref(TP);
  if (Expr *C = B.callRuntime(
          "check_shape", {},
          {Tan, B.ref(Vals[P]),
           B.str(runtimeCheckSite(Ctx, P->getLocation(), Primal,
                                  "the tangent of '" + P->getNameAsString() +
                                      "'")),
           B.boolLit(true)}))
    emit(C);
}

bool TangentBuilder::bindHvp() {
  PullbackSignature PB;
  std::string Why;
  if (!computeSignature(Ctx, Primal, H->Wrt, Def->getName(), PB, Why) ||
      PB.ParamTypes.size() != Def->getNumParams()) {
    fail(nullptr, "the pullback's signature");
    return false;
  }
  unsigned N = Primal->getNumParams();
  for (unsigned I = 0; I < N; ++I) {
    const ParmVarDecl *P = Def->getParamDecl(I);
    Vals[P] = Fn->getParamDecl(I);
    if (int DI = H->Sig.AdjointIndex[I]; DI >= 0) {
      Tans[P] = Fn->getParamDecl(DI);
      // An object by value (`std::vector<double> v`): the body may write
      // its copy (`v.push_back(y)`), and so the direction's copy.
      QualType PT = P->getType();
      if (classifyParam(Ctx, PT).Kind == ParamKind::Class &&
          !PT->isReferenceType() &&
          !Fn->getParamDecl(DI)->getType()->isPointerType()) {
        VarDecl *TV = B.var(Fn, "_t_" + P->getNameAsString(),
                            PT.getUnqualifiedType(),
                            B.ref(Fn->getParamDecl(DI)));
        emit(B.declStmt(TV));
        Tans[P] = TV;
      }
    }
    if (int AI = PB.AdjointIndex[I]; AI >= 0) {
      // The pullback's adjoint output: its value is discarded, its tangent
      // is the product H v, accumulated into the HVP's adjoint.
      const ParmVarDecl *A = Def->getParamDecl(AI);
      Dropped.insert(A);
      Tans[A] = Fn->getParamDecl(H->OutIndex[I]);
    }
  }
  if (PB.SeedIndex >= 0) {
    // The seed is 1, a constant.
    const ParmVarDecl *Seed = Def->getParamDecl(PB.SeedIndex);
    QualType T = Seed->getType().getUnqualifiedType();
    VarDecl *One = B.var(Fn, Seed->getName(), T, B.floatLit(1.0, T));
    emit(B.declStmt(One));
    Vals[Seed] = One;
  }
  return true;
}

bool TangentBuilder::checkSites() {
  // (Pushforwards of a user's function only: an HVP's and a vector
  // pullback's body is a generated pullback, already checked.)
  if (!PE || Linear || llvm::is_contained(PE->Drop, true))
    return true;
  Activity Act(Facts::get(Ctx));
  Act.run(Def, PE->Wrt);
  SmallVector<DerivativeSite, 16> Sites, Missed;
  derivativeSites(Def->getBody(), Act, Sites);
  unmodelledSites(Sites, [&](const void *P) { return Modelled.count(P) != 0; },
                  Missed);
  for (const DerivativeSite &Site : Missed)
    report(S.Diags, Diag::UnsupportedForward, siteLoc(Site))
        << siteName(Ctx, Site) + " (internal error: the forward builder did "
                                 "not model its derivative; please report it)"
        << nameOf(Def);
  if (!Missed.empty())
    noteRequest();
  return Missed.empty();
}

bool TangentBuilder::build() {
  QualType R = Fn->getReturnType();
  if (!R->isVoidType())
    RetT = R;
  if (!Def->getBody() || isa<CXXTryStmt>(Def->getBody())) {
    fail(Def->getBody() ? Def->getBody() : nullptr, "function-try-block");
    return false;
  }
  Sema::SynthesizedFunctionScope Scope(S, Fn);
  Facts::get(Ctx).noteStatementCalls(Def->getBody());
  SmallVector<Stmt *, 32> Body;
  Cur = &Body;
  if (PE) {
    bindPushforward();
    if (Linear) {
      runLinearActivity(PE->Drop);
    }
  } else if (VP) {
    bindVectorPullback();
  } else if (!bindHvp()) {
    return false;
  }
  block(Def->getBody(), Body);
  if (Errors || B.Failed || !checkSites())
    return false;
  if (Linear)
    for (Stmt *St : Body)
      if (!checkPoison(St))
        return false;
  Fn->setBody(B.block(Body));
  return !B.Failed;
}

} // namespace tangent

bool buildPushforward(DerivativeRequests &D, PushforwardEntry &E,
                      const clang::FunctionDecl *Def) {
  return tangent::TangentBuilder(D, E, Def).build();
}

bool buildHvp(DerivativeRequests &D, HvpEntry &H,
              const clang::FunctionDecl *Pullback) {
  return tangent::TangentBuilder(D, H, Pullback).build();
}

} // namespace grad
