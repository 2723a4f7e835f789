//===- Returns.cpp - Return statements --------------------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `return` statements: the seed goes to the returned expression; a
/// function returning a non-const reference returns a reference parameter
/// or `*this`; the halves of a split derivative return the value at the
/// end of the forward sweep and finish with the frame.
///
//===----------------------------------------------------------------------===//

#include "ast/Diagnostics.h"
#include "analysis/Jumps.h"
#include "analysis/Paths.h"
#include "reverse/PullbackBuilder.h"
#include "ast/Records.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace grad {

static const Expr *strip(const Expr *E) { return stripExpr(E); }

/// Values per push_all / pop_all call.
static constexpr size_t FrameChunk = 32;

namespace {
/// How a reverse sweep first uses a temporary of the frame (a split
/// derivative's values, passed from the forward half to the reverse one):
/// not at all, by assigning it before any read on every path (a pop or
/// `t = e`), only inside a loop or branch that assigns it before reading it
/// (and never after), or by reading it.
enum class FirstUse { None, Kills, Conditional, Reads };

struct FrameUses {
  const VarDecl *V;

  bool mentions(const Stmt *S) const {
    if (!S)
      return false;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      return DRE->getDecl() == V;
    for (const Stmt *C : S->children())
      if (mentions(C))
        return true;
    return false;
  }

  /// `t = e` with e not reading t, `stack.pop(t)`, `stack.pop_all(..., t,
  /// ...)`.
  bool kills(const Stmt *S) const {
    const auto *E = dyn_cast<Expr>(S);
    if (!E)
      return false;
    E = E->IgnoreParenImpCasts();
    if (const auto *BO = dyn_cast<BinaryOperator>(E))
      if (BO->getOpcode() == BO_Assign) {
        const auto *L = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens());
        return L && L->getDecl() == V && !mentions(BO->getRHS());
      }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      const CXXMethodDecl *MD = MC->getMethodDecl();
      if (!MD || !MD->getIdentifier() ||
          (MD->getName() != "pop" && MD->getName() != "pop_all"))
        return false;
      bool Found = false;
      for (const Expr *A : MC->arguments()) {
        const auto *R = dyn_cast<DeclRefExpr>(A->IgnoreParenImpCasts());
        if (R && R->getDecl() == V)
          Found = true;
        else if (mentions(A))
          return false;
      }
      return Found && !mentions(MC->getImplicitObjectArgument());
    }
    return false;
  }

  FirstUse list(llvm::ArrayRef<const Stmt *> L) const {
    FirstUse State = FirstUse::None;
    for (const Stmt *S : L) {
      FirstUse U = stmt(S);
      if (U == FirstUse::Kills || U == FirstUse::Reads)
        return U;
      if (U == FirstUse::Conditional)
        State = U;
    }
    return State;
  }

  FirstUse stmt(const Stmt *S) const {
    if (!mentions(S))
      return FirstUse::None;
    if (kills(S))
      return FirstUse::Kills;
    if (const auto *CS = dyn_cast<CompoundStmt>(S))
      return list(llvm::ArrayRef<const Stmt *>(CS->body_begin(),
                                               CS->body_end()));
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      if (If->getInit() || If->getConditionVariable() ||
          mentions(If->getCond()))
        return FirstUse::Reads;
      FirstUse T = stmt(If->getThen()), E = stmt(If->getElse());
      if (T == FirstUse::Reads || E == FirstUse::Reads)
        return FirstUse::Reads;
      if (T == FirstUse::Kills && E == FirstUse::Kills)
        return FirstUse::Kills;
      return FirstUse::Conditional;
    }
    const Stmt *Body = nullptr;
    if (const auto *W = dyn_cast<WhileStmt>(S)) {
      if (W->getConditionVariable() || mentions(W->getCond()))
        return FirstUse::Reads;
      Body = W->getBody();
    } else if (const auto *F = dyn_cast<ForStmt>(S)) {
      if (mentions(F->getInit()) || mentions(F->getCond()) ||
          mentions(F->getInc()) || F->getConditionVariable())
        return FirstUse::Reads;
      Body = F->getBody();
    } else if (const auto *D = dyn_cast<DoStmt>(S)) {
      if (mentions(D->getCond()))
        return FirstUse::Reads;
      Body = D->getBody();
    }
    if (!Body)
      return FirstUse::Reads; // any other statement that mentions it
    FirstUse U = stmt(Body);
    return U == FirstUse::Reads ? U : FirstUse::Conditional;
  }
};

/// A goto or label anywhere in \p S (a jump may skip the assignment).
bool hasLabels(const Stmt *S) {
  if (!S)
    return false;
  if (isa<GotoStmt>(S) || isa<LabelStmt>(S) || isa<IndirectGotoStmt>(S) ||
      isa<SwitchStmt>(S))
    return true;
  for (const Stmt *C : S->children())
    if (hasLabels(C))
      return true;
  return false;
}
} // namespace

void PullbackBuilder::returnStmt(const ReturnStmt *RS, Stmts &Fwd,
                                 Stmts &Rev) {
  modelled(RS);
  if (!TailReturns.count(RS)) {
    unsupported(RS, "early 'return'");
    return;
  }
  const Expr *RV = RS->getRetValue();
  // `return v;` of a container or of an object keeping its elements in
  // one: the seed goes to the variable.
  if (RV && isa<DeclRefExpr>(copiedObject(RV)))
    RV = copiedObject(RV);
  if (returnsWritableReference(Primal)) {
    referenceReturn(RV, Fwd);
    return;
  }
  if (Half != SplitHalf::None && RV) {
    // The forward half returns the value; both halves hoist it alike.
    Fwd.push_back(setReturnValue(fwd(RV, false)));
    if (!Act.isActive(strip(RV)))
      return;
  } else if (!RV || Sig.SeedIndex < 0 || !Act.isActive(strip(RV))) {
    return;
  } else {
    fwd(RV, false); // Only the temporaries the reverse sweep reads remain.
  }
  Stmts R;
  backprop(RV, B.ref(param(Sig.SeedIndex)), R);
  Rev.insert(Rev.end(), R.begin(), R.end());
}

bool PullbackBuilder::referenceReturn(const Expr *RV, Stmts &Fwd) {
  // A reference into one pointer or reference argument (`return p;`, or
  // computed: `return a[k];` after a search): the forward half returns its
  // address, for the caller's alias of that argument (both halves build
  // it: they record alike).
  if (RV && pointedParam(Primal) >= 0) {
    if (Half != SplitHalf::None)
      if (Expr *L = fwd(RV, false))
        Fwd.push_back(B.assign(B.ref(returnValueVar()), B.addrOf(L)));
    return true;
  }
  // `return p;`, `return *this;`: the caller's own memory, which its
  // derivative already follows (callers discard the result).
  const Expr *K = RV ? RV->IgnoreParenImpCasts() : nullptr;
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(K);
      UO && UO->getOpcode() == UO_Deref &&
      isa<CXXThisExpr>(UO->getSubExpr()->IgnoreParenImpCasts()))
    return true;
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(K))
    if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl());
        P && P->getType()->isLValueReferenceType())
      return true;
  unsupported(RV ? static_cast<const Stmt *>(RV) : Primal->getBody(),
              "returned reference (a function returning a non-const "
              "reference may return only a reference parameter, '*this', "
              "or a reference into one pointer or reference parameter)");
  return false;
}

VarDecl *PullbackBuilder::returnValueVar() {
  if (!RetVal) {
    QualType T =
        Primal->getReturnType().getNonReferenceType().getUnqualifiedType();
    if (returnsWritableReference(Primal)) // (see referenceReturn)
      T = Ctx.getPointerType(Primal->getReturnType().getNonReferenceType());
    if (T->isRecordType() && !isPlainRecord(T)) {
      // (A container, an object keeping its elements in one: no zero,
      // maybe no default constructor.)
      QualType SlotT = B.runtimeType("slot", {B.typeArg(T)}, /*Detail=*/true);
      if (SlotT.isNull()) {
        D.needRuntime(B.Loc, Entry);
        Failed = true;
        SlotT = Ctx.IntTy; // (never printed)
      }
      RetSlot = true;
      RetVal = B.var(PB, fresh("_value"), SlotT, nullptr);
    } else {
      RetVal = B.var(PB, fresh("_value"), T, B.zero(T));
    }
  }
  return RetVal;
}

Stmt *PullbackBuilder::setReturnValue(Expr *V) {
  VarDecl *R = returnValueVar();
  if (RetSlot)
    return B.memberCall(B.ref(R), "emplace", {V});
  return B.assign(B.ref(R), V);
}

Expr *PullbackBuilder::returnedValue() {
  if (RetSlot)
    return B.callStd("move", {B.memberCall(B.ref(RetVal), "get", {})});
  return B.ref(RetVal);
}

bool PullbackBuilder::splitForwardAdjoints(
    Stmts &Fwd, SmallVectorImpl<const VarDecl *> &FwdAdjoints,
    SplitSizes &Sizes) {
  llvm::DenseSet<const VarDecl *> InPrologue;
  for (Stmt *St : Prologue)
    if (const auto *DS = dyn_cast<DeclStmt>(St))
      for (const Decl *Dc : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(Dc))
          InPrologue.insert(VD);
  struct Refs : RecursiveASTVisitor<Refs> {
    llvm::SetVector<const VarDecl *> Found;
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        Found.insert(VD);
      return true;
    }
  } FwdRefs;
  for (Stmt *St : FwdStart)
    FwdRefs.TraverseStmt(St);
  for (Stmt *St : Fwd)
    FwdRefs.TraverseStmt(St);
  llvm::DenseSet<const VarDecl *> HoistedSet(Hoisted.begin(), Hoisted.end());
  for (const VarDecl *VD : FwdRefs.Found) {
    if (!InPrologue.count(VD) || HoistedSet.count(VD) || VD == Stack)
      continue;
    FwdAdjoints.push_back(VD);
    // (The user's variable, whose shadow this is.)
    auto Refuse = [&](StringRef Why) {
      const VarDecl *Of = VD;
      for (auto &[P, A] : Adjoints)
        if (A == VD)
          Of = P;
      unsupported(Of, "local '" + Of->getNameAsString() + "' of type '" +
                          Of->getType().getAsString(Ctx.getPrintingPolicy()) +
                          "' (" + Why.str() + ") in a function differentiated in "
                          "two halves (a helper that writes through a "
                          "parameter, called from another differentiated "
                          "function)");
      return false;
    };
    const auto *RD = VD->getType()->getAsCXXRecordDecl();
    const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
    if (!Spec || !Spec->getIdentifier() || Spec->getName() != "vector") {
      // A shadow shaped at run time (a grad::tensor's) would reach the
      // reverse half unsized; those of element owners travel in slots.
      bool Carried = llvm::any_of(SplitOwners, [&](const auto &SM) {
        return SM.first == VD || SM.second == VD;
      }) || llvm::any_of(OwnerSlots, [&](const auto &OS) {
        return OS.second == VD;
      });
      if (RD && !Carried && !isPlainRecord(VD->getType()))
        return Refuse("its adjoint's shape is set at run time; a "
                      "std::vector's is carried over");
      continue;
    }
    // Elements of a fixed size (numbers, std::array of numbers, plain
    // structs): the shadow's size is all the reverse half needs.
    QualType ET = Spec->getTemplateArgs().size() < 1
                      ? QualType()
                      : Spec->getTemplateArgs()[0].getAsType();
    auto FixedSize = [](QualType T) {
      if (T->isArithmeticType() || isPlainStruct(T))
        return true;
      const auto *AS = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
          T->getAsCXXRecordDecl());
      return AS && isStdClass(T, "array") &&
             AS->getTemplateArgs()[0].getAsType()->isArithmeticType();
    };
    if (ET.isNull() || !FixedSize(ET))
      return Refuse("a container of containers");
    Sizes.push_back({VD, hoist("_size", Ctx.getSizeType())});
  }
  return true;
}

SmallVector<Expr *, 16>
PullbackBuilder::splitFrame(Stmts &Rev, Stmts &Epilogue,
                            const SplitSizes &Sizes) {
  llvm::DenseSet<const VarDecl *> Needed;
  for (auto &[A, Size] : Sizes)
    Needed.insert(Size);
  for (auto &[Slot, Made] : SplitOwners) {
    Needed.insert(Slot);
    Needed.insert(Made);
  }
  SmallVector<const Stmt *, 32> After(Rev.begin(), Rev.end());
  After.append(Epilogue.begin(), Epilogue.end());
  bool Jumps = llvm::any_of(After, [](const Stmt *S) { return hasLabels(S); });
  SmallVector<Expr *, 16> Frame;
  for (VarDecl *V : Hoisted) {
    if (!D.options().TrimFrames || Jumps || Needed.count(V) ||
        FrameUses{V}.list(After) == FirstUse::Reads)
      Frame.push_back(B.ref(V));
  }
  return Frame;
}

bool PullbackBuilder::forwardHalfBody(Stmts &Fwd,
                                      ArrayRef<const VarDecl *> FwdAdjoints,
                                      const SplitSizes &Sizes,
                                      ArrayRef<Expr *> Frame, Stmts &All) {
  // The entry checks, the stack, the temporaries, the forward sweep, the
  // frame, the value.
  entryChecks(All);
  llvm::DenseSet<const Decl *> Keep(Hoisted.begin(), Hoisted.end());
  Keep.insert(Stack);
  Keep.insert(FwdAdjoints.begin(), FwdAdjoints.end());
  for (Stmt *St : Prologue)
    if (const auto *DS = dyn_cast<DeclStmt>(St))
      if (DS->isSingleDecl() && Keep.count(DS->getSingleDecl()))
        All.push_back(St);
  bool Void = Primal->getReturnType()->isVoidType() ||
              (returnsWritableReference(Primal) && pointedParam(Primal) < 0);
  if (!RetVal && !Void)
    return unsupported(Primal, "function whose value the forward half "
                               "does not compute (internal error)"),
           false;
  if (RetVal)
    All.push_back(B.declStmt(RetVal));
  All.insert(All.end(), FwdStart.begin(), FwdStart.end());
  All.insert(All.end(), Fwd.begin(), Fwd.end());
  for (auto &[A, Size] : Sizes)
    All.push_back(B.assign(
        B.ref(Size),
        B.memberCall(B.ref(const_cast<VarDecl *>(A)), "size", {})));
  for (auto &[Slot, Made] : SplitOwners)
    All.push_back(B.ifStmt(
        B.binop(BO_NE, B.ref(Made), B.intLit(0, Ctx.getSizeType())),
        B.memberCall(B.ref(Slot), "save", {}), nullptr));
  // In chunks (a fold over hundreds of arguments exceeds clang's
  // nesting limit); the reverse half pops them last chunk first.
  for (size_t I = 0; I < Frame.size(); I += FrameChunk)
    All.push_back(B.memberCall(
        B.ref(Stack), "push_all",
        Frame.slice(I, std::min(FrameChunk, Frame.size() - I))));
  if (RetVal)
    All.push_back(B.returnStmt(returnedValue()));
  return true;
}

bool PullbackBuilder::reverseHalfBody(Stmts &Rev, Stmts &Epilogue,
                                      const SplitSizes &Sizes,
                                      ArrayRef<Expr *> Frame, Stmts &All) {
  // The frame back into the same temporaries, then the reverse sweep.
  // Nothing may read the primal parameters the reverse half drops.
  struct Finder : RecursiveASTVisitor<Finder> {
    const llvm::SmallPtrSetImpl<const ParmVarDecl *> *Dropped;
    const DeclRefExpr *Found = nullptr;
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl()))
        if (Dropped->count(P) && !Found)
          Found = DRE;
      return true;
    }
  } F;
  F.Dropped = &Dropped;
  for (Stmt *St : Prologue)
    F.TraverseStmt(St);
  for (Stmt *St : Rev)
    F.TraverseStmt(St);
  for (Stmt *St : Epilogue)
    F.TraverseStmt(St);
  if (F.Found && referenceMemberToFloating(F.Found->getType())) {
    // (The forward half cannot record an object holding references.)
    const ValueDecl *P = F.Found->getDecl();
    unsupported(P, "parameter '" + P->getNameAsString() + "' of type '" +
                       P->getType()
                           .getNonReferenceType()
                           .getUnqualifiedType()
                           .getAsString(Ctx.getPrintingPolicy()) +
                       "', which holds the reference member '" +
                       referenceMemberToFloating(F.Found->getType())
                           ->getNameAsString() +
                       "', used by the reverse sweep of a function "
                       "differentiated in two halves (call the object in "
                       "the function that builds it)");
    return false;
  }
  if (F.Found) {
    unsupported(Primal, "reverse half reading parameter '" +
                            F.Found->getDecl()->getNameAsString() +
                            "' (internal error)");
    return false;
  }
  All.insert(All.end(), Prologue.begin(), Prologue.end());
  for (size_t I = (Frame.size() + FrameChunk - 1) / FrameChunk; I-- > 0;)
    All.push_back(B.memberCall(
        B.ref(Stack), "pop_all",
        Frame.slice(I * FrameChunk,
                    std::min(FrameChunk, Frame.size() - I * FrameChunk))));
  for (auto &[A, Size] : Sizes)
    All.push_back(B.memberCall(B.ref(const_cast<VarDecl *>(A)), "resize",
                               {B.ref(Size)}));
  for (auto It = SplitOwners.rbegin(); It != SplitOwners.rend(); ++It)
    All.push_back(B.ifStmt(
        B.binop(BO_NE, B.ref(It->second), B.intLit(0, Ctx.getSizeType())),
        B.memberCall(B.ref(It->first), "restore", {}), nullptr));
  All.insert(All.end(), Rev.begin(), Rev.end());
  All.insert(All.end(), Epilogue.begin(), Epilogue.end());
  return true;
}

/// A parameter of \p PB that \p All names but \p PB does not take (a
/// placeholder of the other half's parameter), or null.
static const ParmVarDecl *foreignParam(FunctionDecl *PB, const Stmts &All) {
  struct Foreign : RecursiveASTVisitor<Foreign> {
    FunctionDecl *PB;
    const ParmVarDecl *Found = nullptr;
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl());
      if (P && P->getDeclContext() == PB &&
          !llvm::is_contained(PB->parameters(), P))
        Found = P;
      return !Found;
    }
  } F{{}, PB};
  for (Stmt *St : All)
    if (!F.Found)
      F.TraverseStmt(St);
  return F.Found;
}

bool PullbackBuilder::finishSplit(Stmts &Fwd, Stmts &Rev, Stmts &Epilogue) {
  if (failedBuilding("its split derivative"))
    return false;
  // Adjoints the forward sweep touches (the shadow of a local vector is
  // sized as the vector grows): the forward half has its own, and passes
  // the final size of each vector's in the frame; the reverse half sizes
  // its shadow from that before the reverse sweep.
  SmallVector<const VarDecl *, 4> FwdAdjoints;
  SplitSizes Sizes;
  if (!splitForwardAdjoints(Fwd, FwdAdjoints, Sizes))
    return false;
  // The frame: every temporary the reverse sweep may read before it
  // assigns it (a value popped or recomputed in each iteration of a loop
  // before it is read, or a loop's counter, set where the reverse loop
  // starts, needs no place in it). Both halves decide alike: they build the
  // same sweeps.
  SmallVector<Expr *, 16> Frame = splitFrame(Rev, Epilogue, Sizes);
  if (!Frame.empty() && !stackVar())
    return false;
  Stmts All(LocalTypes.begin(), LocalTypes.end());
  if (Half == SplitHalf::Forward) {
    if (!forwardHalfBody(Fwd, FwdAdjoints, Sizes, Frame, All))
      return false;
  } else if (!reverseHalfBody(Rev, Epilogue, Sizes, Frame, All)) {
    return false;
  }
  if (B.Failed)
    return false;
  // A half names only its own parameters: a placeholder of a parameter it
  // does not take (an adjoint in the forward half) would read garbage.
  if (const ParmVarDecl *Found = foreignParam(PB, All))
    return unsupported(Primal,
                       "function whose " +
                           std::string(Half == SplitHalf::Forward
                                           ? "forward"
                                           : "reverse") +
                           " half would use '" + Found->getNameAsString() +
                           "', which it does not take (internal error)"),
           false;
  PB->setBody(B.block(All));
  return true;
}

} // namespace grad
