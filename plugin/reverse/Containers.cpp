//===- Containers.cpp - Arrays and containers of floating data --*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Mutations of a local std::vector keep its shadow the same size at every
/// point: the forward sweep mirrors them on the shadow (push_back(0),
/// resize), the reverse sweep undoes them (the pushed value receives the
/// last element's adjoint, pop_back), with the sizes recorded where the
/// reverse needs them.
///
//===----------------------------------------------------------------------===//

#include "analysis/Jumps.h"
#include "reverse/PullbackBuilder.h"
#include "ast/Records.h"
#include "analysis/Selectors.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace grad {

static const Expr *strip(const Expr *E) { return stripExpr(E); }

/// The std::vector members whose effect on the shadow is modelled.
static bool isModelledMutation(StringRef Name) {
  return Name == "push_back" || Name == "emplace_back" ||
         Name == "pop_back" || Name == "resize" || Name == "assign" ||
         Name == "clear" || Name == "reserve" || Name == "shrink_to_fit" ||
         Name == "insert" || Name == "erase" || Name == "swap";
}

/// True if \p A and \p B are a pointer range `p, q` (`a, a + n`).
static bool pointerRange(const Expr *A, const Expr *B) {
  return A->getType()->isPointerType() && B->getType()->isPointerType();
}

bool PullbackBuilder::isContainerMutation(const CallExpr *CE) const {
  // `v = w;`, `v = f(x);`, `v = {x, y};` on a std::vector of numbers or
  // plain structs (a vector of vectors keeps its shadow's inner sizes).
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE))
    return OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 &&
           isStdClass(OC->getArg(0)->getType(), "vector") &&
           !shadowIsCopy(OC->getArg(0)->getType());
  const auto *MC = dyn_cast<CXXMemberCallExpr>(CE);
  const auto *MD = MC ? MC->getMethodDecl() : nullptr;
  if (!MD || !MD->getIdentifier() || !isModelledMutation(MD->getName()))
    return false;
  return isStdClass(MC->getImplicitObjectArgument()->getType(), "vector");
}

bool PullbackBuilder::shadowFromCaller(const VarDecl *VD) const {
  const auto *P = dyn_cast<ParmVarDecl>(VD);
  if (!P || !ownParam(P))
    return false;
  for (auto &[LP, A] : LocalParamShadows)
    if (LP == P)
      return false;
  return P->getType()->isReferenceType() ||
         !Act.isDataWritten(P); // (written by-value ones get their own)
}

void PullbackBuilder::resizeShadow(const Expr *Obj, Stmts &Out) {
  const auto *DRE = dyn_cast<DeclRefExpr>(strip(Obj));
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !isStdClass(VD->getType().getNonReferenceType(), "vector") ||
      !Act.isActive(VD) || shadowFromCaller(VD) || !loopLocalSized(VD, Obj))
    return;
  // Shadows are zero during the forward sweep: resizing at the end keeps
  // every element where it belongs.
  Expr *Sh = shadowLValue(*this, B, strip(Obj));
  if (!Sh)
    return;
  Out.push_back(B.memberCall(
      Sh, "resize", {B.memberCall(B.ref(mapVar(VD)), "size", {})}));
}

void PullbackBuilder::recordExitSizes(ArrayRef<const Stmt *> Body,
                                      Stmts &Fwd) {
  if (Loops.empty() || Frames.empty())
    return;
  QualType SizeT = Ctx.getSizeType();
  bool JumpBefore = false; // a jump out of the block before the statement
  for (const Stmt *C : Body) {
    if (const auto *DS = dyn_cast<DeclStmt>(C))
      for (const Decl *D : DS->decls()) {
        const auto *VD = dyn_cast<VarDecl>(D);
        if (!VD ||
            !(isStdClass(VD->getType(), "vector") ||
              shadowIsCopy(VD->getType())) ||
            !Act.isActive(VD))
          continue;
        VarDecl *Z = hoist("_z", SizeT);
        // Zero where a jump leaves the block before the declaration.
        if (JumpBefore)
          Fwd.push_back(B.assign(B.ref(Z), B.intLit(0, SizeT)));
        Frames.back().Recorded.push_back(Z);
        Frames.back().ExitSizes.push_back({Z, VD});
      }
    JumpBefore = JumpBefore || hasJumps(C);
  }
}

void PullbackBuilder::restoreExitSizes(Stmts &Fwd, Stmts &Rev) {
  if (Frames.empty())
    return;
  Stmts Resize;
  for (auto [Z, VD] : Frames.back().ExitSizes) {
    VarDecl *V = mapVar(VD);
    if (!V)
      continue;
    Fwd.push_back(B.assign(B.ref(Z), exitMark(V, VD)));
    // Nothing after the block reads the vector: its adjoint starts at zero
    // (an element owner's shadow as the iteration left it: saved at the
    // exit, after any saves of whole assignments in the block).
    if (VarDecl *Slot = OwnerSlots.lookup(VD))
      Fwd.push_back(B.memberCall(B.ref(Slot), "save", {}));
    if (VarDecl *Slot = OwnerSlots.lookup(VD))
      Resize.push_back(
          B.ifStmt(B.binop(BO_NE, B.ref(Z), B.intLit(0, Ctx.getSizeType())),
                   B.memberCall(B.ref(Slot), "restore", {}), nullptr));
    else
      Resize.push_back(zeroFill(B, B.ref(adjointOf(VD)), B.ref(Z),
                                VD->getType().getCanonicalType()));
  }
  Rev.insert(Rev.begin(), Resize.begin(), Resize.end());
}

void PullbackBuilder::exitSizesAtJump(const Stmt *J, size_t F, Stmts &Fwd) {
  const SourceManager &SM = Ctx.getSourceManager();
  for (auto [Z, VD] : Frames[F].ExitSizes)
    if (VarDecl *V = mapVar(VD);
        V && SM.isBeforeInTranslationUnit(VD->getLocation(), J->getBeginLoc())) {
      Fwd.push_back(B.assign(B.ref(Z), exitMark(V, VD)));
      if (VarDecl *Slot = OwnerSlots.lookup(VD))
        Fwd.push_back(B.memberCall(B.ref(Slot), "save", {}));
    }
}

Expr *PullbackBuilder::exitMark(VarDecl *V, const VarDecl *VD) {
  if (shadowIsCopy(VD->getType()))
    return B.intLit(1, Ctx.getSizeType());
  return B.memberCall(B.ref(V), "size", {});
}

/// True if \p VD is declared in the body (or header) of a loop within \p S.
static bool declaredInLoop(const Stmt *S, const VarDecl *VD, bool InLoop) {
  if (!S)
    return false;
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (D == VD)
        return InLoop;
  bool Loop = isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) ||
              isa<CXXForRangeStmt>(S);
  // (The init statement of a for loop runs once per run of the loop.)
  const auto *FS = dyn_cast<ForStmt>(S);
  for (const Stmt *C : S->children())
    if (declaredInLoop(C, VD, InLoop || (Loop && (!FS || C != FS->getInit()))))
      return true;
  return false;
}

bool PullbackBuilder::loopLocalSized(const VarDecl *VD, const Expr *At) {
  // (Outside loops, no vector in scope is declared in one.)
  if (Loops.empty() || !Act.isActive(VD))
    return true;
  for (const Frame &F : Frames)
    for (auto [Z, V] : F.ExitSizes)
      if (V == VD)
        return true;
  // A vector declared in the header of a loop inside a loop starts every
  // outer iteration afresh: the reverse sweep of an earlier iteration
  // would find its shadow at the size the later one left.
  if (!declaredInLoop(Primal->getBody(), VD, false))
    return true;
  unsupported(At, "size change of '" + VD->getNameAsString() +
                      "', a std::vector declared in the header of a loop "
                      "inside a loop (declare it before the inner loop)");
  return false;
}

/// One call that changes a local std::vector, with what containerMutation
/// learns of it: the operands, the forward call's arguments, and what the
/// reverse sweep needs to undo it.
struct PullbackBuilder::VectorMutation {
  const CallExpr *CE;
  const CXXOperatorCallExpr *OC; // `v = ...`
  const CXXMemberCallExpr *MC;   // `v.name(...)`
  const CXXMethodDecl *MD;
  StringRef Name;
  const Expr *Obj;
  const VarDecl *VD;
  SmallVector<const Expr *, 2> Args;
  bool Assign = false; // assign or operator=
  Expr *V = nullptr;   // the vector in the forward sweep
  const Expr *Elem = nullptr; // the inserted value, if it has an adjoint
  VarDecl *Old = nullptr, *Pos = nullptr, *Count = nullptr;
  const Expr *From = nullptr;   // the first pointer of a source range
  const Expr *Whole = nullptr;  // `v = w`: the vector whose value v takes
  const VarDecl *Other = nullptr; // v.swap(w): w
  // v.assign({x, y}), v.insert(pos, {x, y}): the braced elements.
  const InitListExpr *List = nullptr;
  SmallVector<Expr *, 2> FArgs; // the forward call's arguments
  // For the reverse sweep: the vector's shadow, whether the inserted
  // value is active, and its type.
  Expr *Sh = nullptr;
  bool ElemActive = false;
  QualType ET;
};

VarDecl *PullbackBuilder::recordMutatedSize(VectorMutation &M) {
  VarDecl *O = hoist("_o", Ctx.getSizeType());
  Cur->push_back(B.assign(B.ref(O), B.memberCall(M.V, "size", {})));
  if (!Loops.empty() && !Frames.empty())
    Frames.back().Recorded.push_back(O);
  return O;
}

void PullbackBuilder::recordMutationPosition(VectorMutation &M,
                                             Expr *CountExpr) {
  QualType DiffT = Ctx.getPointerDiffType();
  M.Pos = hoist("_k", DiffT);
  Cur->push_back(B.assign(
      B.ref(M.Pos),
      B.binop(BO_Sub, plain(M.Args[0]), B.memberCall(M.V, "begin", {}))));
  if (CountExpr) {
    M.Count = hoist("_c", DiffT);
    Cur->push_back(B.assign(B.ref(M.Count), CountExpr));
  }
  for (VarDecl *R : {M.Pos, M.Count})
    if (R && !Loops.empty() && !Frames.empty())
      Frames.back().Recorded.push_back(R);
  M.FArgs.push_back(
      B.binop(BO_Add, B.memberCall(M.V, "begin", {}), B.ref(M.Pos)));
}

bool PullbackBuilder::forwardBracedElements(VectorMutation &M) {
  if (M.Assign)
    M.Old = recordMutatedSize(M);
  else
    recordMutationPosition(M, nullptr);
  SmallVector<Expr *, 4> Vals;
  for (const Expr *E : M.List->inits())
    Vals.push_back(fwd(E, false));
  if (llvm::is_contained(Vals, nullptr)) {
    Failed = true;
    return false;
  }
  ExprResult IL = S.ActOnInitList(B.Loc, Vals, B.Loc);
  if (IL.isInvalid())
    return unsupported(M.Args.back(),
                       "the braces " + spelled(M.Args.back())),
           false;
  M.FArgs.push_back(IL.get());
  return true;
}

bool PullbackBuilder::forwardSwapOperand(VectorMutation &M) {
  const auto *W = dyn_cast<DeclRefExpr>(
      M.Args.size() == 1 ? strip(M.Args[0]) : nullptr);
  M.Other = W ? dyn_cast<VarDecl>(W->getDecl()) : nullptr;
  // (A shadow from the caller holds the adjoints of the vector on exit,
  // sized like it; the swap in the reverse sweep exchanges it with the
  // other shadow like any.)
  if (!M.Other || !mapVar(M.Other) ||
      Act.isActive(M.Other) != Act.isActive(M.VD) ||
      (Act.isAlias(M.Other) && !Act.isOwner(M.Other)))
    return unsupported(M.CE, "call to 'swap' on " + spelled(M.Obj) +
                                 " with " +
                                 (M.Args.empty() ? std::string("?")
                                                 : spelled(M.Args[0])) +
                                 " (swap two std::vector variables that "
                                 "both carry derivatives, or neither)"),
           false;
  M.FArgs.push_back(B.ref(mapVar(M.Other)));
  return true;
}

bool PullbackBuilder::forwardInsertOperands(VectorMutation &M) {
  ArrayRef<const Expr *> Args = M.Args;
  // (The value as converted to the element type: `v.insert(p, 2, 0)`.)
  bool One = Args.size() == 2 && isFloating(Args[1]->getType());
  bool Fill = Args.size() == 3 &&
              Args[1]->getType()->isIntegralOrEnumerationType() &&
              isFloating(Args[2]->getType());
  bool Range = Args.size() == 3 && pointerRange(Args[1], Args[2]);
  if (!One && !Fill && !Range)
    return unsupported(M.CE, "call to 'insert' with these arguments (insert "
                             "one value, a count of one value, or a pointer "
                             "range at a position)"),
           false;
  QualType DiffT = Ctx.getPointerDiffType();
  recordMutationPosition(
      M, One    ? nullptr
         : Fill ? B.staticCast(DiffT, plain(Args[1]))
                : B.binop(BO_Sub, plain(Args[2]), plain(Args[1])));
  if (Range) {
    M.From = Args[1];
    M.FArgs.push_back(memoryActive(M.From) ? rebuildBase(strip(M.From), true)
                                           : plain(M.From));
    M.FArgs.push_back(plain(Args[2]));
  } else {
    M.Elem = Args.back();
    if (Fill)
      M.FArgs.push_back(B.ref(M.Count));
    M.FArgs.push_back(fwd(Args.back(), false));
  }
  return true;
}

bool PullbackBuilder::forwardEraseOperands(VectorMutation &M) {
  ArrayRef<const Expr *> Args = M.Args;
  if (Args.empty() || Args.size() > 2)
    return unsupported(M.CE, "call to 'erase' with these arguments"), false;
  QualType DiffT = Ctx.getPointerDiffType();
  // The position (and the count) as indices: iterators do not survive
  // the mutation.
  auto Index = [&](const Expr *It) {
    return B.binop(BO_Sub, plain(It), B.memberCall(M.V, "begin", {}));
  };
  M.Pos = hoist("_k", DiffT);
  Cur->push_back(B.assign(B.ref(M.Pos), Index(Args[0])));
  if (Args.size() == 2) {
    M.Count = hoist("_c", DiffT);
    Cur->push_back(B.assign(
        B.ref(M.Count), B.binop(BO_Sub, Index(Args[1]), B.ref(M.Pos))));
  }
  for (VarDecl *R : {M.Pos, M.Count})
    if (R && !Loops.empty() && !Frames.empty())
      Frames.back().Recorded.push_back(R);
  M.FArgs.push_back(
      B.binop(BO_Add, B.memberCall(M.V, "begin", {}), B.ref(M.Pos)));
  if (M.Count)
    M.FArgs.push_back(B.binop(
        BO_Add, B.memberCall(M.V, "begin", {}),
        B.paren(B.binop(BO_Add, B.ref(M.Pos), B.ref(M.Count)))));
  return true;
}

bool PullbackBuilder::forwardMutationOperands(VectorMutation &M) {
  ArrayRef<const Expr *> Args = M.Args;
  StringRef Name = M.Name;
  if (M.List)
    return forwardBracedElements(M);
  if (M.OC) {
    M.Old = recordMutatedSize(M);
    M.Whole = Args[0];
    M.FArgs.push_back(fwd(Args[0], false));
  } else if (Name == "push_back" || Name == "emplace_back") {
    if (Args.size() > 1)
      return unsupported(M.CE, "call to '" + Name.str() +
                                   "' with more than one argument"),
             false;
    if (!Args.empty()) {
      M.Elem = Args[0];
      M.FArgs.push_back(fwd(Args[0], false));
    }
  } else if (Name == "assign" && Args.size() == 2 &&
             pointerRange(Args[0], Args[1])) {
    // v.assign(p, q): the elements come from memory; the reverse sweep
    // reads its shadow where the forward sweep read the elements.
    M.Old = recordMutatedSize(M);
    M.From = Args[0];
    M.FArgs.push_back(memoryActive(M.From) ? rebuildBase(strip(M.From), true)
                                           : plain(M.From));
    M.FArgs.push_back(plain(Args[1]));
  } else if (Name == "swap") {
    return forwardSwapOperand(M);
  } else if (Name == "resize" || Name == "assign") {
    if (Args.empty() || Args.size() > 2 ||
        !Args[0]->getType()->isIntegralOrEnumerationType())
      return unsupported(M.CE, "call to '" + Name.str() +
                                   "' with these arguments (use a count and "
                                   "a value, or two pointers)"),
             false;
    M.Old = recordMutatedSize(M);
    M.FArgs.push_back(plain(Args[0]));
    if (Args.size() == 2) {
      M.Elem = Args[1];
      M.FArgs.push_back(fwd(Args[1], false));
    }
  } else if (Name == "clear") {
    M.Old = recordMutatedSize(M);
  } else if (Name == "insert") {
    return forwardInsertOperands(M);
  } else if (Name == "erase") {
    return forwardEraseOperands(M);
  } else {
    // pop_back, reserve, shrink_to_fit: no operands.
    for (const Expr *A : Args)
      M.FArgs.push_back(plain(A));
  }
  return true;
}

void PullbackBuilder::mutatedElementsToRange(VectorMutation &M, Expr *At,
                                             Expr *N, Stmts &R) {
  if (!memoryActive(M.From))
    return;
  VarDecl *K = B.var(PB, fresh("_i"), Ctx.getPointerDiffType(),
                     B.intLit(0, Ctx.getPointerDiffType()));
  Expr *Src = B.subscript(shadowPointer(*this, B, strip(M.From)), B.ref(K));
  Expr *Dst = B.subscript(shadowLValue(*this, B, M.Obj),
                          At ? B.binop(BO_Add, At, B.ref(K)) : B.ref(K));
  R.push_back(B.forStmt(B.declStmt(K), B.binop(BO_LT, B.ref(K), N),
                        B.unop(UO_PreInc, B.ref(K)), B.addAssign(Src, Dst)));
}

void PullbackBuilder::undoBracedElements(VectorMutation &M, Stmts &R,
                                         MutationFlows &Flows) {
  // Each element's adjoint back to its value; the shadow loses them
  // again (insert) or gets its old size back (assign).
  const Expr *Obj = M.Obj;
  QualType DiffT = Ctx.getPointerDiffType();
  QualType ElT = elementTypeOf(Ctx, Obj->getType().getNonReferenceType());
  for (unsigned I = 0; I < M.List->getNumInits(); ++I) {
    const Expr *E = M.List->getInit(I);
    if (!Act.isActive(strip(E)))
      continue;
    Expr *K = B.intLit(I, DiffT);
    if (M.Pos)
      K = I ? B.binop(BO_Add, B.ref(M.Pos), K) : B.ref(M.Pos);
    VarDecl *A = bind(B.subscript(shadowLValue(*this, B, Obj), K), ElT, R);
    Flows.push_back({E, A});
  }
  Expr *N = B.intLit(M.List->getNumInits(), DiffT);
  if (M.Pos)
    R.push_back(B.memberCall(
        shadowLValue(*this, B, Obj), "erase",
        {B.binop(BO_Add,
                 B.memberCall(shadowLValue(*this, B, Obj), "begin", {}),
                 B.ref(M.Pos)),
         B.binop(BO_Add,
                 B.memberCall(shadowLValue(*this, B, Obj), "begin", {}),
                 B.paren(B.binop(BO_Add, B.ref(M.Pos), N)))}));
  else
    R.push_back(B.memberCall(shadowLValue(*this, B, Obj), "assign",
                             {B.ref(M.Old), B.zero(ElT)}));
}

void PullbackBuilder::undoCountedInsert(VectorMutation &M, Stmts &R,
                                        MutationFlows &Flows) {
  // The inserted elements' adjoints: back to the range they came from,
  // or summed into the value they copy.
  const Expr *Obj = M.Obj;
  if (M.From) {
    mutatedElementsToRange(M, B.ref(M.Pos), B.ref(M.Count), R);
  } else if (M.ElemActive) {
    VarDecl *Sum = B.var(PB, fresh("_s"), M.ET, B.zero(M.ET));
    R.push_back(B.declStmt(Sum));
    VarDecl *K = B.var(PB, fresh("_i"), Ctx.getPointerDiffType(),
                       B.intLit(0, Ctx.getPointerDiffType()));
    R.push_back(B.forStmt(
        B.declStmt(K), B.binop(BO_LT, B.ref(K), B.ref(M.Count)),
        B.unop(UO_PreInc, B.ref(K)),
        B.addAssign(B.ref(Sum),
                    B.subscript(shadowLValue(*this, B, Obj),
                                B.binop(BO_Add, B.ref(M.Pos), B.ref(K))))));
    Flows.push_back({M.Elem, Sum});
  }
  Expr *First = B.binop(BO_Add,
                        B.memberCall(shadowLValue(*this, B, Obj), "begin", {}),
                        B.ref(M.Pos));
  Expr *Last = B.binop(
      BO_Add, B.memberCall(shadowLValue(*this, B, Obj), "begin", {}),
      B.paren(B.binop(BO_Add, B.ref(M.Pos), B.ref(M.Count))));
  R.push_back(
      B.memberCall(shadowLValue(*this, B, Obj), "erase", {First, Last}));
}

void PullbackBuilder::undoErase(VectorMutation &M, Stmts &R) {
  // Nothing after the call reads the erased elements: their adjoints are
  // zero where they come back.
  Expr *At = B.binop(BO_Add, B.memberCall(M.Sh, "begin", {}), B.ref(M.Pos));
  QualType ElT = elementTypeOf(Ctx, M.Obj->getType().getNonReferenceType());
  Expr *Zero = ElT->isRecordType() ? recordZero(B, ElT) : B.zero(ElT);
  SmallVector<Expr *, 3> IArgs{At};
  if (M.Count)
    IArgs.push_back(B.staticCast(Ctx.getSizeType(), B.ref(M.Count)));
  IArgs.push_back(Zero);
  R.push_back(B.memberCall(shadowLValue(*this, B, M.Obj), "insert", IArgs));
}

void PullbackBuilder::undoResize(VectorMutation &M, Stmts &R,
                                 MutationFlows &Flows) {
  // resize, assign, clear: the new elements' adjoints flow into the
  // value they were made from; the shadow gets its old size back.
  const Expr *Obj = M.Obj;
  QualType SizeT = Ctx.getSizeType();
  if (M.ElemActive) {
    VarDecl *Sum = B.var(PB, fresh("_s"), M.ET, B.zero(M.ET));
    R.push_back(B.declStmt(Sum));
    VarDecl *K = B.var(PB, fresh("_i"), SizeT,
                       M.Name == "resize" ? B.ref(M.Old)
                                          : B.intLit(0, SizeT));
    R.push_back(B.forStmt(
        B.declStmt(K),
        B.binop(BO_LT, B.ref(K),
                B.memberCall(shadowLValue(*this, B, Obj), "size", {})),
        B.unop(UO_PreInc, B.ref(K)),
        B.addAssign(B.ref(Sum),
                    B.subscript(shadowLValue(*this, B, Obj), B.ref(K)))));
    Flows.push_back({M.Elem, Sum});
  }
  if (M.Name == "resize")
    R.push_back(B.memberCall(shadowLValue(*this, B, Obj), "resize",
                             {B.ref(M.Old)}));
  else
    R.push_back(B.memberCall(shadowLValue(*this, B, Obj), "assign",
                             {B.ref(M.Old), B.zero(M.ET)}));
}

void PullbackBuilder::undoMutation(VectorMutation &M, Stmts &R,
                                   MutationFlows &Flows) {
  const Expr *Obj = M.Obj;
  StringRef Name = M.Name;
  Expr *Sh = M.Sh;
  if (M.List) {
    undoBracedElements(M, R, Flows);
  } else if (M.Whole) {
    // The new value's adjoint goes to what it was copied (or computed)
    // from; the shadow gets the old size back, zero.
    QualType VT = Obj->getType().getNonReferenceType().getCanonicalType()
                      .getUnqualifiedType();
    VarDecl *A = B.var(PB, fresh("_r"), VT, shadowLValue(*this, B, Obj));
    R.push_back(B.declStmt(A));
    R.push_back(zeroFill(B, shadowLValue(*this, B, Obj), B.ref(M.Old), VT));
    if (Act.isActive(strip(M.Whole)))
      Flows.push_back({M.Whole, A});
  } else if (Name == "swap") {
    R.push_back(B.memberCall(Sh, "swap",
                             {shadowLValue(*this, B, strip(M.Args[0]))}));
  } else if (M.From && Name == "assign") {
    mutatedElementsToRange(
        M, nullptr,
        B.staticCast(Ctx.getPointerDiffType(),
                     B.memberCall(shadowLValue(*this, B, Obj), "size", {})),
        R);
    R.push_back(B.memberCall(
        shadowLValue(*this, B, Obj), "assign",
        {B.ref(M.Old),
         B.zero(elementTypeOf(Ctx, Obj->getType().getNonReferenceType()))}));
  } else if (Name == "insert" && M.Count) {
    undoCountedInsert(M, R, Flows);
  } else if (Name == "push_back" || Name == "emplace_back") {
    if (M.ElemActive) {
      VarDecl *A = bind(B.memberCall(Sh, "back", {}), M.ET, R);
      R.push_back(B.memberCall(shadowLValue(*this, B, Obj), "pop_back", {}));
      Flows.push_back({M.Elem, A});
    } else {
      R.push_back(B.memberCall(Sh, "pop_back", {}));
    }
  } else if (Name == "pop_back") {
    R.push_back(B.memberCall(Sh, "emplace_back", {}));
  } else if (Name == "erase") {
    undoErase(M, R);
  } else if (Name == "insert") {
    Expr *At = B.subscript(Sh, B.ref(M.Pos));
    if (M.ElemActive) {
      VarDecl *A = bind(At, M.ET, R);
      Flows.push_back({M.Elem, A});
    }
    Expr *S2 = shadowLValue(*this, B, Obj);
    R.push_back(B.memberCall(
        S2, "erase",
        {B.binop(BO_Add,
                 B.memberCall(shadowLValue(*this, B, Obj), "begin", {}),
                 B.ref(M.Pos))}));
  } else {
    undoResize(M, R, Flows);
  }
}

Expr *PullbackBuilder::containerMutation(const CallExpr *CE) {
  VectorMutation M;
  M.CE = CE;
  M.OC = dyn_cast<CXXOperatorCallExpr>(CE);
  M.MC = dyn_cast<CXXMemberCallExpr>(CE);
  M.MD = cast<CXXMethodDecl>(CE->getDirectCallee());
  StringRef Name = M.Name = M.OC ? "operator=" : M.MD->getName();
  const Expr *Obj = M.Obj = strip(
      M.OC ? M.OC->getArg(0) : M.MC->getImplicitObjectArgument());
  const auto *DRE = dyn_cast<DeclRefExpr>(Obj);
  const VarDecl *VD = M.VD =
      DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !mapVar(VD) || (Act.isAlias(VD) && !Act.isOwner(VD)))
    return unsupported(CE, "call to '" + Name.str() + "' on " +
                               spelled(Obj) +
                               " (a std::vector that is not a variable)");
  if (Name != "reserve" && Name != "shrink_to_fit" &&
      !loopLocalSized(VD, CE))
    return nullptr;
  if (M.OC)
    M.Args.push_back(M.OC->getArg(1));
  else
    for (const Expr *A : M.MC->arguments())
      if (!isa<CXXDefaultArgExpr>(A))
        M.Args.push_back(A);
  M.Assign = Name == "assign" || Name == "operator=";
  M.V = B.ref(mapVar(VD));
  M.List =
      M.Args.size() == (Name == "insert" ? 2u : 1u) &&
              (Name == "insert" || M.Assign) &&
              isFloating(elementTypeOf(Ctx, Obj->getType().getNonReferenceType()))
          ? bracedElements(M.Args.back())
          : nullptr;
  // The forward call, with the element values as the forward sweep
  // computes them (recorded for their own backprop).
  if (!forwardMutationOperands(M) || Failed)
    return nullptr;
  ArrayRef<Expr *> FArgs = M.FArgs;
  Expr *Call =
      M.OC ? B.binop(BO_Assign, B.ref(mapVar(VD)), FArgs.empty() ? nullptr : FArgs[0])
           : B.memberCall(B.ref(mapVar(VD)), M.MD->getDeclName(), FArgs);
  Cur->push_back(Call);
  if (Name != "reserve" && Name != "shrink_to_fit")
    resizeShadow(Obj, *Cur);
  if (M.Other)
    resizeShadow(strip(M.Args[0]), *Cur);
  SideEffectCalls.insert(strip(CE));
  if (!Act.isActive(VD) || Name == "reserve" || Name == "shrink_to_fit")
    return Call;

  // The reverse sweep undoes the mutation on the shadow; the values that
  // went in receive the adjoints of the elements they became.
  Stmts R;
  // The adjoints of the values that went in, read before the shadow is
  // restored and passed on after it (a value may read the vector itself:
  // `v.insert(v.begin(), v[0] * y)`).
  MutationFlows Flows;
  M.Sh = shadowLValue(*this, B, Obj);
  if (!M.Sh)
    return nullptr;
  M.ElemActive = M.Elem && Act.isActive(strip(M.Elem));
  M.ET = M.Elem ? strip(M.Elem)->getType().getNonReferenceType()
                      .getUnqualifiedType()
                : Ctx.DoubleTy;
  undoMutation(M, R, Flows);
  // Last element first: the forward sweep evaluated them in order, and
  // split callees among them pop their frames in the opposite order.
  for (auto It = Flows.rbegin(); It != Flows.rend(); ++It)
    backprop(It->first, B.ref(It->second), R);
  if (!Frames.empty())
    Frames.back().SideRev.push_back(std::move(R));
  return Call;
}

} // namespace grad
