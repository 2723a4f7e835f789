//===- Loops.cpp - Loops, jumps and the tape --------------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Loops replay forward counting their iterations; the reverse sweep runs
/// the reversed body that many times. Inside loops, values the reverse
/// sweep reads are pushed on a `grad::tape` at the end of the statement
/// that recorded them and popped at the start of its reverse block. A
/// `break`, `continue` or early `return` pushes what the statements it
/// leaves would have pushed, plus a jump id per loop it leaves; reverse
/// blocks after a statement that may jump run only if no jump was taken.
/// Canonical counted loops (`for (int i = a; i < b; ++i)`, i not written
/// in the body) recompute their index in the reverse loop: no tape for it.
///
//===----------------------------------------------------------------------===//

#include "ast/Diagnostics.h"
#include "analysis/Jumps.h"
#include "reverse/PullbackBuilder.h"
#include "ast/Records.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Sema/Sema.h"
#include <optional>

using namespace clang;

namespace grad {

VarDecl *PullbackBuilder::tapeFor(QualType T) {
  T = T.getCanonicalType().getUnqualifiedType();
  auto It = Tapes.find(T.getTypePtr());
  if (It != Tapes.end())
    return It->second;
  QualType TT = B.runtimeType("tape", T);
  if (TT.isNull()) {
    D.needRuntime(B.Loc, Entry);
    Failed = true;
    return nullptr;
  }
  VarDecl *V = B.var(PB, fresh("_tape"), TT, nullptr);
  Prologue.push_back(B.declStmt(V));
  Tapes[T.getTypePtr()] = V;
  return V;
}

ParmVarDecl *PullbackBuilder::stackParam() const {
  if (Half == SplitHalf::None || !Entry.HalvesTakeStack ||
      PB->getNumParams() == 0)
    return nullptr;
  return PB->getParamDecl(PB->getNumParams() - 1);
}

VarDecl *PullbackBuilder::stackVar() {
  if (Stack)
    return Stack;
  // grad::detail::stack &_stack = grad::detail::thread_stack();
  Expr *Init = B.callRuntime("thread_stack", {}, {}, true);
  if (!Init) {
    D.needRuntime(B.Loc, Entry);
    Failed = true;
    return nullptr;
  }
  QualType RefT = Ctx.getLValueReferenceType(Init->getType());
  Stack = B.var(PB, fresh("_stack_"), RefT, Init);
  Prologue.insert(Prologue.begin(), B.declStmt(Stack));
  // The full pullback leaves the stack as it found it, even when the
  // primal throws; the halves of a split derivative hand data over.
  if (Half == SplitHalf::None) {
    QualType MarkT = B.runtimeDetailType("stack_mark");
    VarDecl *Mark = MarkT.isNull() ? nullptr
                                   : B.var(PB, fresh("_mark_"), MarkT,
                                           B.ref(Stack), /*Direct=*/true);
    if (!Mark) {
      Failed = true;
      return nullptr;
    }
    Prologue.insert(Prologue.begin() + 1, B.declStmt(Mark));
    // (Declared after the mark: destroyed before it resets the top.)
    if (D.options().Verify)
      if (VarDecl *V = verifyTape(Stack))
        Prologue.insert(Prologue.begin() + 2, B.declStmt(V));
  }
  return Stack;
}

Stmt *PullbackBuilder::pushValue(Expr *E, QualType T) {
  VarDecl *St = stackVar();
  if (!St)
    return nullptr;
  return B.memberCall(B.ref(St), "push", {E});
}

Stmt *PullbackBuilder::push(VarDecl *V) {
  return pushValue(B.ref(V), V->getType());
}

Stmt *PullbackBuilder::pop(VarDecl *V) {
  VarDecl *St = stackVar();
  if (!St)
    return nullptr;
  return B.memberCall(B.ref(St), "pop", {B.ref(V)});
}

void PullbackBuilder::pushFrame(ArrayRef<VarDecl *> Vs, Stmts &Fwd,
                                Stmts &Rev) {
  // One push_all (one check for room) for a statement's values, in chunks
  // as a split half's frame; one pop_all per chunk, last chunk first.
  constexpr size_t Chunk = 32;
  if (Vs.size() == 1) {
    Fwd.push_back(push(Vs[0]));
    Rev.push_back(pop(Vs[0]));
    return;
  }
  VarDecl *St = Vs.empty() ? nullptr : stackVar();
  if (!St)
    return;
  SmallVector<Expr *, 8> Refs;
  for (VarDecl *V : Vs)
    Refs.push_back(B.ref(V));
  for (size_t I = 0; I < Vs.size(); I += Chunk)
    Fwd.push_back(B.memberCall(
        B.ref(St), "push_all",
        ArrayRef(Refs).slice(I, std::min(Chunk, Vs.size() - I))));
  for (size_t I = (Vs.size() + Chunk - 1) / Chunk; I-- > 0;) {
    SmallVector<Expr *, 8> Into;
    for (size_t J = I * Chunk; J < std::min(Vs.size(), (I + 1) * Chunk); ++J)
      Into.push_back(B.ref(Vs[J]));
    Rev.push_back(B.memberCall(B.ref(St), "pop_all", Into));
  }
}

void PullbackBuilder::flush(size_t From, Stmts &Out) {
  for (size_t F = Frames.size(); F-- > From;)
    for (VarDecl *V : Frames[F].Recorded)
      Out.push_back(push(V));
}

PullbackBuilder::LoopInfo *PullbackBuilder::newLoop(bool Jumps) {
  auto Info = std::make_unique<LoopInfo>();
  LoopInfo *LI = Info.get();
  LoopStore.push_back(std::move(Info));
  LI->Nested = !Loops.empty();
  LI->Count = hoist("_n", Ctx.getSizeType());
  if (Jumps)
    LI->Flag = hoist("_j", Ctx.getSizeType());
  return LI;
}

std::pair<VarDecl *, unsigned *> PullbackBuilder::jumpScope() {
  if (!Loops.empty())
    return {Loops.back()->Flag, &Loops.back()->NextId};
  return {RetFlag, &NextRetId};
}

void PullbackBuilder::unlessJumped(VarDecl *Flag, unsigned Before,
                                   Stmts &Rev) {
  if (!Flag || Rev.empty())
    return;
  // Ran only if no jump with an id below Before was taken.
  Expr *NoJump = B.binop(
      BO_LOr, B.binop(BO_EQ, B.ref(Flag), B.intLit(0, Flag->getType())),
      B.binop(BO_GE, B.ref(Flag), B.intLit(Before, Flag->getType())));
  Stmt *Guarded = B.ifStmt(NoJump, B.block(Rev), nullptr);
  Rev.assign(1, Guarded);
}

void PullbackBuilder::sequence(ArrayRef<const Stmt *> Body, Stmts &Fwd,
                               Stmts &Rev) {
  auto [Flag, NextId] = jumpScope();
  unsigned Start = *NextId;
  std::vector<Stmts> Blocks;
  for (const Stmt *Child : Body) {
    unsigned Before = *NextId;
    Stmts R;
    stmt(Child, Fwd, R);
    if (Failed)
      continue; // the next statements still report their own errors
    if (Before > Start)
      unlessJumped(Flag, Before, R);
    Blocks.push_back(std::move(R));
  }
  if (Failed)
    return;
  for (auto It = Blocks.rbegin(); It != Blocks.rend(); ++It)
    Rev.insert(Rev.end(), It->begin(), It->end());
}

void PullbackBuilder::jump(const Stmt *J, Stmts &Fwd, Stmts &Rev) {
  const auto *RS = dyn_cast<ReturnStmt>(J);
  modelled(J);
  if (RS) {
    const Expr *RV = RS->getRetValue();
    bool Active = RV && Sig.SeedIndex >= 0 &&
                  Act.isActive(RV->IgnoreParenImpCasts());
    if (returnsWritableReference(Primal)) {
      if (!referenceReturn(RV, Fwd))
        return;
    } else if (Half != SplitHalf::None && RV) {
      // The forward half returns the value at the end of its sweep.
      Fwd.push_back(setReturnValue(fwd(RV, false)));
      if (Active)
        backprop(RV, B.ref(param(Sig.SeedIndex)), Rev);
    } else if (Active) {
      fwd(RV, false);
      backprop(RV, B.ref(param(Sig.SeedIndex)), Rev);
    }
  } else if (Loops.empty()) {
    unsupported(J, constructName(J));
    return;
  }
  // Push what every statement being left would have pushed at its end.
  size_t Target = RS ? 0 : Loops.back()->BodyFrame;
  size_t LoopIdx = Loops.size();
  for (size_t F = Frames.size(); F-- > Target;) {
    exitSizesAtJump(J, F, Fwd);
    Frames[F].JumpedOut = true;
    for (VarDecl *V : Frames[F].Recorded)
      Fwd.push_back(push(V));
    if (LoopIdx == 0 || F != Loops[LoopIdx - 1]->BodyFrame)
      continue;
    LoopInfo *L = Loops[--LoopIdx];
    // This iteration ends here: its jump id.
    Fwd.push_back(pushValue(B.intLit(L->NextId++, Ctx.getSizeType()),
                            Ctx.getSizeType()));
    if (!RS)
      break;
    // A return leaves the loop: what follows the loop would push.
    if (L->Nested)
      Fwd.push_back(push(L->Count));
  }
  if (!RS) {
    Fwd.push_back(isa<BreakStmt>(J) ? B.breakStmt() : B.continueStmt());
    return;
  }
  if (RetFlag) {
    Fwd.push_back(B.assign(B.ref(RetFlag),
                           B.intLit(NextRetId++, RetFlag->getType())));
    Fwd.push_back(B.gotoStmt(FwdEnd));
  }
}

/// The parts of for, while or do loop \p L; true if it declares a
/// condition variable.
static bool loopParts(const Stmt *L, const Stmt *&Init, const Expr *&Cond,
                      const Expr *&Inc, const Stmt *&Body) {
  if (const auto *FS = dyn_cast<ForStmt>(L)) {
    Init = FS->getInit();
    Cond = FS->getCond();
    Inc = FS->getInc();
    Body = FS->getBody();
    return FS->getConditionVariable();
  }
  if (const auto *WS = dyn_cast<WhileStmt>(L)) {
    Cond = WS->getCond();
    Body = WS->getBody();
    return WS->getConditionVariable();
  }
  if (const auto *DS = dyn_cast<DoStmt>(L)) {
    Cond = DS->getCond();
    Body = DS->getBody();
  }
  return false;
}

/// The forward loop: \p L's kind, with the rebuilt parts.
static Stmt *rebuiltLoop(SemaBuilder &B, const Stmt *L, Stmt *Init,
                         Expr *Cond, Expr *Inc, Stmt *Body) {
  if (isa<ForStmt>(L))
    return B.forStmt(Init, Cond, Inc, Body);
  if (isa<WhileStmt>(L))
    return B.whileStmt(Cond, Body);
  return B.doStmt(Body, Cond);
}

const BinaryOperator *PullbackBuilder::recomputableBound(const VarDecl *Index,
                                                         int Step,
                                                         const Expr *Cond) {
  if (const auto *C = dyn_cast_or_null<BinaryOperator>(
          Cond ? Cond->IgnoreParenImpCasts() : nullptr)) {
    const auto *L = dyn_cast<DeclRefExpr>(C->getLHS()->IgnoreParenImpCasts());
    BinaryOperatorKind Op = C->getOpcode();
    bool Up = Op == BO_LT || Op == BO_LE || Op == BO_NE;
    bool Down = Op == BO_GT || Op == BO_GE || Op == BO_NE;
    if (L && L->getDecl() == Index && recomputable(C->getRHS()) &&
        ((Step > 0 && Up) || (Step < 0 && Down)))
      return C;
  }
  return nullptr;
}

Stmt *PullbackBuilder::loopIndexInit(const VarDecl *Index, bool Bound,
                                     Stmts &Outer, VarDecl *&IndexStart) {
  Stmts *Saved = Cur;
  Cur = &Outer;
  Expr *A = rebuild(Index->getInit(), false, true);
  if (!Bound) {
    // The start value, recorded; the index itself is recomputed.
    QualType IT = Index->getType().getUnqualifiedType();
    IndexStart = hoist("_t", IT);
    Outer.push_back(B.assign(B.ref(IndexStart), A));
    if (!Frames.empty() && !Loops.empty())
      Frames.back().Recorded.push_back(IndexStart);
    A = B.ref(IndexStart);
  }
  VarDecl *NV = B.var(PB, Index->getName(), Index->getType(), A);
  VarMap[Index] = NV;
  Cur = Saved;
  return B.declStmt(NV);
}

Stmt *PullbackBuilder::recomputeTripCount(LoopInfo *LI, const VarDecl *Index,
                                          const BinaryOperator *Bound,
                                          int Step) {
  // n = max(0, b - a) (+1 for <= and >=).
  Expr *A = val(Index->getInit()), *Bv = val(Bound->getRHS());
  if (!A || !Bv)
    return nullptr; // val() reported why
  // Folded where it reads better: `n - 1 - 0 + 1` is `n`.
  auto IntValue = [&](const Expr *E) -> std::optional<llvm::APSInt> {
    if (!E || E->isValueDependent())
      return std::nullopt;
    return E->getIntegerConstantExpr(Ctx);
  };
  auto Sub = [&](Expr *X, Expr *Y) {
    auto V = IntValue(Y);
    return V && *V == 0 ? X : B.binop(BO_Sub, X, Y);
  };
  Expr *Diff = Step > 0 ? Sub(Bv, A) : Sub(A, Bv);
  BinaryOperatorKind Op = Bound->getOpcode();
  bool Incl = Op == BO_LE || Op == BO_GE;
  if (Incl) {
    const auto *BO = Diff ? dyn_cast<BinaryOperator>(
                                Diff->IgnoreParenImpCasts())
                          : nullptr;
    auto One = BO && BO->getOpcode() == BO_Sub ? IntValue(BO->getRHS())
                                               : std::nullopt;
    if (One && *One == 1 && BO->getLHS()->getType() == Diff->getType())
      Diff = const_cast<Expr *>(BO->getLHS());
    else
      Diff = B.binop(BO_Add, Diff, B.intLit(1, Diff ? Diff->getType()
                                                    : Ctx.IntTy));
  }
  Expr *Pos = B.binop(BO_GT, Diff, B.intLit(0, Diff ? Diff->getType()
                                                     : Ctx.IntTy));
  Expr *Zero = B.intLit(0, Ctx.getSizeType());
  // Diff appears twice: it is built from fresh val() nodes over values
  // that do not change, so sharing the node is safe.
  return B.assign(
      B.ref(LI->Count),
      B.cond(Pos, B.staticCast(Ctx.getSizeType(), Diff),
             Zero));
}

VarDecl *PullbackBuilder::reverseLoopIndex(LoopInfo *LI, const VarDecl *Index,
                                           VarDecl *IndexStart, int Step) {
  Expr *K = B.staticCast(Index->getType().getUnqualifiedType(),
                         B.ref(LI->Count));
  Expr *Start = IndexStart ? B.ref(IndexStart) : val(Index->getInit());
  VarDecl *RI = B.var(PB, Index->getName(),
                      Index->getType().getUnqualifiedType(),
                      B.binop(Step > 0 ? BO_Add : BO_Sub, Start, K));
  RevIndex[Index] = RI;
  return RI;
}

void PullbackBuilder::plainLoopHeader(const Expr *Cond, const Expr *Inc,
                                      Expr *&FCond, Expr *&FInc) {
  NoHoistScope NH(*this, "in a loop condition or increment");
  FCond = Cond ? plain(Cond) : nullptr;
  FInc = Inc ? plain(Inc) : nullptr;
}

Stmts PullbackBuilder::countedLoopReverseBody(LoopInfo *LI, VarDecl *RI,
                                              Stmts &Again, Stmts &BodyRev) {
  Stmts RevBody;
  RevBody.push_back(B.unop(UO_PreDec, B.ref(LI->Count)));
  if (RI)
    RevBody.push_back(B.declStmt(RI));
  if (LI->Flag)
    RevBody.push_back(pop(LI->Flag));
  RevBody.insert(RevBody.end(), Again.begin(), Again.end());
  RevBody.insert(RevBody.end(), BodyRev.begin(), BodyRev.end());
  return RevBody;
}

void PullbackBuilder::countedLoopBody(const Stmt *Body, LoopInfo *LI,
                                      const VarDecl *Index,
                                      const ForStmt *Recomputable,
                                      Stmts &BodyFwd, Stmts &BodyRev,
                                      Stmts &Again) {
  Loops.push_back(LI);
  LI->BodyFrame = Frames.size();
  BodyFwd.push_back(B.unop(UO_PreInc, B.ref(LI->Count)));
  unsigned RecomputedBefore = RecomputedLoops;
  VarDecl *Hash = verifyIterationStart(Recomputable, Index, LI, BodyFwd);
  stmt(Body, BodyFwd, BodyRev);
  if (LI->Flag)
    BodyFwd.push_back(pushValue(B.intLit(0, Ctx.getSizeType()),
                                Ctx.getSizeType()));
  // Each iteration run again just before its reverse instead of recorded
  // (not inside another such loop, nor around one).
  if (Recomputable && !LI->Flag && !Failed && Half == SplitHalf::None &&
      !RecomputeRoot && RecomputedLoops == RecomputedBefore &&
      recomputeIterations(Recomputable, Index, BodyFwd, BodyRev, Again) &&
      Hash)
    verifyIteration(Recomputable, Hash, BodyFwd, Again);
  if (Hash)
    IterationHashes.pop_back();
  Loops.pop_back();
  if (Index)
    RevIndex.erase(Index);
}

void PullbackBuilder::loop(const Stmt *L, Stmts &Fwd, Stmts &Rev) {
  const Stmt *Init = nullptr, *Body = nullptr;
  const Expr *Cond = nullptr, *Inc = nullptr;
  if (loopParts(L, Init, Cond, Inc, Body)) {
    loop(withoutConditionVariable(L), Fwd, Rev);
    return;
  }
  // A condition or increment that changes differentiated values
  // (for (double t = 0; t < T; t += dt), while ((r *= 0.5) > eps)).
  if ((Cond && !replayable(Cond)) || (Inc && !replayable(Inc))) {
    loopWithEffects(L, Init, Cond, Inc, Body, Fwd, Rev);
    return;
  }

  LoopInfo *LI = newLoop(hasJumps(Body));

  // Forward: init, counted loop.
  Stmts Outer, InitRev;
  Stmt *ForInit = nullptr;
  int Step = 0;
  const auto *FS = dyn_cast<ForStmt>(L);
  const VarDecl *Index = FS ? canonicalIndex(FS, Step) : nullptr;
  VarDecl *IndexStart = nullptr;
  // A counted loop over unchanging bounds recomputes its start and trip
  // count in the reverse sweep: no tape for its control.
  const BinaryOperator *Bound = nullptr;
  if (Index && !LI->Flag && recomputable(Index->getInit()))
    Bound = recomputableBound(Index, Step, Cond);
  if (Index)
    ForInit = loopIndexInit(Index, Bound, Outer, IndexStart);
  else if (Init)
    stmt(Init, Outer, InitRev);
  if (Failed)
    return;
  Outer.push_back(B.assign(B.ref(LI->Count), B.intLit(0, Ctx.getSizeType())));
  Expr *FCond, *FInc;
  plainLoopHeader(Cond, Inc, FCond, FInc);
  if (Failed)
    return;

  // The reverse index, declared in the reverse body.
  VarDecl *RI =
      Index ? reverseLoopIndex(LI, Index, IndexStart, Step) : nullptr;

  Stmts BodyFwd, BodyRev, Again;
  countedLoopBody(Body, LI, Index, Bound ? FS : nullptr, BodyFwd, BodyRev,
                  Again);
  if (Failed)
    return;

  if (Bound)
    BodyFwd.erase(BodyFwd.begin()); // the count is recomputed
  Outer.push_back(rebuiltLoop(B, L, ForInit, FCond, FInc, B.block(BodyFwd)));
  if (LI->Nested && !Bound)
    Outer.push_back(push(LI->Count));
  if (Bound)
    Outer.erase(Outer.begin() + (Outer.size() - 2)); // no `_n = 0`
  Fwd.push_back(B.block(Outer));

  // Reverse: as many reversed iterations as forward ones.
  Stmts RevBody = countedLoopReverseBody(LI, RI, Again, BodyRev);
  Stmts R;
  if (Stmt *Count =
          Bound ? recomputeTripCount(LI, Index, Bound, Step) : nullptr)
    R.push_back(Count);
  else if (Bound)
    return;
  else if (LI->Nested)
    R.push_back(pop(LI->Count));
  R.push_back(B.whileStmt(B.ref(LI->Count), B.block(RevBody)));
  R.insert(R.end(), InitRev.begin(), InitRev.end());
  Rev.push_back(B.block(R));
}

Expr *PullbackBuilder::loopHeaderExpr(const Expr *E, Stmts &Fwd,
                                      Stmts &Rev) {
  // One evaluation of a loop condition or increment: its effects and the
  // tape traffic of what they record, as expressions (they go into the
  // loop's header), and their reverse.
  Stmts *Saved = Cur;
  Cur = &Fwd;
  SourceLocation SavedLoc = B.Loc;
  B.Loc = E->getBeginLoc();
  Frames.emplace_back();
  Stmts Main;
  Expr *V = nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
      BO && BO->isAssignmentOp())
    assignment(BO, Fwd, Main); // an increment: a statement of its own
  else
    V = plain(E);
  Frame F = std::move(Frames.back());
  Frames.pop_back();
  pushFrame(F.Recorded, Fwd, Rev);
  Rev.insert(Rev.end(), Main.begin(), Main.end());
  for (auto It = F.SideRev.rbegin(); It != F.SideRev.rend(); ++It)
    if (!It->empty())
      Rev.push_back(B.block(*It));
  Cur = Saved;
  B.Loc = SavedLoc;
  return V;
}

/// `(a, b, c)`: the expressions of \p Pieces, then \p Last.
static Expr *commaJoin(SemaBuilder &B, ArrayRef<Stmt *> Pieces, Expr *Last,
                       bool &OK) {
  Expr *R = nullptr;
  for (Stmt *St : Pieces) {
    auto *E = dyn_cast_or_null<Expr>(St);
    if (!E) {
      OK = false;
      return nullptr;
    }
    R = R ? B.binop(BO_Comma, R, E) : E;
  }
  if (Last)
    R = R ? B.binop(BO_Comma, R, Last) : Last;
  return R;
}

Stmts PullbackBuilder::effectLoopReverseBody(LoopInfo *LI, bool IsDo,
                                             const Expr *Cond, Stmts &CondRev,
                                             Stmts &IncRev, Stmts &BodyRev) {
  Stmts RevBody;
  RevBody.push_back(B.unop(UO_PreDec, B.ref(LI->Count)));
  // The body pushed its jump id last; the increment (and, for a do loop,
  // the condition) ran after it.
  Stmts JumpPop;
  if (LI->Flag)
    JumpPop.push_back(pop(LI->Flag));
  if (IsDo) {
    // body_k then cond_k: undo cond_k, then body_k.
    RevBody.insert(RevBody.end(), CondRev.begin(), CondRev.end());
    RevBody.insert(RevBody.end(), JumpPop.begin(), JumpPop.end());
    RevBody.insert(RevBody.end(), BodyRev.begin(), BodyRev.end());
    return RevBody;
  }
  // Per iteration inc_k, body_k, cond_k (the final (false) condition is
  // undone before the loop).
  RevBody.insert(RevBody.end(), IncRev.begin(), IncRev.end());
  RevBody.insert(RevBody.end(), JumpPop.begin(), JumpPop.end());
  RevBody.insert(RevBody.end(), BodyRev.begin(), BodyRev.end());
  if (!CondRev.empty()) {
    // A second copy of the condition's reverse (one per place).
    Stmts CF2, CR2;
    Loops.push_back(LI);
    loopHeaderExpr(Cond, CF2, CR2);
    Loops.pop_back();
    RevBody.insert(RevBody.end(), CR2.begin(), CR2.end());
  }
  return RevBody;
}

void PullbackBuilder::loopWithEffects(const Stmt *L, const Stmt *Init,
                                      const Expr *Cond, const Expr *Inc,
                                      const Stmt *Body, Stmts &Fwd,
                                      Stmts &Rev) {
  // for (init; cond; inc) body runs cond_0 body_0 inc_0 cond_1 ... cond_n
  // (false); its reverse undoes cond_n, then inc_k, body_k, cond_k for k
  // from n - 1 down. A do loop runs body_0 cond_0 ... body_n cond_n.
  // Without break or return, every iteration runs its increment.
  if (hasBreak(Body) || hasReturn(Body)) {
    unsupported(L, std::string(constructName(L)) +
                       " whose condition or increment changes a "
                       "differentiated value, with 'break' or 'return' in "
                       "its body");
    return;
  }
  bool IsDo = isa<DoStmt>(L);
  LoopInfo *LI = newLoop(hasJumps(Body));
  Stmts Outer, InitRev;
  if (Init)
    stmt(Init, Outer, InitRev);
  if (Failed)
    return;
  QualType SizeT = Ctx.getSizeType();
  Outer.push_back(B.assign(B.ref(LI->Count), B.intLit(0, SizeT)));

  Loops.push_back(LI);
  LI->BodyFrame = Frames.size();
  Stmts CondFwd, CondRev, IncFwd, IncRev;
  Expr *CV = Cond ? loopHeaderExpr(Cond, CondFwd, CondRev) : nullptr;
  Expr *IV = Inc ? loopHeaderExpr(Inc, IncFwd, IncRev) : nullptr;
  Stmts BodyFwd, BodyRev;
  BodyFwd.push_back(B.unop(UO_PreInc, B.ref(LI->Count)));
  stmt(Body, BodyFwd, BodyRev);
  if (LI->Flag)
    BodyFwd.push_back(pushValue(B.intLit(0, SizeT), SizeT));
  Loops.pop_back();
  if (Failed)
    return;
  bool OK = true;
  Expr *FCond = Cond ? commaJoin(B, CondFwd, CV, OK) : nullptr;
  Expr *FInc = commaJoin(B, IncFwd, IV, OK);
  if (!OK) {
    unsupported(Cond ? static_cast<const Stmt *>(Cond) : Inc,
                "loop condition or increment (its side effects need "
                "statements)");
    return;
  }
  Outer.push_back(rebuiltLoop(B, L, nullptr, FCond, FInc, B.block(BodyFwd)));
  if (LI->Nested)
    Outer.push_back(push(LI->Count));
  Fwd.push_back(B.block(Outer));

  // Reverse.
  Stmts R;
  if (LI->Nested)
    R.push_back(pop(LI->Count));
  // (Not a do loop: the final (false) condition first.)
  if (!IsDo)
    R.insert(R.end(), CondRev.begin(), CondRev.end());
  Stmts RevBody = effectLoopReverseBody(LI, IsDo, Cond, CondRev, IncRev,
                                        BodyRev);
  R.push_back(B.whileStmt(B.ref(LI->Count), B.block(RevBody)));
  R.insert(R.end(), InitRev.begin(), InitRev.end());
  Rev.push_back(B.block(R));
}

} // namespace grad
