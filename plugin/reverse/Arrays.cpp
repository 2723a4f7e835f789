//===- Arrays.cpp - Access paths: elements, members, pointers ---*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Access paths (Paths.h) in the pullback: `p[i]`, `*p`, `(p + k)[i]`,
/// `v[i]`, `s.m`, `p->m`, `std::get<I>(t)`, through parameters, locals and
/// local pointers and references. The forward sweep rebuilds them, recording
/// the indices the reverse sweep needs; the reverse sweep re-reads storage
/// the function never writes, and reaches adjoints through the shadow
/// mapping (Shadow.cpp), whose roots are supplied here: adjoint parameters,
/// adjoint locals, and for a local pointer or reference the shadow of the
/// storage it points into plus the offset it had (Aliases.cpp).
///
//===----------------------------------------------------------------------===//

#include "ast/Diagnostics.h"
#include "reverse/PullbackBuilder.h"
#include "ast/Records.h"
#include "analysis/Selectors.h"
#include "reverse/Shadow.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Sema/Sema.h"

#include <functional>

using namespace clang;

namespace grad {

static const Expr *stripAll(const Expr *E) {
  return E ? E->IgnoreParenImpCasts() : nullptr;
}

static const VarDecl *declOf(const Expr *E) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(stripAll(E));
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

bool PullbackBuilder::isElementAccess(const Expr *E) const {
  const Expr *K = stripAll(E);
  // A local reference is an access of what it binds to.
  if (const VarDecl *VD = declOf(K))
    if (Act.isAlias(VD) && VD->getType()->isReferenceType())
      return true;
  bool IsThis = false;
  return pathRoot(K, IsThis, /*Strict=*/true) || IsThis;
}

const VarDecl *PullbackBuilder::indexedVar(const Expr *E) const {
  if (const VarDecl *VD = declOf(E))
    return VD;
  bool IsThis = false;
  return pathRoot(E, IsThis, /*Strict=*/true);
}

bool PullbackBuilder::inScopeInReverse(const VarDecl *VD) const {
  return isa<ParmVarDecl>(VD) || !VD->isLocalVarDeclOrParm() ||
         TopLevelLocals.count(VD);
}

bool PullbackBuilder::readOnly(const Expr *E, bool AtRead) const {
  bool IsThis = false;
  const VarDecl *VD = pathRoot(E, IsThis);
  if (const VarDecl *D = declOf(E))
    VD = D;
  // The halves of a split derivative re-read nothing (the reverse half
  // runs after the caller may have changed any memory) but the memory
  // behind parameters their callers keep unchanged (Entry.Stable).
  if (Half != SplitHalf::None) {
    const auto *P = dyn_cast_or_null<ParmVarDecl>(VD);
    unsigned I = P ? P->getFunctionScopeIndex() : 0;
    return !IsThis && P && I < Entry.Stable.size() && Entry.Stable[I] &&
           !Act.isWritten(P) && !Act.isDataWritten(P);
  }
  if (IsThis)
    return !Act.ThisWritten;
  // A local array or container whose data no write changes after this
  // read (Qdiags filled before the loops that read it) is read again too.
  // (Its own storage: an array or a container, not memory behind a
  // pointer, which may be freed before the reverse sweep.)
  bool Unchanged =
      AtRead && VD && VD->isLocalVarDecl() && VD->hasLocalStorage() &&
      (VD->getType()->isArrayType() || isStdClass(VD->getType(), "vector") ||
       isStdClass(VD->getType(), "array")) &&
      (Act.unchangedAfter(VD, stripAll(E)) ||
       // In an iteration run again just before its reverse: no write
       // of that iteration after this read.
       (RecomputeRoot &&
        (VD->getType()->isArrayType() ||
         isStdClass(VD->getType(), "vector")) &&
        Act.unchangedWithin(VD, stripAll(E), RecomputeRoot)));
  // (An alias declared in a block, out of scope in the reverse sweep: its
  // storage's base plus the offset recorded at its declaration, see
  // aliasValue.)
  if (!VD || (Act.isDataWritten(VD) && !Unchanged) || Act.isWritten(VD) ||
      (!inScopeInReverse(VD) && !(AtRead && AliasOffsets.count(VD))))
    return false;
  if (Unchanged)
    return true;
  // Through an alias: the storage must be unchanged and in scope too
  // (heap memory may be freed before the reverse sweep).
  const VarDecl *R = Act.storageOf(VD);
  return R && !Act.isOwner(R) && !Act.isDataWritten(R) &&
         !Act.isWritten(R) && inScopeInReverse(R);
}

//===----------------------------------------------------------------------===//
// The forward sweep
//===----------------------------------------------------------------------===//

Expr *PullbackBuilder::rebuildBase(const Expr *Base, bool NeedIdx) {
  const Expr *K = stripAll(Base);
  if (const auto *TE = dyn_cast<CXXThisExpr>(K))
    return S.BuildCXXThisExpr(B.Loc, TE->getType(), /*IsImplicit=*/false);
  if (const VarDecl *VD = declOf(K)) {
    if (!VD->isLocalVarDeclOrParm())
      return B.ref(const_cast<VarDecl *>(VD)); // a global table
    if (!mapVar(VD))
      return unsupported(K, "access to '" + VD->getNameAsString() + "'");
    // The reverse sweep finds this alias's shadow from its offset now.
    if (NeedIdx && tracksOffset(VD))
      noteAliasUse(cast<DeclRefExpr>(K));
    return B.ref(mapVar(VD));
  }
  if (isElementAccess(K))
    return rebuildPathImpl(K, false, true, NeedIdx);
  if (const auto *UO = dyn_cast<UnaryOperator>(K);
      UO && UO->isIncrementDecrementOp()) {
    // *p++, *++p: the offset the pointer has where it is dereferenced.
    // The offset is recorded inside the expression, next to the increment
    // (`*(++p, _o = p - b, p)`, `*(_o = p - b, p++)`): before the statement
    // would be too early for `++p`.
    const Expr *Sub = UO->getSubExpr();
    if (!declOf(stripAll(Sub))) {
      Expr *V = rebuild(UO, false, true);
      rebuildBase(Sub, NeedIdx);
      return V;
    }
    Stmts Recs;
    Stmts *Saved = Cur;
    Cur = &Recs;
    Expr *V = nullptr;
    if (UO->isPostfix())
      rebuildBase(Sub, NeedIdx);
    Cur = Saved;
    V = rebuild(UO, false, true);
    Cur = &Recs;
    Expr *After = nullptr;
    if (UO->isPrefix())
      After = rebuildBase(Sub, NeedIdx);
    Cur = Saved;
    if (!V || Recs.empty())
      return V;
    Expr *Out = UO->isPrefix() ? V : nullptr;
    for (Stmt *R : Recs)
      Out = Out ? B.binop(BO_Comma, Out, cast<Expr>(R)) : cast<Expr>(R);
    Out = B.binop(BO_Comma, Out, UO->isPrefix() ? After : V);
    return B.paren(Out);
  }
  bool Negate = false;
  if (const Expr *Off = pointerOffset(K, Negate))
    return B.binop(Negate ? BO_Sub : BO_Add,
                   rebuildBase(pointerBase(K), NeedIdx),
                   rebuild(Off, NeedIdx, true));
  if (const auto *UO = dyn_cast<UnaryOperator>(K))
    if (UO->getOpcode() == UO_AddrOf)
      return B.addrOf(rebuildBase(UO->getSubExpr(), NeedIdx));
  if (const Expr *Obj = pointerBase(K))
    if (isa<CXXMemberCallExpr>(K))
      return B.memberCall(rebuildBase(Obj, NeedIdx), "data", {});
  if (const Expr *A = resultArg(K))
    return pointerResult(cast<CallExpr>(K), A, NeedIdx);
  return rebuild(K, false, true);
}

/// True if the pointer expression \p E may be evaluated once more: no side
/// effects, and no calls but a standard container's accessors (`v.data()`,
/// `v.size()`, `v[k]`).
static bool evaluableAgain(const Expr *E, const ASTContext &Ctx) {
  if (E->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false))
    return false;
  std::function<bool(const Stmt *)> Plain = [&](const Stmt *S) {
    if (!S)
      return true;
    if (const auto *CE = dyn_cast<CallExpr>(S)) {
      const auto *MD = dyn_cast_or_null<CXXMethodDecl>(CE->getDirectCallee());
      if (!MD || !isStdAccessor(MD))
        return false;
    }
    return llvm::all_of(S->children(), Plain);
  };
  return Plain(E);
}

Expr *PullbackBuilder::pointerResult(const CallExpr *CE, const Expr *Arg,
                                     bool NeedIdx) {
  const Expr *K = stripAll(CE);
  // Called once: the forward sweep may read the result again (the value of
  // `*argmax(a, n) *= 2`).
  if (auto It = ResultPointers.find(K); It != ResultPointers.end())
    return B.ref(It->second);
  if (!NeedIdx && NoHoist) {
    // The call as written (not rebuild(): the call is an element access,
    // which comes back here). A reference result: its address.
    Expr *P = rebuildCall(CE, false, true);
    return P && !CE->getType()->isPointerType() ? B.addrOf(P) : P;
  }
  // The reverse sweep finds the result's shadow at the same offset into
  // the argument's shadow: the argument is evaluated once more for it.
  if (NeedIdx && !evaluableAgain(Arg, Ctx))
    return unsupported(Arg, "argument '" + spelled(Arg) +
                                "' of a pointer result that is dereferenced: "
                                "it cannot be evaluated again (it has side "
                                "effects or calls a function; bind the "
                                "result to a local pointer first)");
  // (The call itself, as written: a reference result is an element. In a
  // branch of ?:, Cur is the branch's statements: the address and offset
  // are found where the branch is taken.)
  Expr *P = rebuildCall(CE, false, true);
  if (!P)
    return nullptr;
  // A reference result: its address.
  QualType PT = CE->getType().getUnqualifiedType();
  if (!PT->isPointerType()) {
    P = B.addrOf(P);
    PT = Ctx.getPointerType(CE->getType());
  }
  VarDecl *T;
  if (auto *DRE = dyn_cast<DeclRefExpr>(P->IgnoreParenImpCasts());
      DRE && isa<VarDecl>(DRE->getDecl()))
    T = cast<VarDecl>(DRE->getDecl()); // the temporary the call is bound to
  else {
    T = hoist("_p", PT);
    Cur->push_back(B.assign(B.ref(T), P));
  }
  ResultPointers[K] = T;
  if (!NeedIdx)
    return B.ref(T);
  Expr *Base = elementsOf(B, Arg, rebuildBase(Arg, true),
                          PT->getPointeeType(), /*Const=*/true);
  if (!Base)
    return nullptr;
  VarDecl *O = hoist("_o", Ctx.getPointerDiffType());
  Cur->push_back(B.assign(B.ref(O), B.binop(BO_Sub, B.ref(T), Base)));
  ResultOffsets[K] = O;
  if (!Loops.empty() && !Frames.empty())
    Frames.back().Recorded.push_back(O);
  return B.ref(T);
}

Expr *PullbackBuilder::rebuildPathImpl(const Expr *E, bool Need, bool Plain,
                                       bool NeedIdx) {
  const Expr *K = stripAll(E);
  Expr *R;
  if (declOf(K)) { // a local reference
    R = rebuildBase(K, NeedIdx);
  } else if (const Expr *A = refResultArg(K)) {
    // `elem(A, n, i, j)`: through the address it returns.
    R = pointerResult(cast<CallExpr>(K), A, NeedIdx);
    if (!R)
      return nullptr;
    R = B.paren(B.deref(R));
  } else
    R = buildStep(B, rebuildBase(pathBase(K), NeedIdx), K,
                  [&](const Expr *I) { return rebuild(I, NeedIdx, true); });
  if (Need && !readOnly(K, true))
    return record(K, R);
  // (Read in an iteration that may be run again: hashed, needed or not.)
  return Need ? verifyRecord(K, R) : verifyMixRead(K, R);
}

Expr *PullbackBuilder::rebuildElement(const Expr *E, bool Need, bool Plain) {
  const Expr *K = stripAll(E);
  bool ElemActive = !Plain && Act.isActive(K);
  // The reverse sweep indexes the adjoint with the same indices, and
  // re-reads read-only storage.
  bool NeedIdx = ElemActive || (Need && readOnly(K, true));
  return rebuildPathImpl(K, Need, Plain, NeedIdx);
}

//===----------------------------------------------------------------------===//
// The reverse sweep
//===----------------------------------------------------------------------===//

Expr *PullbackBuilder::valBase(const Expr *BaseE) {
  const Expr *K = stripAll(BaseE);
  if (const auto *TE = dyn_cast<CXXThisExpr>(K))
    return S.BuildCXXThisExpr(B.Loc, TE->getType(), /*IsImplicit=*/false);
  if (const VarDecl *VD = declOf(K)) {
    if (Expr *A = aliasValue(VD))
      return A;
    return plain(K);
  }
  if (isElementAccess(K))
    return valPath(K);
  bool Negate = false;
  if (const Expr *Off = pointerOffset(K, Negate))
    return B.binop(Negate ? BO_Sub : BO_Add, valBase(pointerBase(K)),
                   val(Off));
  if (const auto *UO = dyn_cast<UnaryOperator>(K))
    if (UO->getOpcode() == UO_AddrOf)
      return B.addrOf(valBase(UO->getSubExpr()));
  if (const Expr *Obj = pointerBase(K))
    if (isa<CXXMemberCallExpr>(K))
      return B.memberCall(valBase(Obj), "data", {});
  // A helper's pointer result: never called again in the reverse sweep.
  if (const Expr *A = resultArg(K)) {
    Expr *Off = resultOffset(K);
    Expr *Base = elementsOf(B, A, valBase(A), K->getType()->getPointeeType(),
                            /*Const=*/true);
    return Off && Base ? B.binop(BO_Add, Base, Off) : nullptr;
  }
  return plain(K);
}

Expr *PullbackBuilder::valPath(const Expr *E) {
  const Expr *K = stripAll(E);
  if (const VarDecl *VD = declOf(K)) {
    if (Expr *A = aliasValue(VD))
      return A;
    return plain(K);
  }
  if (const Expr *A = refResultArg(K)) {
    Expr *Off = resultOffset(K);
    if (!Off)
      return nullptr;
    Expr *Base = elementsOf(B, A, valBase(A), K->getType(), /*Const=*/true);
    if (!Base)
      return nullptr;
    return B.paren(B.deref(B.binop(BO_Add, Base, Off)));
  }
  return buildStep(B, valBase(pathBase(K)), K,
                   [&](const Expr *I) { return val(I); });
}

Expr *PullbackBuilder::adjointStorage(const VarDecl *VD) {
  if (const auto *P = dyn_cast<ParmVarDecl>(VD)) {
    unsigned I = P->getFunctionScopeIndex();
    if (I < Sig.AdjointIndex.size() && Sig.AdjointIndex[I] >= 0 &&
        ownParam(P)) {
      ParmVarDecl *DP = param(Sig.AdjointIndex[I]);
      ParamKind K = classifyParam(Ctx, P->getType()).Kind;
      // The caller's *d_x is the adjoint of a scalar's initial value only:
      // an overwritten one (x = layer(x)) or an in/out one accumulates
      // locally and is stored once at the end.
      if (K == ParamKind::Scalar ||
          K == ParamKind::ScalarRef)
        return B.ref(adjointOf(VD));
      if (K == ParamKind::Pointer)
        return B.ref(DP);
      // A by-value container written in the body: the caller's adjoint
      // is the adjoint of its entry value only.
      if (K == ParamKind::Class && !P->getType()->isReferenceType() &&
          Act.isDataWritten(P))
        return localParamShadow(P);
      return B.paren(B.deref(B.ref(DP)));
    }
    if (ownParam(P) &&
        classifyParam(Ctx, P->getType()).Kind == ParamKind::Class)
      return localParamShadow(P);
    if (ownParam(P) &&
        classifyParam(Ctx, P->getType()).Kind == ParamKind::Pointer)
      // Memory of unknown extent without an adjoint from the caller.
      return unsupported(
          P, "pointer parameter '" + P->getNameAsString() +
                 "', which receives differentiated values but is not in "
                 "the wrt list (add it: its adjoint carries the seed of "
                 "what is written there)");
  }
  return B.ref(adjointOf(VD));
}

Expr *PullbackBuilder::localParamShadow(const ParmVarDecl *P) {
  auto Known = Adjoints.find(P);
  if (Known != Adjoints.end())
    return B.ref(Known->second);
  QualType T = P->getType().getNonReferenceType();
  StringRef RecName = containerName(T);
  // Objects keeping their elements in a container member: a copy of the
  // entry value with its floating data zeroed (the sizes stay).
  bool Owner = shadowIsCopy(T);
  bool Sized = RecName == "vector" || RecName == "tensor" || Owner;
  // In the halves of a split derivative the entry value is the forward
  // half's: the shadow is made there and reaches the reverse half through
  // the frame (a vector's size, an owner's saved copy).
  bool Split = Half != SplitHalf::None;
  if (Split && RecName == "tensor")
    return unsupported(P, "parameter '" + P->getNameAsString() + "' of type '" +
                              T.getAsString() +
                              "' passed by value and written in a helper "
                              "whose arguments change before the reverse "
                              "sweep (take it by const reference and copy "
                              "its elements into a local std::vector)");
  bool HasAdjoint = Sig.AdjointIndex[P->getFunctionScopeIndex()] >= 0;
  if (!Sized && RecName != "array" && !isPlainRecord(T) && HasAdjoint)
    return unsupported(P, "parameter '" + P->getNameAsString() +
                              "' of type '" + T.getAsString() +
                              "' passed by value and written in the body");
  Expr *Entry = B.ref(param(P->getFunctionScopeIndex()));
  if (Owner) {
    QualType VT = T.getUnqualifiedType();
    std::string Name = "_d_" + localName(P).str();
    VarDecl *A;
    if (Split) {
      VarDecl *Slot;
      std::tie(Slot, A) = shadowSlot(Name, VT);
      if (!Slot)
        return nullptr;
      copyShadow(Slot, Entry, VT, [&]() -> Expr * { return B.ref(A); },
                 FwdStart);
      VarDecl *Made = hoist("_made", Ctx.getSizeType());
      FwdStart.push_back(
          B.assign(B.ref(Made), B.intLit(1, Ctx.getSizeType())));
      SplitOwners.push_back({Slot, Made});
    } else {
      A = B.var(PB, fresh(Name + "_"), VT, Entry);
      Prologue.push_back(B.declStmt(A));
      zeroFloatingData(B, VT, [&]() -> Expr * { return B.ref(A); },
                       Prologue);
    }
    Adjoints[P] = A;
    if (HasAdjoint)
      LocalParamShadows.push_back({P, A});
    return B.ref(A);
  }
  VarDecl *A = adjointOf(P);
  // Shaped like the entry value (the prologue runs before the body).
  if (RecName == "vector" || RecName == "tensor")
    (Split ? FwdStart : Prologue)
        .push_back(zeroShapedLike(
            B.ref(A), B.ref(param(P->getFunctionScopeIndex())), T));
  if (HasAdjoint)
    LocalParamShadows.push_back({P, A});
  return B.ref(A);
}

Expr *PullbackBuilder::adjointElement(const Expr *E) {
  return shadowLValue(*this, B, E);
}

Expr *PullbackBuilder::indexValue(const Expr *E) { return val(E); }

Expr *PullbackBuilder::rootShadow(const DeclRefExpr *Ref) {
  const auto *VD = dyn_cast<VarDecl>(Ref->getDecl());
  if (!VD)
    return unsupported(Ref, constructName(Ref));
  if (tracksOffset(VD))
    return aliasShadow(Ref);
  if (!Act.isActive(VD))
    return unsupported(Ref, "'" + VD->getNameAsString() +
                                "', which has no adjoint");
  return adjointStorage(VD);
}

Expr *PullbackBuilder::thisShadow(const Expr *Use) {
  if (Sig.ThisIndex < 0)
    return unsupported(Use, "member access without an adjoint for 'this'");
  return B.ref(param(Sig.ThisIndex)); // a pointer, like this
}

Expr *PullbackBuilder::resultOffset(const Expr *Call) {
  auto It = ResultOffsets.find(stripAll(Call));
  if (It == ResultOffsets.end())
    return noShadow(Call, "pointer");
  return B.ref(It->second);
}

std::nullptr_t PullbackBuilder::noShadow(const Stmt *St, StringRef What) {
  return unsupported(St, (What + " " + spelled(cast<Expr>(St)) +
                          ", whose memory the plugin cannot track")
                             .str());
}

} // namespace grad
