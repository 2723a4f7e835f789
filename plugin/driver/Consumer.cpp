//===- Consumer.cpp - Driving differentiation in one TU ---------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "driver/Consumer.h"
#include "driver/EntryCopies.h"
#include "ast/Diagnostics.h"
#include "lift/Lift.h"
#include "ast/Printer.h"
#include "analysis/Promotion.h"
#include "reverse/PullbackBuilder.h"
#include "driver/Pushforward.h"
#include "ast/Tidy.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Sema/Scope.h"
#include "clang/Sema/Sema.h"
#include "llvm/Support/TimeProfiler.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace grad {

//===----------------------------------------------------------------------===//
// Differentiator
//===----------------------------------------------------------------------===//

void Differentiator::handleDecl(Decl *D) {
  auto *FD = dyn_cast<FunctionDecl>(D);
  if (!FD || !FD->doesThisDeclarationHaveABody() || FD->isDependentContext() ||
      FD->isInvalidDecl() || FD->isDeleted() || FD->isDefaulted())
    return;
  // After an ordinary C++ error the program does not compile anyway: do not
  // pile follow-on errors about recovered expressions on top of it.
  if (S.Diags.hasUncompilableErrorOccurred())
    return;
  State &St = State::get(S.Context);
  // Calls of pullback templates in this definition: defined now, so that
  // they are not left undefined at the end of the translation unit.
  queueTemplateRequests();
  if (const GradRequest *R = St.requestFor(FD)) {
    if (!St.find(FD, R->Wrt))
      declarePullback(S, FD, R->Wrt, nullptr, R->AttrLoc);
    if (!Opts.NoPromotionWarnings)
      checkPromotions(S, FD);
    // Callers in other translation units call the halves of a function
    // that writes through its parameters: define them here.
    if (PullbackEntry *E = St.find(FD, R->Wrt))
      // (By its parameter types: what the callers see.)
      if (!E->UserProvided && writesThroughParams(FD, /*Deep=*/false))
        ensureHalves(*E, /*OtherUnits=*/true);
  }
  if (auto FR = St.ForwardRequests.find(FD->getCanonicalDecl());
      FR != St.ForwardRequests.end()) {
    std::string Why;
    for (unsigned Lanes : {0u, FR->second.Lanes})
      if (!declarePushforward(S, FD, FR->second.Wrt, nullptr,
                              FR->second.AttrLoc, Why, nullptr, {}, Lanes)) {
        report(S.Diags, Diag::AttrForwardUnsupported, FR->second.AttrLoc)
            << nameOf(FD) << Why;
        break;
      }
  }
  if (auto PF = St.Pushforwards.find(FD->getCanonicalDecl());
      PF != St.Pushforwards.end())
    for (PushforwardEntry *E : PF->second)
      enqueueForward(E);
  for (const FunctionDecl *Re : FD->redecls()) {
    auto It = St.Pullbacks.find(Re);
    if (It == St.Pullbacks.end())
      continue;
    for (PullbackEntry *E : It->second)
      enqueue(E);
  }
  // Built now, so that the pullbacks of callees differentiated on demand
  // are declared for the code that follows.
  drain();
}

void Differentiator::drain() {
  if (Draining)
    return;
  Draining = true;
  // Breadth-first and iterative: a chain of N calls needs no recursion.
  size_t I = 0, J = 0, K = 0;
  while (I < Work.size() || J < SplitWork.size() || K < ForwardWork.size()) {
    if (K < ForwardWork.size()) {
      PushforwardEntry *E = ForwardWork[K++];
      defineForward(E, E->Primal->getDefinition());
      continue;
    }
    if (J < SplitWork.size()) {
      defineSplit(SplitWork[J++]);
      continue;
    }
    PullbackEntry *E = Work[I++];
    const FunctionDecl *Def = E->Primal->getDefinition();
    if (!Def) {
      E->Defined = false; // Defined later in the TU, or reported at the end.
      continue;
    }
    define(E, Def);
  }
  Work.clear();
  SplitWork.clear();
  ForwardWork.clear();
  // Halves for other translation units that failed quietly: a warning for
  // a function whose own pullback is fine (else its errors say enough).
  for (PullbackEntry *E : QuietHalves)
    if (E->HalvesFailed && !E->Failed &&
        (!E->Pullback || !E->Pullback->isInvalidDecl()))
      report(S.Diags, Diag::HalvesForOtherUnits,
             E->Primal->getDefinition()
                 ? E->Primal->getDefinition()->getLocation()
                 : E->Primal->getLocation())
          << nameOf(E->Primal);
  QuietHalves.clear();
  Draining = false;
}

/// True if \p St holds an expression Sema could not build (clang reported
/// it; differentiating around it would only add errors).
static bool hasErrors(const Stmt *St) {
  if (!St)
    return false;
  if (const auto *E = dyn_cast<Expr>(St))
    return E->containsErrors();
  for (const Stmt *Child : St->children())
    if (hasErrors(Child))
      return true;
  if (const auto *DS = dyn_cast<DeclStmt>(St))
    for (const Decl *D : DS->decls())
      if (D->isInvalidDecl())
        return true;
  return false;
}

void Differentiator::define(PullbackEntry *E, const FunctionDecl *Def) {
  // -ftime-trace reports the plugin's own time as "Total grad: pullback".
  llvm::TimeTraceScope Scope("grad: pullback", [&] {
    return Def->getQualifiedNameAsString();
  });
  if (Def->isInvalidDecl() || hasErrors(Def->getBody())) {
    E->Failed = true;
    E->Pullback->setInvalidDecl();
    return;
  }
  // The user defined this pullback (a redeclaration of ours): theirs wins.
  if (E->Pullback->isDefined()) {
    E->UserProvided = true;
    return;
  }
  if (Def->isDeleted() || Def->isDefaulted() || !Def->getBody()) {
    report(S.Diags, Diag::UnsupportedConstruct, Def->getLocation())
        << (Def->isDeleted() ? "deleted function" : "function without a body")
        << nameOf(Def);
    noteRequest(*E);
    E->Failed = true;
    E->Pullback->setInvalidDecl();
    return;
  }
  // The pullback has the inline-ness of the primal's definition (a
  // [[grad]] prototype may be followed by an inline definition).
  if ((Def->isInlined() || Def->isTemplateInstantiation()) &&
      !E->Pullback->isInlined())
    E->Pullback->setImplicitlyInline();
  // A function differentiated in two halves: its pullback runs both.
  bool Built = false;
  if (useSplit(*E, Def->getLocation())) {
    Built = defineWrapper(E);
  } else {
    CallablePresentation Callables(*this, Def, {E->Primal, E, nullptr});
    EntryCopies View(S, Def);
    Built = PullbackBuilder(*this, *E, View.def()).build();
  }
  if (!Built) {
    E->Failed = true;
    E->Pullback->setInvalidDecl();
    return;
  }
  publish(E->Pullback, Def);
  defineHvp(*E);
  defineVectorPullback(*E);
}

void Differentiator::enqueue(PullbackEntry *E) {
  if (E->Wanted && !E->UserProvided && !E->Defined && !E->Failed &&
      E->Primal->getDefinition()) {
    E->Defined = true;
    Work.push_back(E);
  }
}

void Differentiator::enqueueForward(PushforwardEntry *E) {
  if (!E->UserProvided && !E->Defined && !E->Failed &&
      E->Primal->getDefinition()) {
    E->Defined = true;
    ForwardWork.push_back(E);
  }
}

void Differentiator::defineForward(PushforwardEntry *E,
                                   const FunctionDecl *Def) {
  llvm::TimeTraceScope Scope("grad: pushforward", [&] {
    return Def->getQualifiedNameAsString();
  });
  FunctionDecl *PF = E->Pushforward;
  if (Def->isInvalidDecl() || hasErrors(Def->getBody()) || !Def->getBody()) {
    E->Failed = true;
    PF->setInvalidDecl();
    return;
  }
  if (PF->isDefined()) { // the user defined our declaration: theirs wins
    E->UserProvided = true;
    return;
  }
  if ((Def->isInlined() || Def->isTemplateInstantiation()) &&
      !PF->isInlined())
    PF->setImplicitlyInline();
  // A vector pullback's part is inlined where the half it comes from is.
  if (E->Linear && Def->hasAttr<AlwaysInlineAttr>() &&
      !PF->hasAttr<AlwaysInlineAttr>())
    PF->addAttr(AlwaysInlineAttr::Create(
        S.Context, SourceRange(), AlwaysInlineAttr::CXX11_gnu_always_inline));
  CallablePresentation Callables(*this, Def, {E->Primal, nullptr, E});
  if (!buildPushforward(*this, *E, Def)) {
    E->Failed = true;
    PF->setInvalidDecl();
    return;
  }
  publish(PF, Def);
}

void Differentiator::publish(FunctionDecl *FD, const FunctionDecl *Primal) {
  tidy(FD, Opts.HoistSums);
  Done.push_back(FD);
  definedGenerated(FD);
  if (Opts.Remarks)
    report(S.Diags, Diag::RemarkGenerated, Primal->getLocation())
        << nameOf(FD) << nameOf(Primal);
  if (Opts.Dump)
    printDefinition(FD, llvm::errs());
  Emit(FD);
}

void Differentiator::definedGenerated(FunctionDecl *FD) {
  State &St = State::get(S.Context);
  if (auto PF = St.Pushforwards.find(FD->getCanonicalDecl());
      PF != St.Pushforwards.end())
    for (PushforwardEntry *E : PF->second)
      enqueueForward(E);
}

void Differentiator::defineVectorPullback(const PullbackEntry &E) {
  State &St = State::get(S.Context);
  auto It = St.VectorPullbacks.find(E.Primal->getCanonicalDecl());
  if (It == St.VectorPullbacks.end() || !It->second)
    return;
  VectorPullbackEntry &V = *It->second;
  if (V.Defined || V.Failed || V.Wrt != E.Wrt || !E.Pullback->isDefined())
    return;
  V.Defined = true;
  llvm::TimeTraceScope Scope("grad: vector pullback", [&] {
    return E.Primal->getQualifiedNameAsString();
  });
  const FunctionDecl *PBDef = nullptr;
  E.Pullback->isDefined(PBDef);
  if (PBDef->isInlined() && !V.Fn->isInlined())
    V.Fn->setImplicitlyInline();
  if (!buildVectorPullback(*this, V, PBDef)) {
    V.Failed = true;
    V.Fn->setInvalidDecl();
    return;
  }
  publish(V.Fn, E.Primal);
}

void Differentiator::defineHvp(const PullbackEntry &E) {
  State &St = State::get(S.Context);
  auto It = St.Hvps.find(E.Primal->getCanonicalDecl());
  if (It == St.Hvps.end() || !It->second)
    return;
  HvpEntry &H = *It->second;
  if (H.Defined || H.Failed || H.Wrt != E.Wrt || !E.Pullback->isDefined())
    return;
  H.Defined = true;
  llvm::TimeTraceScope Scope("grad: hvp", [&] {
    return E.Primal->getQualifiedNameAsString();
  });
  const FunctionDecl *PBDef = nullptr;
  E.Pullback->isDefined(PBDef);
  if (PBDef->isInlined() && !H.Hvp->isInlined())
    H.Hvp->setImplicitlyInline();
  // (Said once at the call, not as the pullback's runtime calls.)
  if (const CallExpr *M = mapCallReached(E.Primal)) {
    report(S.Diags, Diag::UnsupportedHvp, M->getBeginLoc())
        << ("call to 'grad::" + runtimePrimitive(M) +
            "' (map and broadcast are lowered in reverse mode only: write "
            "the loop)")
               .str()
        << nameOf(E.Primal);
    noteRequest(E);
    H.Failed = true;
    H.Hvp->setInvalidDecl();
    return;
  }
  if (!buildHvp(*this, H, PBDef)) {
    H.Failed = true;
    H.Hvp->setInvalidDecl();
    return;
  }
  publish(H.Hvp, E.Primal);
}

PushforwardEntry *Differentiator::calleePushforward(
    const FunctionDecl *Callee, SourceLocation Loc,
    const FunctionDecl *Requester, std::string &Why, const WrtMask *Drop,
    const WrtMask *Only, unsigned Lanes, bool Linear) {
  auto *FD = const_cast<FunctionDecl *>(Callee);
  // Every differentiable parameter (or those the call has tangents for),
  // unless [[grad::forward]] on a function defined elsewhere declared
  // fewer.
  WrtMask Full = fullMask(FD);
  Full.resize(FD->getNumParams());
  WrtMask Mask = Only ? *Only : Full;
  State &St = State::get(S.Context);
  auto FR = St.ForwardRequests.find(FD->getCanonicalDecl());
  bool Requested = FR != St.ForwardRequests.end();
  if (Requested && !FD->isDefined())
    Mask = FR->second.Wrt;
  // A narrower variant than the one NAME_pushforward names gets a name of
  // its own.
  std::string Override;
  if (Mask != (Requested ? FR->second.Wrt : Full)) {
    Override = "_grad_" + pushforwardName(FD) + "_";
    for (bool B : Mask)
      Override += B ? '1' : '0';
  }
  PushforwardEntry *E = declarePushforward(S, FD, Mask, nullptr, Loc, Why,
                                           Drop, Override, Lanes, Linear);
  if (!E)
    return nullptr;
  if (!E->Requester) {
    E->Requester = Requester;
    E->RequestLoc = Loc;
  }
  enqueueForward(E);
  return E;
}

void Differentiator::queue(PullbackEntry *E) {
  E->Wanted = true;
  enqueue(E);
}

static bool sameWrt(const WrtMask &A, const WrtMask &B) {
  return std::equal(A.begin(), A.end(), B.begin(), B.end());
}

/// The parameters a callee's pullback is for, \p Mask asked: those its
/// [[grad]] request declares when another translation unit defines it, and
/// all of them (\p Full) when the user wrote a pullback for every one.
static WrtMask calleeMask(Sema &S, FunctionDecl *FD, WrtMask Mask,
                          const WrtMask &Full) {
  State &St = State::get(S.Context);
  // A [[grad]] function defined in another translation unit: only the
  // derivatives its own translation unit defines exist.
  if (const GradRequest *R = St.requestFor(FD))
    if (!FD->isDefined() && !FD->isImplicitlyInstantiable())
      Mask = R->Wrt;
  // A user pullback (for every parameter) wins over a narrower variant.
  if (!sameWrt(Mask, Full)) {
    PullbackSignature FullSig;
    std::string Why;
    FunctionDecl *Mismatch = nullptr;
    if (computeSignature(S.Context, FD, Full, pullbackName(FD), FullSig,
                         Why) &&
        !St.requestFor(FD) && findUserPullback(S, FD, FullSig, Mismatch))
      Mask = Full;
  }
  return Mask;
}

/// The name of a callee's pullback for \p Mask when it is not
/// NAME_pullback (empty if it is).
static std::string calleePullbackName(State &St, FunctionDecl *FD,
                                      const WrtMask &Mask,
                                      const WrtMask &Full) {
  // A [[grad]] request for other parameters owns NAME_pullback; the
  // all-parameter variant this call needs gets its own name, and so does
  // a variant without the adjoints of memory the call does not
  // differentiate (its extent is unknown: no scratch can stand in).
  std::string Override;
  const GradRequest *Req = St.requestFor(FD);
  if (Req && sameWrt(Req->Wrt, Mask))
    ;
  else if (sameWrt(Mask, Full))
    Override = Req ? "_grad_" + pullbackName(FD) + "_all" : "";
  else {
    Override = "_grad_" + pullbackName(FD) + "_";
    for (bool B : Mask)
      Override += B ? '1' : '0';
  }
  return Override;
}

PullbackEntry *Differentiator::calleePullback(const FunctionDecl *Callee,
                                              SourceLocation Loc,
                                              const PullbackEntry &Caller,
                                              bool Queue, const WrtMask *Only) {
  State &St = State::get(S.Context);
  auto *FD = const_cast<FunctionDecl *>(Callee);
  WrtMask Full = fullMask(FD);
  WrtMask Mask = calleeMask(S, FD, Only ? *Only : Full, Full);
  if (PullbackEntry *E = St.find(FD, Mask)) {
    if (Queue && !E->Wanted)
      queue(E);
    return E;
  }

  PullbackSignature Sig;
  std::string Why;
  std::string Name = pullbackName(FD);
  if (Name.empty())
    // (never silently: a derivative without a name cannot be declared)
    Why = "clang-grad has no pullback name for this kind of function";
  if (Name.empty() || !computeSignature(S.Context, FD, Mask, Name, Sig, Why)) {
    if (firstErrorAt(Loc, Caller.Primal)) {
      report(S.Diags, Diag::UnsupportedConstruct, Loc)
          << ("call to '" + nameOf(FD) + "' (" + Why + ")")
          << nameOf(Caller.Primal);
      noteRequest(Caller);
    }
    return nullptr;
  }
  FunctionDecl *Mismatch = nullptr;
  if (FunctionDecl *User = findUserPullback(S, FD, Sig, Mismatch))
    return St.add(FD, User, Mask, /*User=*/true);
  if (Mismatch && !isPullbackOfOverload(S, FD, Mismatch)) {
    report(S.Diags, Diag::UserPullbackMismatch, Mismatch->getLocation())
        << Mismatch->getNameAsString() << nameOf(FD)
        << Sig.str(S.Context);
    report(S.Diags, Diag::CalleeNote, Loc) << nameOf(FD);
    return nullptr;
  }
  std::string Override = calleePullbackName(St, FD, Mask, Full);
  PullbackEntry *E = declarePullback(S, FD, Mask, nullptr, Loc, Override);
  if (!E)
    return nullptr;
  if (!E->Requester) {
    E->Requester = Caller.Primal;
    E->RequesterEntry = &Caller;
    E->RequestLoc = Loc;
  }
  if (Queue)
    queue(E);
  else if (!E->Defined && !St.requestFor(FD))
    E->Wanted = false; // until a caller needs the pullback itself
  return E;
}

void Differentiator::printDefinitionTo(FunctionDecl *FD) {
  printDefinition(FD, llvm::errs());
}

void Differentiator::noteRequest(const PullbackEntry &E) {
  State &St = State::get(S.Context);
  // Walk the chain of callers up to the [[grad]] site (bounded: chains of
  // on-demand callees can be long).
  const PullbackEntry *Cur = &E;
  for (unsigned Depth = 0; Cur && Depth < 16; ++Depth) {
    if (const GradRequest *R = St.requestFor(Cur->Primal)) {
      report(S.Diags, Diag::GradSiteNote, R->AttrLoc)
          << nameOf(Cur->Primal);
      return;
    }
    if (Cur->RequestLoc.isInvalid())
      return;
    report(S.Diags, Diag::CalleeNote, Cur->RequestLoc)
        << nameOf(Cur->Primal);
    Cur = Cur->RequesterEntry;
  }
}

void Differentiator::noteForwardRequest(const PushforwardEntry &E) {
  State &St = State::get(S.Context);
  const PushforwardEntry *Cur = &E;
  for (unsigned Depth = 0; Cur && Cur->RequestLoc.isValid() && Depth < 16;
       ++Depth) {
    const FunctionDecl *Primal = Cur->Primal;
    if (St.ForwardRequests.count(Primal->getCanonicalDecl()) ||
        !Cur->Requester) {
      report(S.Diags, Diag::GradSiteNote, Cur->RequestLoc)
          << nameOf(Primal);
      return;
    }
    report(S.Diags, Diag::CalleeNote, Cur->RequestLoc)
        << nameOf(Primal);
    // The caller's pushforward (the first, when several variants exist).
    const PushforwardEntry *Next = nullptr;
    for (const auto &F : St.ForwardEntries)
      if (F->Primal->getCanonicalDecl() ==
              Cur->Requester->getCanonicalDecl() &&
          F.get() != Cur) {
        Next = F.get();
        break;
      }
    Cur = Next;
  }
}

void Differentiator::needRuntime(SourceLocation Loc, const PullbackEntry &E) {
  if (RuntimeReported)
    return;
  RuntimeReported = true;
  report(S.Diags, Diag::NeedRuntime, Loc) << nameOf(E.Primal);
  noteRequest(E);
}

void Differentiator::queueTemplateRequests() {
  State &St = State::get(S.Context);
  // Specializations of pullback templates that the code called: each is
  // defined from the matching primal specialization, instantiated here if
  // nothing else needed it. Only the ones new since the last look.
  for (size_t T = 0; T < St.Templates.size(); ++T) {
    auto Specs = St.Templates[T].Pullback->specializations();
    unsigned Count = std::distance(Specs.begin(), Specs.end());
    if (Count == St.Templates[T].SeenSpecs)
      continue;
    SmallVector<FunctionDecl *, 8> New(
        std::next(Specs.begin(), St.Templates[T].SeenSpecs), Specs.end());
    St.Templates[T].SeenSpecs = Count;
    for (FunctionDecl *Spec : New) {
      if (St.Generated.count(Spec))
        continue;
      SourceLocation Loc = Spec->getPointOfInstantiation();
      if (Loc.isInvalid())
        Loc = St.Templates[T].AttrLoc;
      St.Generated.insert(Spec);
      FunctionDecl *PS =
          primalSpecialization(S, St.Templates[T], Spec, Loc);
      PullbackEntry *E =
          PS ? declarePullback(S, PS, St.Templates[T].Wrt, nullptr, Loc)
             : nullptr;
      if (!E) {
        Spec->setInvalidDecl();
        continue;
      }
      queue(E);
    }
  }
}

void Differentiator::defineUntilNothingNew() {
  State &St = State::get(S.Context);
  // Defining pullbacks can need template instantiations, whose pullbacks
  // need more: iterate until nothing new is requested.
  for (;;) {
    queueTemplateRequests();
    for (size_t I = 0; I < St.Entries.size(); ++I) {
      PullbackEntry *E = St.Entries[I].get();
      bool NeedsHalves = E->Fwd && !E->HalvesDone && !E->Failed;
      if (!NeedsHalves &&
          (E->UserProvided || E->Defined || E->Failed || !E->Wanted))
        continue;
      instantiatedDefinition(S, E->Primal, E->RequestLoc, /*AtEndOfTU=*/true);
      if (NeedsHalves && E->Primal->getDefinition())
        SplitWork.push_back(E);
      if (!E->UserProvided && !E->Defined && E->Wanted)
        enqueue(E);
    }
    if (Work.empty() && SplitWork.empty())
      break;
    drain();
    S.PerformPendingInstantiations();
  }
}

void Differentiator::reportBodilessPullbacks() {
  State &St = State::get(S.Context);
  for (size_t I = 0; I < St.Entries.size(); ++I) {
    PullbackEntry *E = St.Entries[I].get();
    bool NeedsHalves = E->Fwd && !E->HalvesDone;
    if (E->Failed || (!NeedsHalves && (E->UserProvided || E->Defined ||
                                       !E->Wanted)))
      continue;
    // [[grad]] declarations are defined by the TU that defines the primal
    // (with their halves when they have memory parameters).
    if (St.requestFor(E->Primal))
      continue;
    E->Failed = true;
    std::string CallerName =
        E->Requester ? E->Requester->getNameAsString() : std::string();
    report(S.Diags, Diag::NoBody, E->RequestLoc)
        << nameOf(E->Primal) << CallerName;
    PullbackSignature Sig;
    std::string Why;
    computeSignature(S.Context, E->Primal, E->Wrt,
                     pullbackName(E->Primal), Sig, Why);
    if (writesThroughParams(E->Primal, /*Deep=*/false))
      report(S.Diags, Diag::NoBodyWritesNote, E->Primal->getLocation())
          << nameOf(E->Primal);
    else
      report(S.Diags, Diag::NoBodyNote, E->Primal->getLocation())
          << Sig.str(S.Context);
    if (E->RequesterEntry)
      noteRequest(*E->RequesterEntry);
    E->Pullback->setInvalidDecl();
  }
}

void Differentiator::reportBodilessPushforwards() {
  State &St = State::get(S.Context);
  // Pushforwards of callees whose body never came.
  for (auto &Up : St.ForwardEntries) {
    PushforwardEntry *E = Up.get();
    if (E->UserProvided || E->Defined || E->Failed)
      continue;
    // [[grad::forward]] in the translation unit that defines it declares
    // the scalar pushforward and the one with its lanes.
    if (auto FR = St.ForwardRequests.find(E->Primal->getCanonicalDecl());
        FR != St.ForwardRequests.end() &&
        (E->Lanes == 0 || E->Lanes == FR->second.Lanes))
      continue;
    E->Failed = true;
    if (E->Linear) {
      // A vector pullback calls the pullback of a callee declared by the
      // user without a body here.
      const FunctionDecl *Of = E->Requester;
      for (const auto &P : St.Entries)
        if (Of && (P->Rev == Of || P->Pullback == Of || P->Fwd == Of))
          Of = P->Primal;
      report(S.Diags, Diag::UnsupportedVectorPullback, E->RequestLoc)
          << ("call to '" + nameOf(E->Primal) +
              "', a pullback without a visible body (the vector form of a "
              "pullback is built from its body)")
          << (Of ? Of->getNameAsString() : std::string());
      E->Pushforward->setInvalidDecl();
      continue;
    }
    report(S.Diags, Diag::UnsupportedForward, E->RequestLoc)
        << ("call to '" + nameOf(E->Primal) +
            "' (it has no visible body, no derivative rule and no user "
            "pushforward)")
        << (E->Requester ? E->Requester->getNameAsString() : std::string());
    report(S.Diags, Diag::NoBodyForwardNote, E->Primal->getLocation())
        << E->Sig.str(S.Context);
    E->Pushforward->setInvalidDecl();
  }
}

void Differentiator::finish() {
  llvm::TimeTraceScope Trace("grad: end of translation unit");
  // The parser has left the translation unit's scope; Sema declares the
  // builtins it meets while instantiating (`__builtin_memcpy` in an
  // implicit copy assignment) into TUScope, which must not be null.
  std::optional<Scope> TU;
  if (!S.TUScope) {
    TU.emplace(nullptr, Scope::DeclScope, S.Diags);
    TU->setEntity(S.Context.getTranslationUnitDecl());
    S.TUScope = &*TU;
  }
  defineUntilNothingNew();
  reportBodilessPullbacks();
  reportBodilessPushforwards();
  S.PerformPendingInstantiations();
  if (TU)
    S.TUScope = nullptr;
}

//===----------------------------------------------------------------------===//
// GradConsumer
//===----------------------------------------------------------------------===//

GradConsumer::~GradConsumer() {
  if (Ctx)
    State::release(*Ctx);
}

void GradConsumer::InitializeSema(Sema &Sm) {
  S = &Sm;
  Ctx = &Sm.Context;
  State::get(*Ctx).S = &Sm;
  Diff = std::make_unique<Differentiator>(Sm, Opts, [this](FunctionDecl *FD) {
    bool InGroup = false;
    for (Decl *G : CurrentGroup) {
      auto *GDC = dyn_cast<DeclContext>(G);
      if (!GDC)
        continue;
      for (const DeclContext *DC = FD->getLexicalDeclContext(); DC;
           DC = DC->getLexicalParent())
        if (DC == GDC)
          InGroup = true;
    }
    bool Saved = InHandler;
    InHandler = true;
    Emit(FD, InGroup);
    InHandler = Saved;
  });
}

void GradConsumer::ForgetSema() { S = nullptr; }

void GradConsumer::visit(Decl *D) {
  if (auto *DC = dyn_cast<DeclContext>(D))
    if (isa<NamespaceDecl>(D) || isa<LinkageSpecDecl>(D) ||
        isa<ExportDecl>(D)) {
      for (Decl *Child : DC->decls())
        visit(Child);
      return;
    }
  if (auto *FD = dyn_cast<FunctionDecl>(D))
    Diff->handleDecl(FD);
}

bool GradConsumer::HandleTopLevelDecl(DeclGroupRef DG) {
  if (InHandler || !Diff)
    return true;
  InHandler = true;
  CurrentGroup = DG;
  for (Decl *D : DG)
    visit(D);
  CurrentGroup = DeclGroupRef();
  InHandler = false;
  return true;
}

void GradConsumer::HandleInlineFunctionDefinition(FunctionDecl *FD) {
  if (!Diff || InHandler)
    return;
  InHandler = true;
  Diff->handleDecl(FD);
  InHandler = false;
}

void GradConsumer::HandleTranslationUnit(ASTContext &) {
  if (!Diff)
    return;
  InHandler = true;
  Diff->finish();
  InHandler = false;
}

PullbackEntry *Differentiator::stableVariant(PullbackEntry &Base,
                                             const WrtMask &Stable) {
  return State::get(S.getASTContext()).addStableVariant(Base, Stable);
}

const std::vector<std::unique_ptr<PullbackEntry>> &Differentiator::entries() {
  return State::get(S.getASTContext()).Entries;
}

bool Differentiator::isGenerated(const FunctionDecl *FD) {
  return State::get(S.getASTContext()).Generated.count(FD) != 0;
}

FunctionDecl *Differentiator::userDerivative(const FunctionDecl *Primal,
                                             const PullbackSignature &Sig) {
  FunctionDecl *Mismatch = nullptr;
  return findUserPullback(S, Primal, Sig, Mismatch);
}

} // namespace grad
