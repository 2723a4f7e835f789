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
  // (Not in the halves of a split derivative, whose reverse half runs in
  // another function, nor in an iteration built again for its reverse.)
  return D.options().Verify && Half == SplitHalf::None && !RecomputeRoot;
}

Expr *PullbackBuilder::verifyRecord(const Expr *K, Expr *Read) {
  if (!Read || !verifying() || K->HasSideEffects(Ctx))
    return Read;
  QualType T = Read->getType().getNonReferenceType().getUnqualifiedType();
  if (!T->isScalarType() || T->isPointerType())
    return Read;
  VarDecl *Tmp = hoist("_v", T);
  Cur->push_back(B.assign(B.ref(Tmp), Read));
  if (!Loops.empty() && !Frames.empty())
    Frames.back().Recorded.push_back(Tmp);
  VerifyValues[K] = Tmp;
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
  // Only for the pullbacks users call: the callers the plugin generates
  // prove what they pass (or refuse the call).
  if (Half != SplitHalf::None || Entry.Requester)
    return;
  unsigned N = Primal->getNumParams();
  for (unsigned I = 0; I < N; ++I) {
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
  if (!D.options().Verify)
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
  for (unsigned I = 0; I < N; ++I) {
    const ParmVarDecl *P = Primal->getParamDecl(I);
    QualType TP = designated(P->getType());
    if (TP.isNull() || !hasFloatingData(TP))
      continue;
    for (unsigned J = I + 1; J < N; ++J) {
      const ParmVarDecl *Q = Primal->getParamDecl(J);
      QualType TQ = designated(Q->getType());
      if (TQ.isNull() || (!Written(P) && !Written(Q)) ||
          !Ctx.hasSameUnqualifiedType(TP, TQ))
        continue;
      Expr *C = B.callRuntime(
          "verify_distinct", {},
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
