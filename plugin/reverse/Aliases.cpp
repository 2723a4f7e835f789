//===- Aliases.cpp - Local pointers and references --------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Local pointers and references (aliases) in the pullback: the storage
/// each points into (Activity: its root, maybe a container member of it,
/// or several roots chosen at run time), the offset it has there (recorded
/// once at the declaration when it is never re-seated, else at each use the
/// reverse sweep needs), its shadow (the root's shadow plus that offset) and,
/// in the reverse sweep, its value where the reverse sweep cannot name it
/// (the root plus the offset). Heap scratch (`new[]`, `malloc`) is the root
/// of its own memory.
///
//===----------------------------------------------------------------------===//

#include "ast/Diagnostics.h"
#include "reverse/PullbackBuilder.h"
#include "ast/Records.h"
#include "analysis/Selectors.h"
#include "reverse/Shadow.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Sema/Sema.h"

#include <functional>

using namespace clang;

namespace grad {

//===----------------------------------------------------------------------===//
// Aliases: local pointers and references
//===----------------------------------------------------------------------===//

/// The pointer an alias variable holds: itself, or the address of what a
/// reference binds to.
/// The error for a pointer or reference whose target is unknown.
static std::string untracked(const VarDecl *VD) {
  bool Ref = VD->getType()->isReferenceType();
  std::string Msg = (Ref ? "reference '" : "pointer '") +
                    VD->getNameAsString() +
                    "' whose target the plugin cannot track";
  const Expr *I = VD->getInit() ? VD->getInit()->IgnoreImplicitAsWritten()
                                : nullptr;
  if (const auto *CE = dyn_cast_or_null<CallExpr>(I))
    if (const FunctionDecl *FD = CE->getDirectCallee(); FD && Ref)
      Msg += " (it is bound to what '" + nameOf(FD) +
             "' returns: take the value, '" +
             VD->getType().getNonReferenceType().getUnqualifiedType()
                 .getAsString() +
             " " + VD->getNameAsString() + " = ...')";
  return Msg;
}

static QualType aliasPointee(const VarDecl *VD) {
  QualType T = VD->getType();
  return T->isReferenceType() ? T.getNonReferenceType()
                              : T->getPointeeType();
}

//
//===----------------------------------------------------------------------===//

/// The storage a root variable provides to aliases: its first element (or
/// the object), on the primal side (\p Shadow false) or the shadow side.
Expr *PullbackBuilder::aliasBase(const VarDecl *R, QualType Pointee,
                                 bool Shadow, bool &Elements,
                                 ArrayRef<const FieldDecl *> Path) {
  QualType RT = R->getType().getNonReferenceType();
  // (A scalar parameter's local adjoint, not the caller's *d_x: a
  // Hessian-vector product only writes that.)
  bool ScalarParam = isa<ParmVarDecl>(R) && isFloating(R->getType()) &&
                     !R->getType()->isReferenceType();
  Expr *Obj = !Shadow       ? B.ref(mapVar(R))
              : ScalarParam ? B.ref(adjointOf(R))
                            : adjointStorage(R);
  if (!Path.empty()) {
    // Into a container member (`&m.data[k]`): offsets from its data().
    if (RT->isPointerType() && !Shadow)
      Obj = B.ref(entryPointer(R));
    for (const FieldDecl *F : Path) {
      Obj = B.member(Obj, F->getName(), RT->isPointerType() && F == Path[0]);
      if (!Obj)
        return nullptr;
    }
    Expr *Data = B.memberCall(Obj, "data", {});
    Elements = Data && Ctx.hasSameUnqualifiedType(
                           Data->getType()->getPointeeType(), Pointee);
    return Data;
  }
  if (RT->isPointerType()) {
    // A pointer parameter: the pointer it had on entry.
    if (!Shadow)
      Obj = B.ref(entryPointer(R));
    Elements = Ctx.hasSameUnqualifiedType(RT->getPointeeType(), Pointee);
    return Obj;
  }
  if (const auto *AT = Ctx.getAsArrayType(RT)) {
    Elements = Ctx.hasSameUnqualifiedType(AT->getElementType(), Pointee);
    return Obj; // decays
  }
  if (const auto *RD = RT->getAsCXXRecordDecl()) {
    if (Ctx.hasSameUnqualifiedType(RT, Pointee)) {
      Elements = true;
      return B.addrOf(Obj);
    }
    // Into the elements of a container (v.data(), &v[i]).
    if (llvm::is_contained({"vector", "array", "span"},
                           containerName(Ctx.getRecordType(RD)))) {
      Expr *Data = B.memberCall(Obj, "data", {});
      Elements = Data && Ctx.hasSameUnqualifiedType(
                             Data->getType()->getPointeeType(), Pointee);
      return Data;
    }
    Elements = false;
    return B.addrOf(Obj);
  }
  Elements = Ctx.hasSameUnqualifiedType(RT, Pointee);
  return B.addrOf(Obj);
}

Expr *PullbackBuilder::aliasOffset(const VarDecl *VD) {
  const VarDecl *R = Act.storageOf(VD);
  if (!R)
    return nullptr;
  QualType Pointee = aliasPointee(VD);
  bool Elements = false;
  Expr *Base = aliasBase(R, Pointee, /*Shadow=*/false, Elements,
                         Act.memberPathOf(VD));
  Expr *Ptr = B.ref(mapVar(VD));
  if (VD->getType()->isReferenceType())
    Ptr = B.addrOf(Ptr);
  if (Elements)
    return B.binop(BO_Sub, Ptr, Base);
  QualType CharP = Ctx.getPointerType(Ctx.CharTy.withConst());
  return B.binop(BO_Sub, B.reinterpretCast(CharP, Ptr),
                 B.reinterpretCast(CharP, Base));
}

void PullbackBuilder::declareAlias(const VarDecl *VD) {
  // Never re-seated: one offset serves every use. Inside a loop it is
  // recorded with the block that declares it (the frame around the
  // declaration's own), whose reverse starts by restoring it, before the
  // reverse of any use in the block; unless a jump out of the block came
  // before the declaration (it pushed the block's values without this one).
  const VarDecl *R = Act.storageOf(VD);
  if (Act.isWritten(VD) || !R || (Act.isOwner(R) && !StableOwners.count(R)) ||
      (!Loops.empty() &&
       (Frames.size() < 2 || Frames[Frames.size() - 2].JumpedOut)))
    return;
  Expr *Off = aliasOffset(VD);
  if (!Off)
    return;
  VarDecl *T = hoist("_o", Off->getType());
  Cur->push_back(B.assign(B.ref(T), Off));
  AliasOffsets[VD] = T;
  if (!Loops.empty())
    Frames[Frames.size() - 2].Recorded.push_back(T);
}

/// True if \p S names no variable but parameters.
static bool readsParamsOnly(const Stmt *S) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (!isa<ParmVarDecl>(DRE->getDecl()))
      return false;
  return llvm::all_of(S->children(),
                      [&](const Stmt *C) { return !C || readsParamsOnly(C); });
}

/// True if \p S stores a pointer into memory (`*pp = q`, `a[i]++` on an
/// array of pointers): a pointer variable assigned is not a store.
static bool storesPointer(const Stmt *S) {
  const Expr *L = nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
    L = BO->getLHS();
  else if (const auto *UO = dyn_cast<UnaryOperator>(S);
           UO && UO->isIncrementDecrementOp())
    L = UO->getSubExpr();
  if (L && L->getType()->isPointerType() &&
      !isa<DeclRefExpr>(L->IgnoreParenImpCasts()))
    return true;
  return llvm::any_of(S->children(),
                      [&](const Stmt *C) { return C && storesPointer(C); });
}

void PullbackBuilder::declareLoadedAlias(const VarDecl *VD) {
  if (Act.isWritten(VD) || !VD->getInit() ||
      !VD->getType()->isPointerType()) {
    unsupported(VD, "pointer '" + VD->getNameAsString() +
                        "' loaded from memory and assigned again (declare a "
                        "new pointer for each value)");
    return;
  }
  // Its shadow is loaded from the shadow memory, which the forward half of
  // a split derivative does not take: the reverse half loads it before its
  // reverse sweep, when the load reads parameters only (`*pp`, `pp[1] + 2`),
  // outside loops, and the function stores no pointer into memory.
  bool Split = Half != SplitHalf::None;
  if (Split) {
    if (!Loops.empty() || !readsParamsOnly(VD->getInit()) ||
        storesPointer(Primal->getBody())) {
      unsupported(VD, "pointer '" + VD->getNameAsString() +
                          "' loaded from memory in a function differentiated "
                          "in two halves (it writes memory its caller reads "
                          "later), in a loop or through a local index: pass "
                          "the pointer itself, '" +
                          VD->getType().getAsString(Ctx.getPrintingPolicy()) +
                          VD->getNameAsString() + "' as a parameter");
      return;
    }
  }
  // The shadow pointer now, in the forward sweep: indices take their
  // values here, not the reverse sweep's.
  struct ForwardRoots : ShadowRoots {
    PullbackBuilder &P;
    explicit ForwardRoots(PullbackBuilder &P) : P(P) {}
    Expr *indexValue(const Expr *E) override { return P.plain(E); }
    Expr *rootShadow(const DeclRefExpr *R) override { return P.rootShadow(R); }
    Expr *thisShadow(const Expr *U) override { return P.thisShadow(U); }
    Expr *resultOffset(const Expr *C) override { return P.resultOffset(C); }
    std::nullptr_t noShadow(const Stmt *S, StringRef W) override {
      return P.noShadow(S, W);
    }
  } FR(*this);
  Expr *Sh = shadowPointer(FR, B, VD->getInit());
  if (!Sh)
    return;
  // (The shadow of memory the function writes: not const.)
  QualType PT = Ctx.getPointerType(
      VD->getType()->getPointeeType().getUnqualifiedType());
  if (!Ctx.hasSameType(Sh->getType(), PT))
    Sh = B.constCast(PT, Sh);
  if (Split) {
    // (In the prologue: the reverse half runs it first; the forward half
    // keeps only what its forward sweep names.)
    VarDecl *T = B.var(PB, fresh("_d_" + VD->getNameAsString() + "_"), PT, Sh);
    Prologue.push_back(B.declStmt(T));
    LoadedShadows[VD] = T;
    return;
  }
  VarDecl *T = hoist("_d_" + VD->getNameAsString() + "_", PT);
  Cur->push_back(B.assign(B.ref(T), Sh));
  // Inside a loop: with the block that declares it (see declareAlias).
  if (!Loops.empty() && Frames.size() >= 2)
    Frames[Frames.size() - 2].Recorded.push_back(T);
  LoadedShadows[VD] = T;
}

void PullbackBuilder::noteAliasDef(const VarDecl *VD, const Expr *RHS,
                                   Stmts &Out) {
  if (Act.isActive(VD) && !aliasIntoObjectBytes(VD, RHS))
    return;
  ArrayRef<const VarDecl *> Rs = Act.rootsOf(VD);
  if (Rs.empty() || !RHS || !Act.isActive(VD))
    return;
  if (RHS->IgnoreParenImpCasts()->isNullPointerConstant(
          Ctx, Expr::NPC_ValueDependentIsNotNull))
    return;
  // `p = p + 1`: it keeps pointing into the storage it pointed into.
  if (basedOn(RHS, VD))
    return;
  // The root index of one definition: a constant, or for `c ? p : q`
  // the condition choosing between two (evaluated again: it must have no
  // side effects).
  std::function<Expr *(const Expr *)> Index = [&](const Expr *E) -> Expr * {
    const Expr *K = E->IgnoreParenImpCasts();
    const auto *CO = dyn_cast<ConditionalOperator>(K);
    if (!CO)
      CO = selectorForm(Facts::get(Ctx), K); // std::max(a, b), ...
    if (CO) {
      if (!isSelectorForm(Facts::get(Ctx), CO) &&
          !reevaluable(CO->getCond(), Ctx))
        return unsupported(CO, "pointer '" + VD->getNameAsString() +
                                   "' chosen by a condition that cannot be "
                                   "evaluated again (it has side effects or "
                                   "calls a function without a visible "
                                   "body)");
      Expr *T = Index(CO->getTrueExpr());
      Expr *F = T ? Index(CO->getFalseExpr()) : nullptr;
      return F ? B.paren(B.cond(plain(CO->getCond()), T, F)) : nullptr;
    }
    bool IsThis = false;
    const VarDecl *R = Act.rootOf(K, IsThis);
    if (!R && !IsThis)
      if (Expr *I = rootIndexOf(K, Rs))
        return I;
    const auto *It = llvm::find(Rs, R);
    if (It == Rs.end())
      return unsupported(E, untracked(VD));
    return B.intLit(It - Rs.begin(), Ctx.IntTy);
  };
  Expr *I = Index(RHS);
  if (!I)
    return;
  VarDecl *&A = RootIndex[VD];
  if (!A)
    A = hoist("_a", Ctx.IntTy);
  Out.push_back(B.assign(B.ref(A), I));
}

Expr *PullbackBuilder::rootIndexOf(const Expr *P,
                                   ArrayRef<const VarDecl *> Rs) {
  // `t = a`, `t = a + 1` with a into several storages: a's index now,
  // as a position among \p Rs (which holds a's storages).
  while (const Expr *Base = pointerBase(P))
    P = Base->IgnoreParenImpCasts();
  const VarDecl *V = refVar(P);
  ArrayRef<const VarDecl *> From = V ? Act.rootsOf(V) : ArrayRef<const VarDecl *>();
  VarDecl *A = V ? RootIndex.lookup(V) : nullptr;
  if (From.empty() || !A)
    return nullptr;
  bool Same = From.size() <= Rs.size();
  for (size_t K = 0; K < From.size() && Same; ++K)
    Same = Rs[K] == From[K];
  if (Same)
    return B.ref(A);
  // (i == 0 ? j0 : i == 1 ? j1 : ... jn)
  Expr *Out = nullptr;
  for (size_t K = From.size(); K-- > 0;) {
    const auto *It = llvm::find(Rs, From[K]);
    if (It == Rs.end())
      return nullptr;
    Expr *J = B.intLit(It - Rs.begin(), Ctx.IntTy);
    Out = Out ? B.cond(B.binop(BO_EQ, B.ref(A), B.intLit(K, Ctx.IntTy)), J, Out)
              : J;
  }
  return B.paren(Out);
}

/// True if storage \p R is (or points to) an array of \p Pointee, as
/// aliasBase finds its elements: offsets into it count elements.
static bool holdsElementsOf(const VarDecl *R, QualType Pointee) {
  const ASTContext &Ctx = R->getASTContext();
  QualType RT = R->getType().getNonReferenceType();
  if (RT->isPointerType())
    return Ctx.hasSameUnqualifiedType(RT->getPointeeType(), Pointee);
  if (const auto *AT = Ctx.getAsArrayType(RT))
    return Ctx.hasSameUnqualifiedType(AT->getElementType(), Pointee);
  if (const auto *RD = RT->getAsCXXRecordDecl()) {
    if (Ctx.hasSameUnqualifiedType(RT, Pointee))
      return true;
    const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD);
    if (Spec &&
        llvm::is_contained({"vector", "array", "span"},
                           containerName(Ctx.getRecordType(RD))) &&
        Spec->getTemplateArgs().size() > 0 &&
        Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
      return Ctx.hasSameUnqualifiedType(
          Spec->getTemplateArgs()[0].getAsType(), Pointee);
    return false;
  }
  return Ctx.hasSameUnqualifiedType(RT, Pointee);
}

Expr *PullbackBuilder::multiRootBase(const VarDecl *VD, Expr *Index,
                                     bool Shadow, bool &Bytes) {
  ArrayRef<const VarDecl *> Rs = Act.rootsOf(VD);
  QualType Pointee = aliasPointee(VD);
  // A root declared after this point cannot be the target yet.
  auto Skip = [&](size_t K, bool Any) {
    return !Shadow && !isa<ParmVarDecl>(Rs[K]) && !mapVar(Rs[K]) &&
           (Any || K > 0);
  };
  // Offsets in elements when every storage is an array of the pointee;
  // otherwise in bytes (a scalar and a struct member: `c ? x : s.y`). The
  // same for every root, also those not declared yet where the forward
  // sweep records an offset: the reverse sweep reads it with all of them.
  Bytes = false;
  for (const VarDecl *R : Rs)
    Bytes |= !holdsElementsOf(R, Pointee);
  QualType CharP = Ctx.getPointerType(Shadow ? Ctx.CharTy
                                             : Ctx.CharTy.withConst());
  // (i == 0 ? base0 : i == 1 ? base1 : ... baseN)
  Expr *Out = nullptr;
  for (size_t K = Rs.size(); K-- > 0;) {
    if (Skip(K, Out != nullptr))
      continue;
    bool Elements = false;
    Expr *Base = aliasBase(Rs[K], Pointee, Shadow, Elements);
    if (!Base)
      return nullptr;
    if (Bytes)
      Base = B.reinterpretCast(CharP, Base);
    Out = Out ? B.cond(B.binop(BO_EQ, Index, B.intLit(K, Ctx.IntTy)), Base,
                       Out)
              : Base;
  }
  return B.paren(Out);
}

void PullbackBuilder::noteAliasUse(const DeclRefExpr *Use) {
  const auto *VD = cast<VarDecl>(Use->getDecl());
  if (LoadedShadows.count(VD))
    return; // (its shadow is a pointer of its own)
  if (!Act.rootsOf(VD).empty()) {
    // Which storage, and where in it: recorded at the use.
    if (MultiUses.count(Use))
      return;
    VarDecl *A = RootIndex.lookup(VD);
    if (!A) {
      unsupported(Use, "pointer '" + VD->getNameAsString() +
                           "' (internal error: no root index)");
      return;
    }
    VarDecl *UA = hoist("_a", Ctx.IntTy);
    Cur->push_back(B.assign(B.ref(UA), B.ref(A)));
    bool Bytes = false;
    Expr *Base = multiRootBase(VD, B.ref(A), /*Shadow=*/false, Bytes);
    if (!Base)
      return;
    Expr *Ptr = B.ref(mapVar(VD));
    if (VD->getType()->isReferenceType())
      Ptr = B.addrOf(Ptr);
    if (Bytes)
      Ptr = B.reinterpretCast(Ctx.getPointerType(Ctx.CharTy.withConst()), Ptr);
    Expr *Off = B.binop(BO_Sub, Ptr, Base);
    VarDecl *UO = hoist("_o", Off->getType());
    Cur->push_back(B.assign(B.ref(UO), Off));
    if (!Loops.empty() && !Frames.empty()) {
      Frames.back().Recorded.push_back(UA);
      Frames.back().Recorded.push_back(UO);
    }
    MultiUses[Use] = {UA, UO};
    return;
  }
  const VarDecl *R = Act.storageOf(VD);
  if (AliasOffsets.count(VD) || AliasUses.count(Use) ||
      AliasPtrs.count(Use) || !R || (VD == R && StableOwners.count(R)))
    return;
  if (Act.isOwner(R) && !StableOwners.count(R)) {
    // Heap memory allocated in a loop: the shadow pointer itself, now.
    VarDecl *Sh = Adjoints.lookup(R);
    if (!Sh)
      return;
    Expr *P = B.ref(Sh);
    if (VD != R) {
      Expr *Off = aliasOffset(VD);
      QualType Pointee = aliasPointee(VD);
      bool Elements = Ctx.hasSameUnqualifiedType(
          R->getType()->getPointeeType(), Pointee);
      if (Elements)
        P = B.binop(BO_Add, P, Off);
      else
        P = B.reinterpretCast(
            Ctx.getPointerType(Pointee.getUnqualifiedType()),
            B.binop(BO_Add, B.reinterpretCast(Ctx.getPointerType(Ctx.CharTy), P),
                    Off));
    }
    if (!P)
      return;
    VarDecl *T = hoist("_p", P->getType());
    Cur->push_back(B.assign(B.ref(T), P));
    if (!Loops.empty() && !Frames.empty())
      Frames.back().Recorded.push_back(T);
    AliasPtrs[Use] = T;
    return;
  }
  Expr *Off = aliasOffset(VD);
  if (!Off)
    return;
  VarDecl *T = hoist("_o", Off->getType());
  Cur->push_back(B.assign(B.ref(T), Off));
  if (!Loops.empty() && !Frames.empty())
    Frames.back().Recorded.push_back(T);
  AliasUses[Use] = T;
}

Expr *PullbackBuilder::aliasShadow(const DeclRefExpr *Use) {
  const auto *VD = cast<VarDecl>(Use->getDecl());
  if (VarDecl *P = LoadedShadows.lookup(VD))
    return B.ref(P);
  auto MU = MultiUses.find(Use);
  if (MU != MultiUses.end()) {
    bool Bytes = false;
    Expr *Base =
        multiRootBase(VD, B.ref(MU->second.first), /*Shadow=*/true, Bytes);
    if (!Base)
      return nullptr;
    Expr *P = B.binop(BO_Add, Base, B.ref(MU->second.second));
    if (Bytes)
      P = B.reinterpretCast(
          Ctx.getPointerType(aliasPointee(VD).getUnqualifiedType()), P);
    if (VD->getType()->isReferenceType())
      return B.paren(B.deref(P));
    return P;
  }
  const VarDecl *R = Act.storageOf(VD);
  if (!R)
    return unsupported(Use, untracked(VD));
  if (VarDecl *P = AliasPtrs.lookup(Use)) {
    if (VD->getType()->isReferenceType())
      return B.paren(B.deref(B.ref(P)));
    return B.ref(P);
  }
  if (VD == R && StableOwners.count(R))
    return B.ref(Adjoints.lookup(R));
  VarDecl *Off = AliasOffsets.lookup(VD);
  if (!Off)
    Off = AliasUses.lookup(Use);
  if (!Off)
    return unsupported(Use, "pointer '" + VD->getNameAsString() +
                                "' (internal error: no offset)");
  QualType Pointee = aliasPointee(VD);
  bool Elements = false;
  Expr *Base = aliasBase(R, Pointee, /*Shadow=*/true, Elements,
                         Act.memberPathOf(VD));
  Expr *P;
  if (Elements) {
    P = B.binop(BO_Add, Base, B.ref(Off));
  } else {
    QualType CharP = Ctx.getPointerType(Ctx.CharTy);
    P = B.reinterpretCast(
        Ctx.getPointerType(Pointee.getUnqualifiedType()),
        B.binop(BO_Add, B.reinterpretCast(CharP, Base), B.ref(Off)));
  }
  if (VD->getType()->isReferenceType())
    return B.paren(B.deref(P));
  return P;
}

void PullbackBuilder::ownerDecl(const VarDecl *VD, Stmts &Blocks) {
  // double *buf = new double[n] (or malloc): the shadow is zeroed heap
  // memory of the same size, allocated with it and freed when the reverse
  // sweep reaches the allocation. Heap shadows outlive the forward half of
  // a split derivative, so pointers into them can be recorded.
  QualType Elem = VD->getType()->getPointeeType();
  Allocation A = allocation(VD->getInit());
  if (A.K == Allocation::None || Act.isWritten(VD)) {
    unsupported(VD, "pointer '" + VD->getNameAsString() +
                        "' that owns memory and is assigned again");
    return;
  }
  if (!Elem.isTriviallyCopyableType(Ctx)) {
    unsupported(VD, "heap array of '" + Elem.getAsString() +
                        "' (its shadow needs constructors)");
    return;
  }
  Expr *Bytes = allocationBytes(
      B, A, Elem, [this](const Expr *E) { return plain(E); });
  QualType PT = Ctx.getPointerType(Elem.getUnqualifiedType());
  VarDecl *Sh = hoist("_d_" + VD->getNameAsString() + "_", PT);
  Cur->push_back(B.assign(
      B.ref(Sh), B.staticCast(PT, B.callRuntime("shadow_alloc", {}, {Bytes}))));
  // In a loop: recorded with the block that declares it (see
  // declareAlias), whose reverse starts by restoring it, so that it is the
  // iteration's shadow for every use in the block; unless a jump out of the
  // block came first (then each use records it).
  if (Loops.empty()) {
    StableOwners.insert(VD);
  } else if (Frames.size() >= 2 && !Frames[Frames.size() - 2].JumpedOut) {
    Frames[Frames.size() - 2].Recorded.push_back(Sh);
    StableOwners.insert(VD);
  } else if (!Frames.empty()) {
    Frames.back().Recorded.push_back(Sh);
  }
  Adjoints[VD] = Sh;
  // Reached last by the reverse sweep: the initial value of a single
  // object (`new double(x)`, `new T{x, y}`) gets the object's adjoint, then
  // nothing uses the shadow.
  Stmts R;
  const Expr *Init =
      A.K == Allocation::NewObject
          ? newObjectInit(cast<CXXNewExpr>(VD->getInit()->IgnoreParenCasts()))
          : nullptr;
  if (Init && Act.isActive(stripExpr(Init)))
    backprop(Init, B.paren(B.deref(B.ref(Sh))), R);
  R.push_back(B.callRuntime("shadow_free", {}, {B.ref(Sh)}));
  Blocks.insert(Blocks.begin(), R.begin(), R.end());
}

Expr *PullbackBuilder::rebuildNewObject(const CXXNewExpr *NE) {
  modelled(NE);
  const Expr *I = newObjectInit(NE);
  if (!I)
    return nullptr;
  TypeSourceInfo *TSI = NE->getAllocatedTypeSourceInfo();
  if (!TSI)
    TSI = Ctx.getTrivialTypeSourceInfo(NE->getAllocatedType(), B.Loc);
  const Expr *K = I->IgnoreImplicit();
  bool Active = Act.isActive(stripExpr(I));
  Expr *Init;
  bool Braces = false;
  if (const auto *IL = dyn_cast<InitListExpr>(K)) {
    // `new T{x, y}`: the braces rebuilt.
    Init = rebuildBraces(IL, !Active);
    Braces = true;
  } else {
    // `new double(e)`, `new S(a, b)`: from the rebuilt value (a
    // construction is rebuilt as a temporary the object is made from).
    Init = rebuild(I, false, !Active);
  }
  if (Failed || !Init)
    return nullptr;
  Expr *R = B.newObject(TSI, {Init}, Braces, NE->isGlobalNew());
  return R ? R : unsupported(NE, constructName(NE));
}

bool PullbackBuilder::tracksOffset(const VarDecl *VD) const {
  // Local pointers and references, and pointer parameters the body moves.
  return Act.isAlias(VD) ||
         (isa<ParmVarDecl>(VD) && VD->getType()->isPointerType() &&
          Act.isWritten(VD));
}

VarDecl *PullbackBuilder::entryPointer(const VarDecl *P) {
  // A pointer parameter re-seated in the body: its value on entry, saved.
  if (!Act.isWritten(P) || !isa<ParmVarDecl>(P))
    return mapVar(P);
  auto It = EntryPointers.find(P);
  if (It != EntryPointers.end())
    return It->second;
  VarDecl *Copy = hoist("_" + P->getNameAsString() + "0", P->getType());
  FwdStart.push_back(B.assign(B.ref(Copy), B.ref(mapVar(P))));
  EntryPointers[P] = Copy;
  return Copy;
}

Expr *PullbackBuilder::aliasValue(const VarDecl *VD) {
  auto It = AliasOffsets.find(VD);
  const VarDecl *R = Act.storageOf(VD);
  if (It == AliasOffsets.end() || !R || inScopeInReverse(VD))
    return nullptr;
  QualType Pointee = aliasPointee(VD);
  bool Elements = false;
  Expr *Base = aliasBase(R, Pointee, /*Shadow=*/false, Elements,
                         Act.memberPathOf(VD));
  if (!Base)
    return nullptr;
  Expr *P;
  if (Elements) {
    P = B.binop(BO_Add, Base, B.ref(It->second));
  } else {
    QualType CharP = Ctx.getPointerType(Ctx.CharTy.withConst());
    P = B.reinterpretCast(
        Ctx.getPointerType(Pointee.getUnqualifiedType().withConst()),
        B.binop(BO_Add, B.reinterpretCast(CharP, Base), B.ref(It->second)));
  }
  return VD->getType()->isReferenceType() ? B.paren(B.deref(P)) : B.paren(P);
}

/// The pointers the activity analysis found made to point into other
/// memory where the pullback cannot follow them (Activity::Reseated): a
/// call that may re-seat one, a lambda capturing one by reference, a
/// member function's parameter.
void PullbackBuilder::reportReseated() {
  for (auto &[VD, Site] : Act.Reseated) {
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Site);
        OC && OC->getOperator() == OO_Call && OC->getNumArgs()) {
      unsupported(Site, "pointer '" + VD->getNameAsString() +
                            "' captured by reference by '" +
                            spelled(OC->getArg(0)) +
                            "', which may make it point into other memory "
                            "(assign it in this function instead)");
      continue;
    }
    if (const auto *CE = dyn_cast<CallExpr>(Site)) {
      const FunctionDecl *FD = CE->getDirectCallee();
      bool Swap = FD && FD->isInStdNamespace() && FD->getIdentifier() &&
                  FD->getName() == "swap" && CE->getNumArgs() == 2;
      std::string N = VD->getNameAsString();
      unsupported(
          Site,
          "pointer '" + N + "' passed by reference to '" +
              (FD ? nameOf(FD) : spelled(CE->getCallee())) +
              "', which may make it point into other memory (" +
              (Swap ? "swap by assignments: 'auto *t = " + spelled(CE->getArg(0)) +
                          "; " + spelled(CE->getArg(0)) + " = " +
                          spelled(CE->getArg(1)) + "; " +
                          spelled(CE->getArg(1)) + " = t;'"
                    : std::string("assign it in this function instead")) +
              ")");
      continue;
    }
    unsupported(Site, "pointer parameter '" + VD->getNameAsString() +
                          "' made to point into other memory (declare a "
                          "local pointer for it: 'auto *" +
                          VD->getNameAsString() + "2 = " +
                          VD->getNameAsString() + ";', then use and move " +
                          VD->getNameAsString() + "2)");
  }
}

} // namespace grad
