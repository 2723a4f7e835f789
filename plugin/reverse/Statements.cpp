//===- Statements.cpp - Statements and the reverse sweep --------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Walks the primal's statements once: each statement yields its forward
/// replay and its adjoint block; the blocks are emitted in reverse order.
/// Adjoints accumulate into hoisted locals, stored to the adjoint
/// parameters once at the end (no aliasing through pointers in between).
///
//===----------------------------------------------------------------------===//

#include "ast/Diagnostics.h"
#include "reverse/PullbackBuilder.h"
#include "analysis/Jumps.h"
#include "ast/Records.h"
#include "analysis/Selectors.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Sema/Sema.h"
#include "llvm/ADT/SetVector.h"

using namespace clang;

namespace grad {

static const Expr *strip(const Expr *E) { return stripExpr(E); }

PullbackBuilder::PullbackBuilder(DerivativeRequests &D, PullbackEntry &Entry,
                                 const FunctionDecl *Def, SplitHalf Half)
    : D(D), Entry(Entry), S(D.sema()), Ctx(S.Context), Primal(Def),
      PB(Half == SplitHalf::Forward   ? Entry.Fwd
         : Half == SplitHalf::Reverse ? Entry.Rev
                                      : Entry.Pullback),
      B(S, Def->getLocation()), Act(Facts::get(Ctx)), Half(Half) {}


namespace {
struct NameCollector : RecursiveASTVisitor<NameCollector> {
  llvm::StringSet<> &Names;
  explicit NameCollector(llvm::StringSet<> &N) : Names(N) {}
  bool VisitNamedDecl(NamedDecl *ND) {
    if (ND->getIdentifier())
      Names.insert(ND->getName());
    return true;
  }
};
} // namespace

/// The pullback's parameters as the primal's statements see them (a
/// half's placeholders for what it does not take), and the names in use.
void PullbackBuilder::bindParams() {
  Params.assign(PB->param_begin(), PB->param_end());
  // (A half's stack, its last parameter, stands for no primal parameter.)
  if (ParmVarDecl *SP = stackParam()) {
    Params.pop_back();
    Stack = SP;
  }
  auto Placeholder = [&](unsigned I) {
    return ParmVarDecl::Create(
        Ctx, PB, B.Loc, B.Loc, &Ctx.Idents.get(Sig.ParamNames[I]),
        Sig.ParamTypes[I],
        Ctx.getTrivialTypeSourceInfo(Sig.ParamTypes[I], B.Loc), SC_None,
        nullptr);
  };
  if (Half == SplitHalf::Reverse) {
    // Dropped primal parameters: placeholders only the (discarded)
    // forward sweep mentions.
    Params.clear();
    unsigned Next = 0;
    for (unsigned I = 0; I < Sig.ParamTypes.size(); ++I) {
      if (I < Primal->getNumParams() && !Entry.reverseHalfTakes(I)) {
        Params.push_back(Placeholder(I));
        Dropped.insert(Params.back());
        continue;
      }
      Params.push_back(PB->getParamDecl(Next++));
    }
  }
  if (Half == SplitHalf::Forward) {
    // Placeholders for the seed and adjoints, after the primal's
    // parameters.
    for (unsigned I = Primal->getNumParams(); I < Sig.ParamTypes.size(); ++I)
      Params.push_back(ParmVarDecl::Create(
          Ctx, PB, B.Loc, B.Loc, &Ctx.Idents.get(Sig.ParamNames[I]),
          Sig.ParamTypes[I],
          Ctx.getTrivialTypeSourceInfo(Sig.ParamTypes[I], B.Loc), SC_None,
          nullptr));
  }
  // A definition presented with stand-ins for re-seated pointer
  // parameters (driver/EntryCopies.h): the stand-ins' names, which the
  // locals named as the parameters do not hide.
  if (Primal != Entry.Primal->getDefinition())
    for (unsigned I = 0; I < Primal->getNumParams() && I < Params.size(); ++I)
      if (const ParmVarDecl *P = Primal->getParamDecl(I);
          P->getDeclContext() == Primal && !Dropped.count(Params[I]))
        Params[I]->setDeclName(P->getDeclName());
  for (ParmVarDecl *P : PB->parameters())
    Names.insert(P->getName());
  for (ParmVarDecl *P : Params)
    Names.insert(P->getName());
  NameCollector NC(Names);
  NC.TraverseStmt(Primal->getBody());
}

/// Reports what the activity analysis found the pullback cannot follow;
/// false when building cannot go on.
bool PullbackBuilder::reportActivityProblems(const CompoundStmt *Body) {
  reportReseated();
  for (auto &[VD, Site] : Act.Lost)
    unsupported(Site, std::string(isa<CallExpr>(Site->IgnoreImplicit())
                                      ? "call '" + spelled(Site) +
                                            "', which stores differentiated "
                                            "values"
                                      : "'" + spelled(Site) + "' stored") +
                          " through a pointer held by '" +
                          VD->getNameAsString() + "' (of type '" +
                          VD->getType().getNonReferenceType().getAsString(
                              Ctx.getPrintingPolicy()) +
                          "'), which carries no derivatives (pass the "
                          "pointer itself)");
  for (const CallExpr *CE : Act.BitCopies)
    unsupported(CE, bitCopyMessage(Ctx, CE));
  if (const Expr *W = firstShapeWrite(Body)) {
    if (isa<CallExpr>(W))
      unsupported(W, "call '" + spelled(W) +
                         "', which changes the sizes of an object whose "
                         "shadow is a copy made at its declaration (give it "
                         "its sizes where it is constructed)");
    else
      unsupported(W, "write to '" + spelled(W) +
                         "', which the shadow of a class that keeps its "
                         "elements in a container member does not follow "
                         "(set the sizes where the object is constructed)");
    return false;
  }
  if (D.options().PrintActivity)
    report(S.Diags, Diag::RemarkActivity, Primal->getLocation())
        << nameOf(Primal) << Act.print();
  return true;
}

/// Finds the returns that end the function (TailReturns); any other makes
/// the forward sweep a block that returns jump out of (EarlyReturn).
void PullbackBuilder::detectEarlyReturns(const CompoundStmt *Body,
                                         Stmts &Fwd) {
  collectTailReturns(Body, Ctx, TailReturns);
  {
    // Any other return jumps to the end of the forward sweep.
    struct Finder : RecursiveASTVisitor<Finder> {
      const llvm::SmallPtrSetImpl<const Stmt *> *Tail;
      bool Found = false;
      bool VisitReturnStmt(ReturnStmt *RS) {
        Found |= !Tail->count(RS);
        return true;
      }
      bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    } F;
    F.Tail = &TailReturns;
    F.TraverseStmt(const_cast<CompoundStmt *>(Body));
    EarlyReturn = F.Found;
  }
  if (EarlyReturn) {
    RetFlag = hoist("_ret", Ctx.getSizeType());
    Fwd.push_back(B.assign(B.ref(RetFlag), B.intLit(0, Ctx.getSizeType())));
    FwdEnd = B.label(PB, fresh("_forward_end"));
  }
}

/// Maps the primal's parameters to the pullback's (in/out references to a
/// local copy); false after reporting a parameter it cannot take.
bool PullbackBuilder::bindPrimalParams() {
  for (unsigned I = 0; I < Primal->getNumParams(); ++I) {
    const ParmVarDecl *P = Primal->getParamDecl(I);
    ParmVarDecl *NP = param(I);
    // (The halves of a split derivative write the caller's variable: the
    // forward half is the primal's call.)
    if (Half == SplitHalf::None && P->getType()->isReferenceType() &&
        !P->getType().getNonReferenceType().isConstQualified() &&
        isFloating(P->getType().getNonReferenceType())) {
      QualType T = P->getType().getNonReferenceType();
      VarDecl *Copy = B.var(PB, fresh("_" + NP->getName().str()), T,
                            B.ref(NP));
      Prologue.push_back(B.declStmt(Copy));
      VarMap[P] = Copy;
      continue;
    }
    ParamKind K = classifyParam(Ctx, P->getType()).Kind;
    if (K == ParamKind::Class)
      if (const FieldDecl *CF = constFloatingMember(P->getType())) {
        report(S.Diags, Diag::UnsupportedConstruct, P->getLocation())
            << ("parameter '" + P->getNameAsString() + "' of type '" +
                P->getType()
                    .getNonReferenceType()
                    .getUnqualifiedType()
                    .getAsString() +
                "' (it has a const member '" + CF->getNameAsString() +
                "' of floating type, which its adjoint cannot accumulate)")
            << nameOf(Primal);
        D.noteRequest(Entry);
        return false;
      }
    if (K == ParamKind::Class && !isa<ParmVarDecl>(P)) {
      report(S.Diags, Diag::UnsupportedConstruct, P->getLocation())
          << ("parameter of type '" + P->getType().getAsString() + "'")
          << nameOf(Primal);
      D.noteRequest(Entry);
      return false;
    }
    VarMap[P] = NP;
  }
  return true;
}

/// Stores the accumulated adjoints of scalar parameters and of objects
/// copied into locals, once, at the end.
void PullbackBuilder::storeAdjoints(Stmts &Epilogue) {
  for (unsigned I = 0; I < Primal->getNumParams(); ++I) {
    int Idx = Sig.AdjointIndex[I];
    if (Idx < 0)
      continue;
    auto It = Adjoints.find(Primal->getParamDecl(I));
    if (It == Adjoints.end())
      continue;
    ParamKind PK = classifyParam(Ctx, Primal->getParamDecl(I)->getType()).Kind;
    if (PK != ParamKind::Scalar && PK != ParamKind::ScalarRef)
      continue;
    Expr *Target = B.deref(B.ref(param(Idx)));
    if (classifyParam(Ctx, Primal->getParamDecl(I)->getType()).Kind ==
        ParamKind::ScalarRef)
      Epilogue.push_back(B.assign(Target, B.ref(It->second)));
    else
      Epilogue.push_back(B.addAssign(Target, B.ref(It->second)));
  }

  for (auto &[P, A] : LocalParamShadows) {
    int Idx = Sig.AdjointIndex[P->getFunctionScopeIndex()];
    accumulateObject(B.deref(B.ref(param(Idx))), B.ref(A),
                     A->getType().getNonReferenceType(), Epilogue);
  }
}

/// The pullback's body: local types, entry checks, prologue, forward and
/// reverse sweeps, the adjoints stored.
bool PullbackBuilder::assemble(const Stmts &Fwd, const Stmts &Rev,
                               const Stmts &Epilogue) {
  Stmts All(LocalTypes.begin(), LocalTypes.end());
  entryChecks(All);
  All.insert(All.end(), Prologue.begin(), Prologue.end());
  All.insert(All.end(), FwdStart.begin(), FwdStart.end());
  All.insert(All.end(), Fwd.begin(), Fwd.end());
  All.insert(All.end(), Rev.begin(), Rev.end());
  All.insert(All.end(), Epilogue.begin(), Epilogue.end());
  if (failedBuilding("the pullback"))
    return false;
  PB->setBody(B.block(All));
  return true;
}

bool PullbackBuilder::build() {
  std::string Why;
  if (!computeSignature(Ctx, Primal, Entry.Wrt, PB->getName(), Sig, Why))
    return false;
  Facts::get(Ctx).noteStatementCalls(Primal->getBody());
  bindParams();

  const auto *Body = dyn_cast_or_null<CompoundStmt>(Primal->getBody());
  if (!Body) {
    const Stmt *Raw = Primal->getBody();
    report(S.Diags, Diag::UnsupportedConstruct,
           Raw ? Raw->getBeginLoc() : Primal->getLocation())
        << (!Raw                             ? "function without a body"
            : isa<CoroutineBodyStmt>(Raw)    ? "coroutine"
            : isa<CXXTryStmt>(Raw)           ? "function-try-block"
                                             : constructName(Raw))
        << nameOf(Primal);
    D.noteRequest(Entry);
    return false;
  }
  Act.run(Primal, Entry.Wrt);
  if (!reportActivityProblems(Body))
    return false;

  Sema::SynthesizedFunctionScope Scope(S, PB);
  Stmts Fwd, Rev;
  Cur = &Fwd;
  detectEarlyReturns(Body, Fwd);
  // Parameters: by-value ones are used directly; in/out references get a
  // local copy so that the pullback never writes its inputs.
  if (!bindPrimalParams())
    return false;
  // Locals of the outermost block stay in scope for the reverse sweep
  // unless the forward sweep is a block that returns jump out of.
  // (Not in a split derivative: its reverse half has no forward sweep.)
  if (!EarlyReturn && Half == SplitHalf::None)
    for (const Stmt *Child : Body->body())
      if (const auto *DS = dyn_cast<DeclStmt>(Child))
        for (const Decl *Dc : DS->decls())
          if (const auto *VD = dyn_cast<VarDecl>(Dc))
            TopLevelLocals.insert(VD);

  SmallVector<const Stmt *, 16> Top;
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Primal))
    if (!constructorInits(Ctor, Top))
      return false;
  Top.append(Body->body_begin(), Body->body_end());
  sequence(Top, Fwd, Rev);
  if (Failed ||
      (!B.Failed && Half != SplitHalf::Forward && !checkSites()))
    return false;
  if (EarlyReturn) {
    Stmt *FwdBlock = B.block(Fwd);
    Fwd.assign(1, FwdBlock);
    Fwd.push_back(B.labelStmt(FwdEnd, nullptr));
  }

  Stmts Epilogue;
  storeAdjoints(Epilogue);
  if (Half != SplitHalf::None)
    return finishSplit(Fwd, Rev, Epilogue);
  return assemble(Fwd, Rev, Epilogue);
}

VarDecl *PullbackBuilder::bind(Expr *Adj, QualType T, Stmts &Out) {
  // Adjoint values that never change can be referenced again directly.
  if (auto *DRE = dyn_cast_or_null<DeclRefExpr>(Adj))
    if (auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (Immutable.count(VD) ||
          (Sig.SeedIndex >= 0 && VD == param(Sig.SeedIndex)))
        return VD;
  T = T.getNonReferenceType().getUnqualifiedType();
  VarDecl *V = B.var(PB, fresh("_r"), T, Adj);
  Out.push_back(B.declStmt(V));
  Immutable.insert(V);
  return V;
}

namespace {
/// The variables a statement declares, and whether it mentions one of a
/// given set.
struct DeclaredVars : RecursiveASTVisitor<DeclaredVars> {
  const llvm::DenseSet<const VarDecl *> *Probe = nullptr;
  llvm::SmallVector<const VarDecl *, 4> Declared;
  bool Mentions = false;
  bool VisitVarDecl(VarDecl *VD) {
    Declared.push_back(VD);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    const ValueDecl *D = DRE->getDecl();
    // A structured binding: a part of the object it decomposes.
    if (const auto *BD = dyn_cast<BindingDecl>(D))
      D = BD->getDecomposedDecl();
    if (Probe)
      if (const auto *VD = dyn_cast_or_null<VarDecl>(D))
        Mentions |= Probe->count(VD) != 0;
    return true;
  }
};
} // namespace

void PullbackBuilder::stmt(const Stmt *St, Stmts &Fwd, Stmts &Rev) {
  if (!St || B.Failed)
    return;
  // After an error the function's derivative is not emitted, but the
  // remaining statements are still looked at so that one compile reports
  // every unsupported construct (one per statement). A statement that uses
  // a variable declared by a failed one is skipped: its errors would only
  // follow from the first.
  DeclaredVars DV;
  if (!Poisoned.empty()) {
    DV.Probe = &Poisoned;
    DV.TraverseStmt(const_cast<Stmt *>(St));
    if (DV.Mentions) {
      Poisoned.insert(DV.Declared.begin(), DV.Declared.end());
      Failed = true;
      return;
    }
  }
  bool FailedBefore = Failed;
  bool SemaFailedBefore = B.Failed;
  Failed = false;
  stmtImpl(St, Fwd, Rev);
  if (Failed && !SemaFailedBefore)
    B.Failed = false;
  if (Failed && DV.Declared.empty())
    DV.TraverseStmt(const_cast<Stmt *>(St));
  if (Failed)
    Poisoned.insert(DV.Declared.begin(), DV.Declared.end());
  Failed = Failed || FailedBefore;
}

void PullbackBuilder::stmtImpl(const Stmt *St, Stmts &Fwd, Stmts &Rev) {
  Stmts *Saved = Cur;
  Cur = &Fwd;
  SourceLocation SavedLoc = B.Loc;
  B.Loc = St->getBeginLoc();
  Frames.emplace_back();
  Frames.back().HoistSplits = hasHoistedCall(St);
  Stmts Local;
  if (isa<Expr>(St) && replayable(St))
    Fwd.push_back(replayStmt(cast<Expr>(St))); // no derivative: as written
  else if (const auto *CS = dyn_cast<CompoundStmt>(St))
    compound(CS, Fwd, Local);
  else if (const auto *DS = dyn_cast<DeclStmt>(St))
    declStmt(DS, Fwd, Local);
  else if (isa<NullStmt>(St))
    ;
  else if (const auto *RS = dyn_cast<ReturnStmt>(St)) {
    if (EarlyReturn)
      jump(RS, Fwd, Local);
    else
      returnStmt(RS, Fwd, Local);
  } else if (isa<BreakStmt>(St) || isa<ContinueStmt>(St))
    jump(St, Fwd, Local);
  else if (isa<ForStmt>(St) || isa<WhileStmt>(St) || isa<DoStmt>(St))
    loop(St, Fwd, Local);
  else if (const auto *RF = dyn_cast<CXXForRangeStmt>(St))
    rangeFor(RF, Fwd, Local);
  else if (const auto *SW = dyn_cast<SwitchStmt>(St))
    switchStmt(SW, Fwd, Local);
  else if (const auto *IS = dyn_cast<IfStmt>(St))
    ifStmt(IS, Fwd, Local);
  else if (const auto *AS = dyn_cast<AttributedStmt>(St))
    stmt(AS->getSubStmt(), Fwd, Local);
  else if (const auto *LS = dyn_cast<LabelStmt>(St))
    // Only a 'goto' can reach it, and that is the error.
    stmt(LS->getSubStmt(), Fwd, Local);
  else if (const auto *E = dyn_cast<Expr>(St))
    exprStmt(E, Fwd, Local);
  else
    unsupported(St, constructName(St));
  // Inside loops, what this statement recorded goes on the tape at its end
  // and comes back at the start of its reverse block.
  Frame F = std::move(Frames.back());
  Frames.pop_back();
  pushFrame(F.Recorded, Fwd, Rev);
  Rev.insert(Rev.end(), Local.begin(), Local.end());
  for (auto It = F.SideRev.rbegin(); It != F.SideRev.rend(); ++It)
    if (!It->empty())
      Rev.push_back(B.block(*It));
  Cur = Saved;
  B.Loc = SavedLoc;
}

void PullbackBuilder::compound(const CompoundStmt *CS, Stmts &Fwd,
                               Stmts &Rev) {
  Stmts InnerFwd, InnerRev;
  SmallVector<const Stmt *, 16> Body(CS->body_begin(), CS->body_end());
  recordExitSizes(Body, InnerFwd);
  sequence(Body, InnerFwd, InnerRev);
  restoreExitSizes(InnerFwd, InnerRev);
  Fwd.push_back(B.block(InnerFwd));
  if (!InnerRev.empty())
    Rev.push_back(B.block(InnerRev));
}

void PullbackBuilder::incrementStmt(const UnaryOperator *UO, Stmts &Fwd,
                                    Stmts &Rev) {
  // `++(t += y)`, `(t *= x)--`, `++++t`: the inner write first (a
  // statement of its own), then the increment of its target.
  const Expr *Target = UO->getSubExpr()->IgnoreParens();
  if (const auto *IB = dyn_cast<BinaryOperator>(Target);
      IB && IB->isAssignmentOp()) {
    exprStmt(IB, Fwd, Rev);
    Target = IB->getLHS();
  } else if (const auto *IU = dyn_cast<UnaryOperator>(Target);
             IU && IU->isPrefix() && IU->isIncrementDecrementOp()) {
    exprStmt(IU, Fwd, Rev);
    Target = IU->getSubExpr();
  } else {
    Target = nullptr;
  }
  if (Target) {
    if (Target->HasSideEffects(Ctx)) {
      unsupported(UO, "increment of an assignment with side effects in "
                      "its left side");
      return;
    }
    auto *Inc = UnaryOperator::Create(
        Ctx, const_cast<Expr *>(Target), UO->getOpcode(),
        Target->getType(), VK_LValue, OK_Ordinary, UO->getOperatorLoc(),
        false, FPOptionsOverride());
    exprStmt(Inc, Fwd, Rev);
    return;
  }
  // (A structured binding: the part it names.)
  const Expr *Sub = strip(UO->getSubExpr());
  if (isElementAccess(Sub)) {
    Fwd.push_back(B.unop(UO->getOpcode(), rebuildElement(Sub, false,
                                                         true)));
    return;
  }
  const auto *DRE =
      dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParenImpCasts());
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !mapVar(VD)) {
    unsupported(UO, "increment of " + constructName(UO->getSubExpr()));
    return;
  }
  // d(x + 1)/dx = 1: the adjoint is unchanged.
  Fwd.push_back(B.unop(UO->getOpcode(), B.ref(mapVar(VD))));
}

void PullbackBuilder::discardedCall(const CallExpr *CE, Stmts &Fwd) {
  const Expr *K = CE;
  // A call whose result is discarded: keep its side effects, unless it
  // is differentiable (its only effect would be the discarded value).
  // Calls that write differentiated memory are refused in rebuildCall.
  // Only a math function whose arguments have no side effects may be
  // dropped: any other callee may log, throw or count, and an argument
  // may write (`unit(x += y)`); those are replayed.
  if (Act.isActive(CE) && isFloating(CE->getType()) && !writtenStorage(CE) &&
      findRule(CE->getDirectCallee()) &&
      llvm::none_of(CE->arguments(), [&](const Expr *A) {
        return A->HasSideEffects(Ctx);
      }))
    return;
  Expr *R = plain(K);
  // A call that writes memory put itself in the forward sweep (also as
  // its form over pointers: `v.insert(pos, w.begin(), w.end())`).
  const Expr *F = K;
  if (const CallExpr *PF = pointerForm(Facts::get(Ctx), CE))
    F = PF;
  if (R && !Plans.count(K) && !SideEffectCalls.count(K) &&
      !Plans.count(F) && !SideEffectCalls.count(F))
    Fwd.push_back(R);
}

void PullbackBuilder::exprStmt(const Expr *E, Stmts &Fwd, Stmts &Rev) {
  const Expr *K = strip(E);
  if (const auto *BO = dyn_cast<BinaryOperator>(K)) {
    // (c ? a : b) op= e: if (c) a op= e; else b op= e;
    if (const IfStmt *IS = conditionalAssignment(Facts::get(Ctx), BO)) {
      modelled(BO);
      ifStmt(IS, Fwd, Rev);
      return;
    }
    if (BO->isAssignmentOp() && D.options().TestReplayAssignments) {
      Fwd.push_back(replayStmt(BO));
      return;
    }
    if (BO->isAssignmentOp()) {
      assignment(BO, Fwd, Rev);
      return;
    }
    if (BO->getOpcode() == BO_Comma) {
      stmt(BO->getLHS(), Fwd, Rev);
      Stmts R2;
      stmt(BO->getRHS(), Fwd, R2);
      Rev.insert(Rev.begin(), R2.begin(), R2.end());
      return;
    }
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(K);
      UO && UO->isIncrementDecrementOp()) {
    incrementStmt(UO, Fwd, Rev);
    return;
  }
  if (isa<CXXThrowExpr>(K)) {
    unsupported(K, constructName(K));
    return;
  }
  const Expr *Target = nullptr;
  if (const Expr *Value = complexUpdate(K, Target)) {
    // z += w, z.real(v): z = z + w, z = complex(v, z.imag()).
    recordAssignment(Target, Value, Fwd, Rev);
    return;
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(K);
      OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 &&
      isPlainRecord(OC->getArg(0)->getType())) {
    // a = b on a struct: member by member (a user-written operator= is
    // differentiated like any member function).
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(OC->getDirectCallee());
    if (MD && (!MD->isUserProvided() ||
               MD->getParent()->isInStdNamespace())) {
      recordAssignment(OC->getArg(0), OC->getArg(1), Fwd, Rev);
      return;
    }
  }
  if (const auto *CE = dyn_cast<CallExpr>(K)) {
    discardedCall(CE, Fwd);
    return;
  }
  Expr *R = plain(K);
  if (R)
    Fwd.push_back(R);
}

/// The variable a chain of `.m` accesses starts from, with the fields from
/// the variable outwards; null for anything else (`->`, subscripts).
static const VarDecl *memberPath(const Expr *E,
                                 SmallVectorImpl<const FieldDecl *> &Path) {
  Path.clear();
  E = E->IgnoreParenImpCasts();
  while (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (ME->isArrow() || !F)
      return nullptr;
    Path.push_back(F);
    E = ME->getBase()->IgnoreParenImpCasts();
  }
  std::reverse(Path.begin(), Path.end());
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

/// True if \p S reads member \p Path of \p V, a member inside it, an
/// object containing it, or \p V through anything but a `.m` chain.
static bool readsMember(const Stmt *S, const VarDecl *V,
                        ArrayRef<const FieldDecl *> Path) {
  if (!S)
    return false;
  if (const auto *E = dyn_cast<Expr>(S)) {
    const Expr *K = E->IgnoreParenImpCasts();
    if (isa<MemberExpr>(K)) {
      SmallVector<const FieldDecl *, 4> P;
      if (memberPath(K, P) == V) {
        size_t N = std::min(P.size(), Path.size());
        return std::equal(P.begin(), P.begin() + N, Path.begin());
      }
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(K))
      return DRE->getDecl() == V;
  }
  for (const Stmt *C : S->children())
    if (readsMember(C, V, Path))
      return true;
  return false;
}


/// The target of an assignment to a floating value, as assignment() found
/// it: the lvalue, its variable (null for a member of `this`), and the
/// target rebuilt for the forward sweep.
struct PullbackBuilder::AssignTarget {
  const Expr *LHS;
  const VarDecl *VD;
  VarDecl *NV;
  bool Element;
  Expr *Target;
  QualType T;   // the assigned type
  bool RActive; // whether the right operand is active
  Expr *adjoint(PullbackBuilder &PB) const {
    return Element ? PB.adjointElement(LHS) : PB.B.ref(PB.adjointOf(VD));
  }
};

bool PullbackBuilder::refuseReadOfLeftEffect(const BinaryOperator *BO,
                                             const Expr *LHS) {
  const auto *In = dyn_cast<BinaryOperator>(LHS);
  const auto *U = dyn_cast<UnaryOperator>(LHS);
  const Expr *Changed = In && In->isAssignmentOp() ? In->getLHS()
                        : U && U->isIncrementDecrementOp() ? U->getSubExpr()
                                                           : nullptr;
  bool IsThis = false;
  const VarDecl *CV = Changed ? pathRoot(Changed, IsThis) : nullptr;
  // Written through a pointer or reference (`(*w = e) *= x` with w =
  // &x): any floating memory the right operand reads may be the one.
  if (CV && mayAlias(CV) && readsAliasable(BO->getRHS(), CV)) {
    unsupported(BO, "assignment whose right operand reads memory that its "
                    "left operand may change through '" +
                        CV->getNameAsString() +
                        "' (C++ evaluates the right operand first: use "
                        "two statements)");
    return true;
  }
  if (CV) {
    DeclaredVars Reads;
    llvm::DenseSet<const VarDecl *> Probe{CV};
    Reads.Probe = &Probe;
    Reads.TraverseStmt(const_cast<Expr *>(BO->getRHS()));
    // A member of a local struct conflicts only with reads of the same
    // member (or of the whole object): `(s.z /= a) -= s.y` is fine.
    SmallVector<const FieldDecl *, 4> CP;
    if (Reads.Mentions && memberPath(Changed, CP) == CV && !CP.empty() &&
        !CV->getType()->isReferenceType())
      Reads.Mentions = readsMember(BO->getRHS(), CV, CP);
    if (Reads.Mentions) {
      unsupported(BO, "assignment whose right operand reads '" +
                          CV->getNameAsString() +
                          "', which its left operand changes (C++ "
                          "evaluates the right operand first: use two "
                          "statements)");
      return true;
    }
  }
  return false;
}

const Expr *PullbackBuilder::innerEffectsOfTarget(const Expr *LHS) {
  for (;;) {
    if (const auto *In = dyn_cast<BinaryOperator>(LHS);
        In && In->isAssignmentOp()) {
      rebuild(In, false, false);
      LHS = strip(In->getLHS());
      continue;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(LHS);
        U && U->isPrefix() && U->isIncrementDecrementOp()) {
      rebuild(U, false, false);
      LHS = strip(U->getSubExpr());
      continue;
    }
    // (a, t) = e: a discarded operand without effects, then t.
    if (const auto *C = dyn_cast<BinaryOperator>(LHS);
        C && C->getOpcode() == BO_Comma && !C->getLHS()->HasSideEffects(Ctx)) {
      LHS = strip(C->getRHS());
      continue;
    }
    return LHS;
  }
}

void PullbackBuilder::refuseUnassignableTarget(const Expr *LHS) {
  const Expr *Acc = LHS;
  while (Acc && !accessorArg(Acc))
    Acc = pathBase(Acc);
  if (Acc)
    unsupported(LHS, "assignment to " + constructName(LHS) + " through '" +
                         spelled(Acc) +
                         "' (bind the result to a local pointer or "
                         "reference first)");
  else
    unsupported(LHS, "assignment to '" + spelled(LHS) + "', a " +
                         constructName(LHS) + pointerMemberHint(LHS));
}

void PullbackBuilder::scaleAssignment(const BinaryOperator *BO,
                                      AssignTarget &AT, Stmts &Fwd,
                                      Stmts &R) {
  BinaryOperatorKind Op = BO->getOpcode();
  const Expr *RHS = BO->getRHS(), *LHS = AT.LHS;
  Expr *&Target = AT.Target;
  VarDecl *Old = hoist("_t", AT.T);
  Expr *RV;
  Expr *Cur0;
  if (AT.Element && LHS->HasSideEffects(Ctx)) {
    // `*r-- *= e`: the target is evaluated once, after the right operand
    // (C++17), through a pointer bound to its address.
    RV = fwd(RHS, true);
    VarDecl *P = hoist("_p", Ctx.getPointerType(Target->getType()));
    Fwd.push_back(B.assign(B.ref(P), B.addrOf(Target)));
    Target = B.paren(B.deref(B.ref(P)));
    Cur0 = B.paren(B.deref(B.ref(P)));
  } else {
    Cur0 = AT.Element ? rebuildElement(LHS, false, true) : B.ref(AT.NV);
    RV = nullptr;
  }
  Fwd.push_back(B.assign(B.ref(Old), Cur0));
  if (!Loops.empty() && !Frames.empty())
    Frames.back().Recorded.push_back(Old);
  if (!RV)
    RV = fwd(RHS, true);
  Fwd.push_back(B.binop(Op, Target, RV));
  VarDecl *Rv = bind(AT.adjoint(*this), AT.T, R);
  if (Op == BO_MulAssign) {
    R.push_back(
        B.assign(AT.adjoint(*this), B.binop(BO_Mul, B.ref(Rv), val(RHS))));
    if (AT.RActive)
      backprop(RHS, B.binop(BO_Mul, B.ref(Rv), B.ref(Old)), R);
  } else {
    R.push_back(
        B.assign(AT.adjoint(*this), B.binop(BO_Div, B.ref(Rv), val(RHS))));
    if (AT.RActive)
      backprop(RHS,
               B.unop(UO_Minus,
                      B.binop(BO_Div, B.binop(BO_Mul, B.ref(Rv), B.ref(Old)),
                              B.binop(BO_Mul, val(RHS), val(RHS)))),
               R);
  }
}

void PullbackBuilder::floatingAssignment(const BinaryOperator *BO,
                                         AssignTarget &AT, Stmts &Fwd,
                                         Stmts &Rev) {
  BinaryOperatorKind Op = BO->getOpcode();
  const Expr *RHS = BO->getRHS();
  auto Adjoint = [&]() -> Expr * { return AT.adjoint(*this); };
  QualType T = AT.T;
  Stmts R;
  switch (Op) {
  case BO_Assign: {
    Fwd.push_back(B.assign(AT.Target, fwd(RHS, false)));
    if (AT.RActive) {
      VarDecl *Rv = bind(Adjoint(), T, R);
      size_t Zero = R.size();
      R.push_back(B.assign(Adjoint(), B.zero(T)));
      backprop(RHS, B.ref(Rv), R);
      if (!AT.Element)
        fuseZeroAccumulate(R, Zero, adjointOf(AT.VD));
    } else {
      R.push_back(B.assign(Adjoint(), B.zero(T)));
    }
    break;
  }
  case BO_AddAssign:
  case BO_SubAssign: {
    Fwd.push_back(B.binop(Op, AT.Target, fwd(RHS, false)));
    if (AT.RActive) {
      VarDecl *Rv = bind(Adjoint(), T, R);
      Expr *Adj = B.ref(Rv);
      backprop(RHS, Op == BO_SubAssign ? B.unop(UO_Minus, Adj) : Adj, R);
    }
    break;
  }
  case BO_MulAssign:
  case BO_DivAssign:
    scaleAssignment(BO, AT, Fwd, R);
    break;
  default:
    unsupported(BO, "'" + BO->getOpcodeStr().str() + "' on a floating value");
    return;
  }
  if (!R.empty())
    Rev.push_back(B.block(R));
}

void PullbackBuilder::assignment(const BinaryOperator *BO, Stmts &Fwd,
                                 Stmts &Rev) {
  modelled(BO);
  const Expr *LHS = strip(BO->getLHS());
  // C++17 sequences the right operand before the left one: a right operand
  // that reads what an effect in the left operand changes
  // (`(z += z) += (y + z)`) would read the new value here.
  if ((LHS != BO->getLHS()->IgnoreParens() || isa<BinaryOperator>(LHS) ||
       isa<UnaryOperator>(LHS)) &&
      refuseReadOfLeftEffect(BO, LHS))
    return;
  // (t *= x) *= y, (++x) *= 2: the inner effect first, then this one on
  // its target.
  LHS = innerEffectsOfTarget(LHS);
  if (Failed)
    return;
  const auto *DRE = dyn_cast<DeclRefExpr>(LHS);
  bool Element = isElementAccess(LHS);
  const VarDecl *VD = Element ? indexedVar(LHS)
                      : DRE   ? dyn_cast<VarDecl>(DRE->getDecl())
                              : nullptr;
  // A member of `this` (`w -= lr * g` in a non-const member function):
  // its shadow is the member of *d_this, in/out like a reference
  // parameter's.
  bool IsThis = false;
  bool ThisMember = !VD && Element && !pathRoot(LHS, IsThis) && IsThis;
  if (!VD && !ThisMember) {
    refuseUnassignableTarget(LHS);
    return;
  }
  if (VD && !VD->isLocalVarDeclOrParm()) {
    unsupported(LHS, "write to global variable '" + VD->getNameAsString() +
                         "'");
    return;
  }
  VarDecl *NV = VD ? mapVar(VD) : nullptr;
  if (VD && !NV) {
    unsupported(LHS, "assignment to '" + VD->getNameAsString() + "'");
    return;
  }
  bool Active = VD ? Act.isActive(VD) : Act.ThisActive;
  BinaryOperatorKind Op = BO->getOpcode();
  const Expr *RHS = BO->getRHS();
  // The target, rebuilt once for the forward sweep (its index recorded when
  // the reverse sweep needs it), and its adjoint.
  Expr *Target = Element ? rebuildElement(LHS, false, !Active) : B.ref(NV);
  if (!Active || !isFloating(LHS->getType())) {
    Fwd.push_back(B.binop(Op, Target, fwd(RHS, false)));
    if (!Element && Op == BO_Assign)
      noteAliasDef(VD, RHS, Fwd);
    return;
  }
  AssignTarget AT{LHS, VD, NV, Element, Target,
                  LHS->getType().getNonReferenceType().getUnqualifiedType(),
                  Act.isActive(strip(RHS))};
  floatingAssignment(BO, AT, Fwd, Rev);
}

static bool mentions(const Stmt *St, const VarDecl *VD) {
  if (!St)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(St))
    return DRE->getDecl() == VD;
  for (const Stmt *C : St->children())
    if (mentions(C, VD))
      return true;
  return false;
}

void PullbackBuilder::fuseZeroAccumulate(Stmts &R, size_t Zero, VarDecl *A) {
  // `a = 0; ...; a += e;` with no other use of a in between: `a = e`
  // (x + 0.0 is not x for x = -0.0, so -O2 would keep the addition).
  for (size_t I = Zero + 1; I < R.size(); ++I) {
    const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(R[I]);
    if (CA && CA->getOpcode() == BO_AddAssign) {
      const auto *L = dyn_cast<DeclRefExpr>(CA->getLHS()->IgnoreParenImpCasts());
      if (L && L->getDecl() == A && !mentions(CA->getRHS(), A)) {
        R[I] = B.assign(B.ref(A), const_cast<Expr *>(CA->getRHS()));
        R.erase(R.begin() + Zero);
        return;
      }
    }
    if (mentions(R[I], A))
      return;
  }
}

bool PullbackBuilder::failedBuilding(StringRef What) {
  if (!Failed && !B.Failed)
    return false;
  // A construct was reported already; a Sema failure alone gets a report:
  // most often a runtime function the generated code calls, when the
  // runtime is not there.
  if (!Failed && !B.gradNamespace(/*Detail=*/true)) {
    D.needRuntime(Primal->getLocation(), Entry);
  } else if (!Failed) {
    report(S.Diags, Diag::UnsupportedConstruct, Primal->getLocation())
        << ("this function (building " + What + " failed)").str()
        << nameOf(Primal);
    D.noteRequest(Entry);
  }
  return true;
}

} // namespace grad
