//===- TangentStmts.cpp - Statements of pushforwards and HVPs ---------------===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Statements of a pushforward, the binding of parameters (pushforward and
/// HVP) and the entry points buildPushforward / buildHvp.
///
//===----------------------------------------------------------------------===//

#include "TangentBuilder.h"

namespace grad {
namespace tangent {

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

void TangentBuilder::declStmt(const DeclStmt *DS) {
  for (const Decl *Dl : DS->decls()) {
    const auto *VD = dyn_cast<VarDecl>(Dl);
    if (!VD) {
      if (isa<TypedefNameDecl>(Dl) || isa<UsingDecl>(Dl) ||
          isa<StaticAssertDecl>(Dl))
        continue;
      fail(DS, "local declaration");
      continue;
    }
    if (isa<DecompositionDecl>(VD)) {
      fail(DS, "structured binding");
      FailedVars.insert(VD);
      continue;
    }
    B.Loc = VD->getLocation();
    QualType T = VD->getType();
    bool Tracked = floatingOrPointer(T);
    if (VD->isStaticLocal() || VD->getTLSKind()) {
      if (Tracked && !T.isConstQualified() &&
          !(T->isArrayType() &&
            T->getAsArrayTypeUnsafe()->getElementType().isConstQualified())) {
        fail(DS, "'static' local '" + VD->getNameAsString() + "'");
        FailedVars.insert(VD);
        continue;
      }
      // A constant table: the original variable.
      continue;
    }
    if (Tracked && Lanes &&
        tanTypeOr(T, DS, "local '" + VD->getNameAsString() + "'").isNull()) {
      FailedVars.insert(VD);
      continue;
    }
    const Expr *Init = VD->getInit();
    bool Before = Errors;
    StmtFailed = false;
    Errors = false;
    if (!Tracked) {
      VT X = Init ? expr(Init, false) : VT{};
      VarDecl *NV = B.var(Fn, VD->getName(), T, X.V);
      if (Errors || (Init && !X.V)) {
        FailedVars.insert(VD);
      } else {
        Vals[VD] = NV;
        emit(B.declStmt(NV));
      }
      Errors |= Before;
      continue;
    }
    std::string TName = "_t_" + VD->getNameAsString();
    Expr *TInit = nullptr;
    Expr *VInit = nullptr;
    bool IsRef = T->isReferenceType();
    QualType NR = T.getNonReferenceType();
    if (IsRef) {
      VT X = expr(Init, true);
      VInit = X.V;
      TInit = X.T;
      if (!TInit && !NR.isConstQualified() && VInit)
        fail(Init, "reference '" + VD->getNameAsString() +
                       "' to memory without a tangent");
    } else if (NR->isPointerType()) {
      VT X = Init ? expr(Init, true) : VT{};
      VInit = X.V;
      TInit = X.T;
      if (!TInit && Init && !isa<CXXNullPtrLiteralExpr>(
                                Init->IgnoreParenImpCasts()) &&
          !Init->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNull))
        ; // points to memory without tangents: no tangent pointer
      else if (!TInit)
        TInit = zeroOf(NR);
    } else if (isFloating(NR)) {
      VT X = Init ? expr(Init, true) : VT{};
      VInit = X.V;
      TInit = orZero(X.T, NR);
    } else {
      // Arrays, containers and objects: a tangent of the same shape.
      if (Init)
        initPair(Init, NR, VInit, TInit);
      if (!TInit && !Errors) {
        if (NR->isArrayType() || !isa<ClassTemplateSpecializationDecl>(
                                     NR->getAsCXXRecordDecl()) ||
            !Init)
          TInit = B.emptyInitList();
        else
          fail(Init, "initialiser of '" + VD->getNameAsString() +
                         "' without a tangent");
      }
    }
    if (Errors) {
      FailedVars.insert(VD);
      Errors = true;
      continue;
    }
    Errors = Before;
    if (TInit) {
      QualType TT = IsRef && TInit->isLValue()
                        ? Ctx.getLValueReferenceType(tanType(NR))
                        : tanType(NR.getUnqualifiedType());
      VarDecl *TV = B.var(Fn, TName, TT, TInit);
      if (TV->isInvalidDecl()) {
        fail(DS, "declaration of '" + VD->getNameAsString() + "'");
        FailedVars.insert(VD);
        continue;
      }
      Tans[VD] = TV;
      emit(B.declStmt(TV));
    }
    VarDecl *NV;
    if (!VInit && Init) {
      FailedVars.insert(VD);
      continue;
    }
    NV = B.var(Fn, VD->getName(), T, VInit,
               VD->getInitStyle() == VarDecl::CallInit &&
                   !isa<ParenListExpr>(VInit ? VInit : Init));
    Vals[VD] = NV;
    emit(B.declStmt(NV));
  }
}

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
  if (const auto *RS = dyn_cast<ReturnStmt>(St)) {
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
  if (const auto *IS = dyn_cast<IfStmt>(St)) {
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
  if (const auto *FS = dyn_cast<ForStmt>(St)) {
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
  if (const auto *WS = dyn_cast<WhileStmt>(St)) {
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
  if (const auto *DoS = dyn_cast<DoStmt>(St)) {
    Stmt *Body = blockOf(DoS->getBody());
    Expr *Cond = condition(DoS->getCond());
    if (Cond)
      emit(B.doStmt(Body, Cond));
    else
      Errors = true;
    return;
  }
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
  if (const auto *X = dyn_cast<Expr>(St)) {
    const Expr *SavedDiscard = Discard;
    Discard = X->IgnoreParenImpCasts();
    VT R = expr(X, false);
    Discard = SavedDiscard;
    if (R.V)
      emit(R.V);
    return;
  }
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
  if (isa<SwitchStmt>(St))
    return (void)fail(St, "'switch'");
  if (isa<CXXForRangeStmt>(St))
    return (void)fail(St, "range-based 'for'");
  fail(St, constructName(St));
}

void TangentBuilder::bindPushforward() {
  const PullbackSignature &Sig = PE->Sig;
  // Which parameters the body writes (the reverse builder's analysis).
  Activity Act(State::get(Ctx));
  Act.run(Def, PE->Wrt);
  for (unsigned I = 0; I < Def->getNumParams(); ++I) {
    const ParmVarDecl *P = Def->getParamDecl(I);
    ParmVarDecl *NP = Fn->getParamDecl(I);
    Vals[P] = NP;
    int TI = Sig.AdjointIndex[I];
    QualType PT = P->getType();
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
    if (int DI = H->Sig.AdjointIndex[I]; DI >= 0)
      Tans[P] = Fn->getParamDecl(DI);
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

bool TangentBuilder::build() {
  QualType R = Fn->getReturnType();
  if (!R->isVoidType())
    RetT = R;
  if (!Def->getBody() || isa<CXXTryStmt>(Def->getBody())) {
    fail(Def->getBody() ? Def->getBody() : nullptr, "function-try-block");
    return false;
  }
  Sema::SynthesizedFunctionScope Scope(S, Fn);
  SmallVector<Stmt *, 32> Body;
  Cur = &Body;
  if (PE)
    bindPushforward();
  else if (!bindHvp())
    return false;
  block(Def->getBody(), Body);
  if (Errors || B.Failed)
    return false;
  Fn->setBody(B.block(Body));
  return !B.Failed;
}

} // namespace tangent

bool buildPushforward(Differentiator &D, PushforwardEntry &E,
                      const clang::FunctionDecl *Def) {
  return tangent::TangentBuilder(D, E, Def).build();
}

bool buildHvp(Differentiator &D, HvpEntry &H,
              const clang::FunctionDecl *Pullback) {
  return tangent::TangentBuilder(D, H, Pullback).build();
}

} // namespace grad
