//===- TangentDecls.cpp - Declarations in pushforwards --------------------===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Local declarations of a pushforward (and of HVPs and vector pullbacks):
/// each local's value and tangent, heap memory with tangent memory, code
/// without derivatives replayed as written.
///
//===----------------------------------------------------------------------===//

#include "analysis/Positions.h"
#include "analysis/Paths.h"
#include "ast/Records.h"
#include "ast/Replay.h"
#include "analysis/Selectors.h"
#include "forward/TangentBuilder.h"

namespace grad {
namespace tangent {

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
  auto Hoist = [this](LambdaExpr *L) -> Expr * {
    VarDecl *V = NoHoist ? nullptr
                         : Replayer::lambdaVariable(S, Fn, fresh("lambda"), L);
    if (!V)
      return nullptr;
    emit(B.declStmt(V));
    return B.ref(V);
  };
  Replayer R(
      S,
      [this](const ValueDecl *D) -> ValueDecl * {
        const auto *V = dyn_cast<VarDecl>(D);
        auto It = V ? Vals.find(V) : Vals.end();
        return It == Vals.end() ? nullptr : It->second;
      },
      Hoist);
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
  const auto *NE = dyn_cast<CXXNewExpr>(Init->IgnoreParenCasts());
  modelled(NE);
  if (const Expr *IV =
          NE ? newObjectInit(NE) : nullptr) {
    // `new double(e)`, `new T{a, b}`: made from the value of the
    // initializer, whose tangent goes to the tangent memory.
    VT X = expr(IV, true);
    TypeSourceInfo *TSI = NE->getAllocatedTypeSourceInfo();
    if (!TSI)
      TSI = Ctx.getTrivialTypeSourceInfo(NE->getAllocatedType(), B.Loc);
    VInit = X.V ? B.newObject(TSI, {X.V}, false, NE->isGlobalNew()) : nullptr;
    if (!VInit) {
      fail(Init, constructName(Init));
      return false;
    }
    if (X.T)
      HeapInitTans[VD] = X.T;
  } else if (NE) {
    // The value: the allocation as written.
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
  QualType TE = tanTypeOr(Elem, Init, "allocation");
  if (TE.isNull())
    return false;
  QualType TP = Ctx.getPointerType(TE.getUnqualifiedType());
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

void TangentBuilder::declareCaptureCopies(const LambdaExpr *L,
                                          const VarDecl *VD) {
  for (auto [V, Init] : copiedCaptures(L)) {
    VarDecl *&C = CaptureCopies[{L, V}];
    if (!C)
      C = captureCopy(Ctx, V, Init, L,
                      (V->getName() + "_at_" + VD->getName()).str());
    declStmt(new (Ctx)
                 DeclStmt(DeclGroupRef(C), L->getBeginLoc(), L->getBeginLoc()));
  }
}

VT TangentBuilder::localInit(const VarDecl *VD, const VT *Given, bool NeedT) {
  const Expr *Init = VD->getInit();
  return Given ? *Given : Init ? expr(Init, NeedT) : VT{};
}

void TangentBuilder::untrackedLocal(const VarDecl *VD, const VT *Given,
                                    bool Before) {
  VT X = localInit(VD, Given, false);
  VarDecl *NV = B.var(Fn, VD->getName(), VD->getType(), X.V);
  if (Errors || (VD->getInit() && !X.V)) {
    FailedVars.insert(VD);
  } else {
    Vals[VD] = NV;
    emit(B.declStmt(NV));
  }
  Errors |= Before;
}

void TangentBuilder::referenceInits(const VarDecl *VD, const VT *Given,
                                    const Expr *Bound, Expr *&VInit,
                                    Expr *&TInit) {
  const Expr *Init = VD->getInit();
  QualType NR = VD->getType().getNonReferenceType();
  // `const double &m = std::max(a, b)`: the '?:' it evaluates, so that
  // the tangent is a reference too.
  const ConditionalOperator *SF =
      Given ? nullptr : selectorForm(Facts::get(Ctx), Init);
  VT X = SF ? conditional(SF, true) : localInit(VD, Given, true);
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
  if (Call && TInit && VInit && (!TInit->isLValue() || !VInit->isLValue()) &&
      mayAlias(VD))
    fail(Init,
         "reference '" + VD->getNameAsString() +
             "' whose target the plugin cannot track (it is "
             "bound to what '" +
             (Call->getDirectCallee()
                  ? Call->getDirectCallee()->getNameAsString()
                  : std::string("the call")) +
             "' returns: take the value, '" +
             NR.getUnqualifiedType().getAsString(Ctx.getPrintingPolicy()) +
             " " + VD->getNameAsString() + " = ...')");
}

Expr *TangentBuilder::linearContainerInit(const VarDecl *VD) {
  const Expr *Init = VD->getInit();
  QualType NR = VD->getType().getNonReferenceType();
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
      return B.construct(TN.getUnqualifiedType(), {N.V}, /*List=*/false);
    return nullptr;
  }
  if (Init && !Empty(Init))
    return fail(Init, adjointName(VD->getName()) + " initialised as '" +
                          spelled(Init) + "'");
  return B.emptyInitList();
}

void TangentBuilder::objectInits(const VarDecl *VD, const VT *Given,
                                 Expr *&VInit, Expr *&TInit) {
  const Expr *Init = VD->getInit();
  QualType NR = VD->getType().getNonReferenceType();
  // Arrays, containers and objects: a tangent of the same shape.
  if (Given) {
    VInit = Given->V;
    TInit = Given->T;
  } else if (Init) {
    initPair(Init, NR, VInit, TInit);
  }
  if (!TInit && !Errors) {
    if (NR->isArrayType() ||
        !isa<ClassTemplateSpecializationDecl>(NR->getAsCXXRecordDecl()) ||
        !Init)
      // (A struct without a default constructor: its zero bytes.)
      TInit = isPlainRecord(NR) ? B.zero(NR) : B.emptyInitList();
    else if (isFloatingIterator(NR))
      fail(Init, iteratorLocalWhy(VD));
    else
      fail(Init,
           "initialiser of '" + VD->getNameAsString() + "' without a tangent");
  }
}

void TangentBuilder::trackedInits(const VarDecl *VD, const VT *Given,
                                  Expr *&VInit, Expr *&TInit) {
  const Expr *Init = VD->getInit();
  bool IsRef = VD->getType()->isReferenceType();
  QualType NR = VD->getType().getNonReferenceType();
  const Expr *Bound = Init;
  if (const auto *FE = dyn_cast_or_null<FullExpr>(Bound))
    Bound = FE->getSubExpr();
  if (IsRef && !Given && Bound &&
      isa<MaterializeTemporaryExpr>(Bound->IgnoreParens()) && !isFloating(NR)) {
    // A reference bound to a temporary object (`auto &&r = {x, y}`): the
    // temporary's value and tangent, built like an initialiser.
    initPair(Init, NR, VInit, TInit);
  } else if (IsRef) {
    referenceInits(VD, Given, Bound, VInit, TInit);
  } else if (NR->isPointerType() && !Given && Init &&
             allocation(Init).K != Allocation::None &&
             (isFloating(NR->getPointeeType()) ||
              (allocation(Init).K == Allocation::NewObject &&
               NR->getPointeeType().isTriviallyCopyableType(Ctx)))) {
    heapTangent(VD, VInit, TInit);
  } else if (NR->isPointerType()) {
    VT X = localInit(VD, Given, true);
    VInit = X.V;
    TInit = X.T;
    if (!TInit && Init &&
        !isa<CXXNullPtrLiteralExpr>(Init->IgnoreParenImpCasts()) &&
        !Init->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNull))
      ; // points to memory without tangents: no tangent pointer
    else if (!TInit)
      TInit = zeroOf(NR);
  } else if (isFloating(NR)) {
    VT X = localInit(VD, Given, true);
    VInit = X.V;
    TInit = orZero(X.T, NR);
  } else if (Linear && NR->isRecordType()) {
    TInit = linearContainerInit(VD);
  } else {
    objectInits(VD, Given, VInit, TInit);
  }
}

void TangentBuilder::declareLocal(const DeclStmt *DS, const VarDecl *VD,
                                  const std::string &What, Expr *VInit,
                                  Expr *TInit) {
  QualType T = VD->getType();
  const Expr *Init = VD->getInit();
  if (TInit) {
    // (Linear mode: an adjoint has no value, its lanes keep its name.)
    std::string TName = (Linear ? "" : "_t_") + VD->getNameAsString();
    QualType TN = tanTypeOr(T.getNonReferenceType(), DS, What);
    if (TN.isNull()) {
      FailedVars.insert(VD);
      return;
    }
    QualType TT = T->isReferenceType() && TInit->isLValue()
                      ? Ctx.getLValueReferenceType(TN)
                      : TN.getUnqualifiedType();
    VarDecl *TV = B.var(Fn, TName, TT, TInit);
    if (TV->isInvalidDecl()) {
      fail(DS, "declaration of '" + VD->getNameAsString() + "'");
      FailedVars.insert(VD);
      return;
    }
    Tans[VD] = TV;
    emit(B.declStmt(TV));
    if (Linear) {
      // An adjoint: its value is never computed.
      Dropped.insert(VD);
      return;
    }
  } else if (Linear) {
    fail(DS,
         "local '" + VD->getNameAsString() + "', an adjoint without a tangent");
    FailedVars.insert(VD);
    return;
  }
  if (!VInit && Init) {
    FailedVars.insert(VD);
    return;
  }
  VarDecl *NV = B.var(Fn, VD->getName(), T, VInit,
                      VD->getInitStyle() == VarDecl::CallInit &&
                          !isa<ParenListExpr>(VInit ? VInit : Init));
  Vals[VD] = NV;
  emit(B.declStmt(NV));
  if (Expr *HT = HeapInitTans.lookup(VD))
    emit(B.assign(B.paren(B.deref(B.ref(Tans.find(VD)->second))), HT));
}

void TangentBuilder::localDecl(const DeclStmt *DS, const VarDecl *VD) {
  if (isa<DecompositionDecl>(VD)) {
    fail(DS, "structured binding");
    FailedVars.insert(VD);
    return;
  }
  // A local lambda: lifted where it is called. Its copies of what the
  // function assigns later are made here.
  if (const LambdaExpr *L = initLambda(VD)) {
    declareCaptureCopies(L, VD);
    if (captureFreeObject(VD)) {
      VarDecl *NV = Replayer::lambdaVariable(S, Fn, VD->getName(),
                                             const_cast<LambdaExpr *>(L));
      if (!NV) {
        fail(DS, "declaration of '" + VD->getNameAsString() + "'");
        return;
      }
      emit(B.declStmt(NV));
      Vals[VD] = NV;
    }
    return;
  }
  B.Loc = VD->getLocation();
  QualType T = VD->getType();
  // (Linear mode: only what depends on the adjoints has a tangent.)
  // (An iterator that only marks a position is an index.)
  bool Tracked = floatingOrPointer(T) && (!Linear || linearActive(VD)) &&
                 !positionOnly(VD);
  if (VD->isStaticLocal() || VD->getTLSKind()) {
    if (Tracked && !T.isConstQualified() &&
        !(T->isArrayType() &&
          T->getAsArrayTypeUnsafe()->getElementType().isConstQualified())) {
      fail(DS, "'static' local '" + VD->getNameAsString() + "'");
      FailedVars.insert(VD);
    }
    // (Else a constant table: the original variable.)
    return;
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
    return;
  }
  const Expr *Init = VD->getInit();
  // The element variable of a range-based for: its initialiser is given.
  const VT *Given = nullptr;
  if (auto It = InitOverride.find(VD); It != InitOverride.end())
    Given = &It->second;
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
    Errors = Before;
    return;
  }
  if (!Tracked)
    return untrackedLocal(VD, Given, Before);
  Expr *TInit = nullptr;
  Expr *VInit = nullptr;
  trackedInits(VD, Given, VInit, TInit);
  if (Errors) {
    FailedVars.insert(VD);
    Errors = true;
    return;
  }
  Errors = Before;
  declareLocal(DS, VD, What, VInit, TInit);
}

void TangentBuilder::declStmt(const DeclStmt *DS) {
  for (const Decl *Dl : DS->decls()) {
    const auto *VD = dyn_cast<VarDecl>(Dl);
    modelled(VD);
    if (VD) {
      localDecl(DS, VD);
      continue;
    }
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
  }
}

} // namespace tangent
} // namespace grad
