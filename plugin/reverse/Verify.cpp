//===- Verify.cpp - Run-time checks in generated pullbacks ----------------===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What the analyses assume, the generated code can check at run time
/// (docs/reliability.md, "Verify mode"). With `-fplugin-arg-grad-verify`:
/// - a value the reverse sweep reads again from memory instead of taping it
///   (readOnly()) is also kept by the forward sweep, and the re-read is
///   compared with it (`grad::detail::verify_reread`);
/// - at the entry of the pullback of a `[[grad]]` function, pointer and
///   reference parameters to the same type of which one is written must not
///   be the same memory (`verify_distinct`);
/// - a pullback that uses the tape leaves it as it found it
///   (`verify_tape`).
/// Always, at the entry of the pullback of a `[[grad]]` function: the
/// adjoint of a container the function cannot resize has its shape
/// (`check_shape`).
/// Without verify no check but the last is emitted: verify costs nothing
/// when off.
///
//===----------------------------------------------------------------------===//

#include "ast/Diagnostics.h"
#include "reverse/PullbackBuilder.h"
#include "ast/Records.h"
#include "analysis/Paths.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace grad {

std::string PullbackBuilder::checkSite(SourceLocation Loc,
                                       StringRef What) const {
  return runtimeCheckSite(Ctx, Loc, Primal, What);
}

bool PullbackBuilder::verifying() const {
  // (In the halves of a split derivative too: the value the forward half
  // read travels in the frame like any value the reverse half needs. Not
  // in an iteration built again for its reverse, whose first run is
  // checked as a whole: verifyIteration.)
  return D.options().Verify && !RecomputeRoot;
}

Expr *PullbackBuilder::verifyRecord(const Expr *K, Expr *Read) {
  if (!Read || !D.options().Verify || K->HasSideEffects(Ctx))
    return Read;
  Read = verifyMix(K, Read);
  if (!verifying())
    return Read;
  return verifyKeep(K, Read);
}

Expr *PullbackBuilder::verifyMixRead(const Expr *K, Expr *Read) {
  if (!Read || !D.options().Verify || K->HasSideEffects(Ctx))
    return Read;
  return verifyMix(K, Read);
}

Expr *PullbackBuilder::verifyMix(const Expr *K, Expr *Read) {
  // Inside an iteration that may be run again for its reverse (both
  // builds): what it reads of memory its caller gave it goes into the
  // iteration's hash.
  QualType T = Read->getType().getNonReferenceType().getUnqualifiedType();
  if (IterationHashes.empty() || !T->isScalarType() || T->isPointerType())
    return Read;
  bool IsThis = false;
  const VarDecl *VD = pathRoot(K, IsThis);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(K->IgnoreParenImpCasts()))
    VD = dyn_cast<VarDecl>(DRE->getDecl());
  if (const VarDecl *R = VD ? Act.storageOf(VD) : nullptr)
    VD = R;
  if (IsThis || !VD || (!isa<ParmVarDecl>(VD) && VD->isLocalVarDeclOrParm()))
    return Read;
  VarDecl *Tmp = hoist("_v", T);
  Cur->push_back(B.assign(B.ref(Tmp), Read));
  // (Into the hash of each loop around that may be run again: at most one
  // of them is.)
  for (VarDecl *H : IterationHashes)
    if (Expr *Mix = B.callRuntime("verify_mix", {}, {B.ref(H), B.ref(Tmp)}))
      Cur->push_back(B.assign(B.ref(H), Mix));
  return B.ref(Tmp);
}

VarDecl *PullbackBuilder::verifyIterationStart(const ForStmt *Recomputable,
                                               const VarDecl *Index,
                                               LoopInfo *LI, Stmts &BodyFwd) {
  // (Only a loop whose iterations pass the check: they read the memory
  // they were given as values only, so that any read of it can be
  // replaced by a temporary.)
  std::string Why;
  unsigned Ops = 0;
  if (!Recomputable || !D.options().Verify || LI->Flag ||
      Half != SplitHalf::None || RecomputeRoot ||
      !iterationRecomputable(Recomputable, Index, Why, Ops))
    return nullptr;
  QualType T = Ctx.UnsignedLongLongTy;
  VarDecl *Hash = hoist("_vh", T);
  BodyFwd.push_back(B.assign(B.ref(Hash), B.intLit(0, T)));
  IterationHashes.push_back(Hash);
  return Hash;
}

void PullbackBuilder::verifyIteration(const ForStmt *L, VarDecl *Hash,
                                      Stmts &BodyFwd, Stmts &Again) {
  // The first run pushes its hash (after the recorded values were taken
  // out of it); the run again for the reverse pops it, computes its own
  // and compares.
  VarDecl *Then = hoist("_vh", Hash->getType());
  Stmt *Pop = pop(Then);
  Expr *Check = B.callRuntime(
      "verify_iteration", {},
      {B.ref(Hash), B.ref(Then),
       B.str(checkSite(L->getBeginLoc(), "an iteration of the loop"))});
  if (!Pop || !Check)
    return;
  BodyFwd.push_back(push(Hash));
  Again.insert(Again.begin(),
               {Pop, B.assign(B.ref(Hash), B.intLit(0, Hash->getType()))});
  Again.push_back(Check);
}

Expr *PullbackBuilder::verifyKeep(const Expr *K, Expr *Read) {
  QualType T = Read->getType().getNonReferenceType().getUnqualifiedType();
  if (!T->isScalarType() || T->isPointerType())
    return Read;
  VarDecl *Tmp = hoist("_v", T);
  Cur->push_back(B.assign(B.ref(Tmp), Read));
  if (!Loops.empty() && !Frames.empty())
    Frames.back().Recorded.push_back(Tmp);
  VerifyValues[K] = Tmp;
  VerifyTemps.insert(Tmp);
  return B.ref(Tmp);
}

Expr *PullbackBuilder::verifyReread(const Expr *K, Expr *Now) {
  if (!Now || !verifying())
    return Now;
  auto It = VerifyValues.find(K);
  if (It == VerifyValues.end())
    return Now;
  return B.callRuntime(
      "verify_reread", {},
      {Now, B.ref(It->second),
       B.str(checkSite(K->getExprLoc(), "'" + spelled(K) + "'"))});
}

bool PullbackBuilder::verifiesCall(const FunctionDecl *FD) const {
  // A free function returning a number, reading memory through a pointer
  // or reference parameter, and writing nothing but its own locals: run
  // again where its pullback runs, it gives the value it gave at the call
  // unless that memory changed in between.
  if (!verifying() || isa<CXXMethodDecl>(FD) ||
      !FD->getReturnType()->isArithmeticType() || !writesNothing(FD))
    return false;
  for (const ParmVarDecl *P : FD->parameters())
    if (P->getType()->isPointerType() || P->getType()->isReferenceType())
      return true;
  return false;
}

Expr *PullbackBuilder::verifyCallValue(const CallExpr *CE,
                                       const FunctionDecl *FD, Expr *Call) {
  return Call && verifiesCall(FD) ? verifyKeep(CE, Call) : Call;
}

void PullbackBuilder::verifyRecall(const CallExpr *CE, const CallPlan &P,
                                   Stmts &Out) {
  const FunctionDecl *FD = CE->getDirectCallee();
  // (Kept by verifyCallValue, or recorded for the reverse sweep.)
  VarDecl *Kept = VerifyValues.lookup(CE);
  if (!Kept)
    Kept = Values.lookup(CE);
  if (!FD || !Kept || !verifiesCall(FD))
    return;
  SmallVector<Expr *, 6> Args;
  if (!userCallValues(CE, FD, P, Args))
    return;
  Expr *Again = B.call(B.funcRef(const_cast<FunctionDecl *>(FD)), Args);
  if (Expr *C = B.callRuntime(
          "verify_recall", {},
          {Again, B.ref(Kept),
           B.str(checkSite(CE->getExprLoc(),
                           "the call '" + spelled(CE) + "'"))}))
    Out.push_back(C);
}

namespace {
/// The memory a pointer or reference parameter designates, by type: `T`
/// for `T *`, `T &` (null for any other parameter).
QualType designated(QualType T) {
  if (T->isPointerType())
    return T->getPointeeType();
  if (T->isReferenceType())
    return T.getNonReferenceType();
  return QualType();
}
} // namespace

void PullbackBuilder::entryChecks(Stmts &Out) {
  if (Half == SplitHalf::Reverse)
    return;
  // Always, for any caller (a generated one may pass elements whose
  // indices are equal only at run time, `upd(v[i], v[j])`): two references
  // to one number, one of them not const, are not the same.
  distinctChecks(Out, /*ScalarRefs=*/true);
  // Only for the pullbacks users call: the callers the plugin generates
  // prove what else they pass (or refuse the call).
  if (Half != SplitHalf::None || Entry.Requester)
    return;
  shapeChecks(Out);
  if (D.options().Verify)
    distinctChecks(Out, /*ScalarRefs=*/false);
}

void PullbackBuilder::shapeChecks(Stmts &Out) {
  for (unsigned I = 0; I < Primal->getNumParams(); ++I) {
    const ParmVarDecl *P = Primal->getParamDecl(I);
    int Idx = I < Sig.AdjointIndex.size() ? Sig.AdjointIndex[I] : -1;
    QualType VT = P->getType().getNonReferenceType();
    // A container the function cannot resize (by value or const): its
    // adjoint has its shape.
    if (Idx >= 0 && classifyParam(Ctx, P->getType()).Kind == ParamKind::Class &&
        (!P->getType()->isReferenceType() || VT.isConstQualified()) &&
        isStdClass(VT, "vector") &&
        param(Idx)->getType()->isPointerType())
      if (Expr *C = B.callRuntime(
              "check_shape", {},
              {B.deref(B.ref(param(Idx))), B.ref(param(I)),
               B.str(checkSite(P->getLocation(), "the adjoint of '" +
                                                     P->getNameAsString() +
                                                     "'"))}))
        Out.push_back(C);
  }
}

void PullbackBuilder::distinctChecks(Stmts &Out, bool ScalarRefs) {
  // (std::swap's derivative, an exchange of adjoints, is right for one
  // element too: Calls.cpp sharedRefArgument.)
  if (Primal->isInStdNamespace() && Primal->getIdentifier() &&
      Primal->getName() == "swap")
    return;
  auto Written = [&](const ParmVarDecl *P) {
    return Act.isDataWritten(P) ||
           (P->getType()->isReferenceType() && Act.isWritten(P));
  };
  auto Address = [&](unsigned I) -> Expr * {
    ParmVarDecl *NP = param(I);
    if (NP->getType()->isPointerType())
      return B.ref(NP);
    return B.addrOf(B.ref(NP));
  };
  unsigned N = Primal->getNumParams();
  for (unsigned I = 0; I < N; ++I) {
    const ParmVarDecl *P = Primal->getParamDecl(I);
    QualType TP = designated(P->getType());
    if (TP.isNull() || !hasFloatingData(TP))
      continue;
    for (unsigned J = I + 1; J < N; ++J) {
      const ParmVarDecl *Q = Primal->getParamDecl(J);
      QualType TQ = designated(Q->getType());
      if (TQ.isNull() || !Ctx.hasSameUnqualifiedType(TP, TQ))
        continue;
      // (Two references to one number, one not const: whether or not they
      // are written, the adjoint of a non-const one is stored back at the
      // end, so that the other's would be lost; the same memory exactly
      // when they start at the same address.)
      bool Scalar = distinctScalarRefs(Ctx, P->getType(), Q->getType());
      if (Scalar != ScalarRefs || (!Scalar && !Written(P) && !Written(Q)))
        continue;
      Expr *C = B.callRuntime(
          Scalar ? "check_distinct" : "verify_distinct", {},
          {Address(I), Address(J),
           B.str(checkSite(Q->getLocation(),
                           "parameters '" + P->getNameAsString() + "' and '" +
                               Q->getNameAsString() + "'"))});
      if (C)
        Out.push_back(C);
    }
  }
}

VarDecl *PullbackBuilder::verifyTape(VarDecl *Stack) {
  Expr *Init = B.callRuntime(
      "make_verify_tape", {},
      {B.ref(Stack), B.str(checkSite(Primal->getLocation(), "the tape"))});
  if (!Init)
    return nullptr;
  return B.var(PB, fresh("_verify_"), Init->getType(), Init);
}

} // namespace grad
