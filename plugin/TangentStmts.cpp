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

#include "Paths.h"
#include "Records.h"
#include "Selectors.h"
#include "TangentBuilder.h"
#include "Replay.h"

namespace grad {
namespace tangent {

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

/// True if \p VD is assigned, incremented, has its address taken or is
/// bound to a non-const reference anywhere in \p S.
static bool rebound(const Stmt *S, const VarDecl *VD) {
  if (!S)
    return false;
  auto Is = [&](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == VD;
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(S);
      BO && BO->isAssignmentOp() && Is(BO->getLHS()))
    return true;
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
      Is(UO->getSubExpr()))
    return true;
  if (const auto *CE = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *FD = CE->getDirectCallee())
      for (unsigned I = 0; I < CE->getNumArgs() && I < FD->getNumParams(); ++I)
        if (Is(CE->getArg(I)) &&
            FD->getParamDecl(I)->getType()->isReferenceType() &&
            !FD->getParamDecl(I)
                 ->getType()
                 .getNonReferenceType()
                 .isConstQualified())
          return true;
  for (const Stmt *C : S->children())
    if (rebound(C, VD))
      return true;
  return false;
}

Expr *TangentBuilder::replayed(const Expr *E) {
  Replayer R(S, [this](const ValueDecl *D) -> ValueDecl * {
    const auto *V = dyn_cast<VarDecl>(D);
    auto It = V ? Vals.find(V) : Vals.end();
    return It == Vals.end() ? nullptr : It->second;
  });
  return R.expr(E);
}

bool TangentBuilder::heapTangent(const VarDecl *VD, Expr *&VInit,
                                 Expr *&TInit) {
  const Expr *Init = VD->getInit();
  Allocation A = allocation(Init);
  QualType PT = VD->getType();
  QualType Elem = PT->getPointeeType();
  if (rebound(Def ? Def->getBody() : Primal->getBody(), VD)) {
    fail(Init, "pointer '" + VD->getNameAsString() +
                   "' that owns memory and is assigned again");
    return false;
  }
  // The value: the allocation as written.
  if (isa<CXXNewExpr>(Init->IgnoreParenCasts())) {
    VInit = replayed(Init);
    if (!VInit) {
      fail(Init, constructName(Init));
      return false;
    }
  } else {
    VInit = expr(Init, false).V;
  }
  // The tangent: as many zeroed bytes.
  Expr *Bytes = allocationBytes(
      B, A, Elem, [this](const Expr *E) { return expr(E, false).V; });
  if (!Bytes)
    return false;
  QualType TP = Ctx.getPointerType(tanType(Elem).getUnqualifiedType());
  TInit = B.staticCast(TP, B.callRuntime("shadow_alloc", {}, {Bytes}));
  HeapTans.insert(VD);
  return VInit && TInit;
}

Expr *TangentBuilder::freedTangent(const Expr *Arg) {
  const auto *DRE = dyn_cast<DeclRefExpr>(Arg->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !HeapTans.count(VD))
    return nullptr;
  return B.callRuntime("shadow_free", {}, {B.ref(Tans.find(VD)->second)});
}

void TangentBuilder::declStmt(const DeclStmt *DS) {
  for (const Decl *Dl : DS->decls()) {
    const auto *VD = dyn_cast<VarDecl>(Dl);
    if (!VD) {
      if (isa<TypedefNameDecl>(Dl) || isa<UsingDecl>(Dl) ||
          isa<StaticAssertDecl>(Dl))
        continue;
      // A local struct or enum: declared again where it was.
      std::string Why;
      if (!replayableLocalType(Dl, Why))
        fail(DS, Why);
      else
        emit(new (Ctx) DeclStmt(DeclGroupRef(const_cast<Decl *>(Dl)),
                                DS->getBeginLoc(), DS->getEndLoc()));
      continue;
    }
    if (isa<DecompositionDecl>(VD)) {
      fail(DS, "structured binding");
      FailedVars.insert(VD);
      continue;
    }
    // A local lambda: lifted where it is called. Its copies of what the
    // function assigns later are made here.
    if (const auto *L = dyn_cast_or_null<LambdaExpr>(
            VD->hasInit() ? VD->getInit()->IgnoreImplicit() : nullptr)) {
      for (auto [V, Init] : copiedCaptures(L)) {
        VarDecl *&C = CaptureCopies[{L, V}];
        if (!C)
          C = captureCopy(Ctx, V, Init, L,
                          (V->getName() + "_at_" + VD->getName()).str());
        declStmt(new (Ctx) DeclStmt(DeclGroupRef(C), L->getBeginLoc(),
                                    L->getBeginLoc()));
      }
      continue;
    }
    B.Loc = VD->getLocation();
    QualType T = VD->getType();
    // (Linear mode: only what depends on the adjoints has a tangent.)
    bool Tracked = floatingOrPointer(T) && (!Linear || linearActive(VD));
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
    // Vector mode: objects have no lanes (a reference to one without a
    // tangent, such as a range-for's range over read-only data, is fine).
    std::string What = VD->isImplicit()
                           ? std::string("range of a range-based 'for'")
                       : Linear ? adjointName(VD->getName())
                                : "local '" + VD->getNameAsString() + "'";
    if (Tracked && Lanes && !T->isReferenceType() &&
        tanTypeOr(T, DS, What).isNull()) {
      FailedVars.insert(VD);
      continue;
    }
    const Expr *Init = VD->getInit();
    // The element variable of a range-based for: its initialiser is given.
    const VT *Given = nullptr;
    if (auto It = InitOverride.find(VD); It != InitOverride.end())
      Given = &It->second;
    auto InitVT = [&](bool NeedT) {
      return Given ? *Given : Init ? expr(Init, NeedT) : VT{};
    };
    bool Before = Errors;
    StmtFailed = false;
    Errors = false;
    // (Linear mode: `sin_cos_pair<double> _t0;` of the pullback stays
    // default-initialised.)
    if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(
            Init ? Init->IgnoreImplicit() : nullptr);
        !Tracked && Linear && !Given && CE && CE->getNumArgs() == 0 &&
        !CE->isListInitialization() && !isa<CXXTemporaryObjectExpr>(CE)) {
      VarDecl *NV = B.var(Fn, VD->getName(), T, nullptr);
      Vals[VD] = NV;
      emit(B.declStmt(NV));
      continue;
    }
    if (!Tracked) {
      VT X = InitVT(false);
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
    // (Linear mode: an adjoint has no value, its lanes keep its name.)
    std::string TName =
        (Linear ? "" : "_t_") + VD->getNameAsString();
    Expr *TInit = nullptr;
    Expr *VInit = nullptr;
    bool IsRef = T->isReferenceType();
    QualType NR = T.getNonReferenceType();
    const Expr *Bound = Init;
    if (const auto *FE = dyn_cast_or_null<FullExpr>(Bound))
      Bound = FE->getSubExpr();
    if (IsRef && !Given && Bound &&
        isa<MaterializeTemporaryExpr>(Bound->IgnoreParens()) &&
        !isFloating(NR)) {
      // A reference bound to a temporary object (`auto &&r = {x, y}`): the
      // temporary's value and tangent, built like an initialiser.
      initPair(Init, NR, VInit, TInit);
    } else if (IsRef) {
      // `const double &m = std::max(a, b)`: the '?:' it evaluates, so that
      // the tangent is a reference too.
      const ConditionalOperator *SF =
          Given ? nullptr : selectorForm(State::get(Ctx), Init);
      VT X = SF ? conditional(SF, true) : InitVT(true);
      VInit = X.V;
      TInit = X.T;
      if (!TInit && !NR.isConstQualified() && VInit)
        fail(Init, "reference '" + VD->getNameAsString() +
                       "' to memory without a tangent");
      // Bound to what a call returns by reference, with a value or tangent
      // that is a copy: the referent may change while the reference lives,
      // the copy would not.
      const auto *Call =
          Bound ? dyn_cast<CallExpr>(Bound->IgnoreParenImpCasts()) : nullptr;
      if (Call && TInit && VInit &&
          (!TInit->isLValue() || !VInit->isLValue()) && mayAlias(VD))
        fail(Init, "reference '" + VD->getNameAsString() +
                       "' whose target the plugin cannot track (it is "
                       "bound to what '" +
                       (Call->getDirectCallee()
                            ? Call->getDirectCallee()->getNameAsString()
                            : std::string("the call")) +
                       "' returns: take the value, '" +
                       NR.getUnqualifiedType().getAsString(
                           Ctx.getPrintingPolicy()) +
                       " " + VD->getNameAsString() + " = ...')");
    } else if (NR->isPointerType() && !Given && Init &&
               allocation(Init).K != Allocation::None &&
               isFloating(NR->getPointeeType())) {
      heapTangent(VD, VInit, TInit);
    } else if (NR->isPointerType()) {
      VT X = InitVT(true);
      VInit = X.V;
      TInit = X.T;
      if (!TInit && Init && !isa<CXXNullPtrLiteralExpr>(
                                Init->IgnoreParenImpCasts()) &&
          !Init->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNull))
        ; // points to memory without tangents: no tangent pointer
      else if (!TInit)
        TInit = zeroOf(NR);
    } else if (isFloating(NR)) {
      VT X = InitVT(true);
      VInit = X.V;
      TInit = orZero(X.T, NR);
    } else if (Linear && NR->isRecordType()) {
      // An adjoint container (std::vector lanes): declared empty, sized by
      // the pullback's own assign / resize.
      // (`{}`: empty braces, or for std::array braces of value-inits.)
      std::function<bool(const Expr *)> Empty = [&](const Expr *E) {
        E = E->IgnoreImplicit();
        if (isa<ImplicitValueInitExpr>(E))
          return true;
        if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
          return CE->getNumArgs() == 0;
        const auto *IL = dyn_cast<InitListExpr>(E);
        return IL && llvm::all_of(IL->inits(), Empty);
      };
      // (`std::vector<double>(n)`: the adjoint of a temporary, sized.)
      const Expr *Sized = nullptr;
      const Expr *I1 = Init ? Init->IgnoreImplicit()->IgnoreParens() : nullptr;
      if (const auto *FC = dyn_cast_or_null<CXXFunctionalCastExpr>(I1))
        I1 = FC->getSubExpr()->IgnoreImplicit();
      if (const auto *CE = dyn_cast_or_null<CXXConstructExpr>(I1);
          CE && CE->getNumArgs() >= 1 &&
          CE->getArg(0)->getType()->isIntegerType() &&
          llvm::all_of(llvm::drop_begin(CE->arguments()),
                       [](const Expr *A) { return isa<CXXDefaultArgExpr>(A); }))
        Sized = CE->getArg(0);
      if (Sized) {
        VT N = expr(Sized, false);
        QualType TN = tanType(NR);
        if (N.V && !TN.isNull())
          TInit = B.construct(TN.getUnqualifiedType(), {N.V}, /*List=*/false);
      } else if (Init && !Empty(Init)) {
        fail(Init, adjointName(VD->getName()) + " initialised as '" +
                       spelled(Init) + "'");
      } else {
        TInit = B.emptyInitList();
      }
    } else {
      // Arrays, containers and objects: a tangent of the same shape.
      if (Given) {
        VInit = Given->V;
        TInit = Given->T;
      } else if (Init) {
        initPair(Init, NR, VInit, TInit);
      }
      if (!TInit && !Errors) {
        if (NR->isArrayType() || !isa<ClassTemplateSpecializationDecl>(
                                     NR->getAsCXXRecordDecl()) ||
            !Init)
          // (A struct without a default constructor: its zero bytes.)
          TInit = isPlainRecord(NR) ? B.zero(NR) : B.emptyInitList();
        else if (isFloatingIterator(NR))
          fail(Init, iteratorLocalWhy(VD));
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
      QualType TN = tanTypeOr(NR, DS, What);
      if (TN.isNull()) {
        FailedVars.insert(VD);
        continue;
      }
      QualType TT = IsRef && TInit->isLValue()
                        ? Ctx.getLValueReferenceType(TN)
                        : TN.getUnqualifiedType();
      VarDecl *TV = B.var(Fn, TName, TT, TInit);
      if (TV->isInvalidDecl()) {
        fail(DS, "declaration of '" + VD->getNameAsString() + "'");
        FailedVars.insert(VD);
        continue;
      }
      Tans[VD] = TV;
      emit(B.declStmt(TV));
      if (Linear) {
        // An adjoint: its value is never computed.
        Dropped.insert(VD);
        continue;
      }
    } else if (Linear) {
      fail(DS, "local '" + VD->getNameAsString() +
                   "', an adjoint without a tangent");
      FailedVars.insert(VD);
      continue;
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
    // (c ? a : b) op= e: if (c) a op= e; else b op= e;
    if (const IfStmt *IS = conditionalAssignment(State::get(Ctx), X))
      return stmt(IS);
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
  Activity Act(State::get(Ctx));
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
  State::get(Ctx).noteStatementCalls(Def->getBody());
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
  if (Errors || B.Failed)
    return false;
  if (Linear)
    for (Stmt *St : Body)
      if (!checkPoison(St))
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
