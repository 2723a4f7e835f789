//===- Branches.cpp - if and switch -----------------------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `if` / `else` and `switch` statements: the forward sweep records which
/// branch (or case group) ran, the reverse sweep reverses that branch.
///
//===----------------------------------------------------------------------===//

#include "ast/Diagnostics.h"
#include "analysis/Jumps.h"
#include "reverse/PullbackBuilder.h"
#include "ast/Records.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace grad {

void PullbackBuilder::headerScope(const Stmt *Init, const Stmt *CondVar,
                                  const Stmt *St, Stmts &Fwd, Stmts &Rev) {
  // `if (init; T v = e) S` is `{ init; T v = e; if (v) S }`.
  SmallVector<const Stmt *, 3> Seq;
  if (Init)
    Seq.push_back(Init);
  if (CondVar)
    Seq.push_back(CondVar);
  Seq.push_back(St);
  Stmts F, R;
  recordExitSizes(Seq, F);
  sequence(Seq, F, R);
  restoreExitSizes(F, R);
  Fwd.push_back(B.block(F));
  if (!R.empty())
    Rev.push_back(B.block(R));
}

void PullbackBuilder::ifStmt(const IfStmt *IS, Stmts &Fwd, Stmts &Rev) {
  if (IS->isConstexpr()) {
    if (std::optional<const Stmt *> Case = IS->getNondiscardedCase(Ctx))
      stmt(*Case, Fwd, Rev);
    return;
  }
  if ((IS->getInit() || IS->getConditionVariable()) &&
      HeadersSplit.insert(IS).second) {
    headerScope(IS->getInit(), IS->getConditionVariableDeclStmt(), IS, Fwd,
                Rev);
    return;
  }
  if (IS->isConsteval()) {
    unsupported(IS, "'if consteval'");
    return;
  }
  VarDecl *C = hoist("_c", Ctx.BoolTy);
  Fwd.push_back(B.assign(B.ref(C), plain(IS->getCond())));
  // Inside loops the decision goes on the tape with the statement.
  if (!Loops.empty() && !Frames.empty())
    Frames.back().Recorded.push_back(C);
  Stmts FT, RT, FE, RE;
  stmt(IS->getThen(), FT, RT);
  if (IS->getElse())
    stmt(IS->getElse(), FE, RE);
  Fwd.push_back(B.ifStmt(B.ref(C), B.block(FT),
                         IS->getElse() ? B.block(FE) : nullptr));
  if (!RT.empty() || !RE.empty())
    Rev.push_back(B.ifStmt(B.ref(C), B.block(RT),
                           RE.empty() ? nullptr : B.block(RE)));
}

/// A `switch` lowered to an if-chain (switchStmt): its case groups, the
/// runs of groups that fall through into each other, the recorded value.
struct PullbackBuilder::SwitchLowering {
  struct Group {
    SmallVector<const Expr *, 4> Values;
    bool Default = false;
    SmallVector<const Stmt *, 8> Body;
    bool Closed = false;
  };
  struct Run {
    unsigned First, Last; // indices into Groups
    bool Default = false;
  };
  std::vector<Group> Groups;
  SmallVector<Run, 8> Runs;
  VarDecl *C = nullptr; // the recorded value
};

bool PullbackBuilder::peelSwitchLabels(const Stmt *&St, SwitchLowering &L) {
  auto &Groups = L.Groups;
  bool Labeled = false;
  while (true) {
    if (const auto *CS = dyn_cast<CaseStmt>(St)) {
      if (CS->getRHS()) {
        unsupported(CS, "'case' range");
        return false;
      }
      if (!Labeled && (Groups.empty() || !Groups.back().Body.empty() ||
                       Groups.back().Closed))
        Groups.emplace_back();
      Labeled = true;
      Groups.back().Values.push_back(CS->getLHS());
      St = CS->getSubStmt();
      continue;
    }
    if (const auto *DS = dyn_cast<DefaultStmt>(St)) {
      if (!Labeled && (Groups.empty() || !Groups.back().Body.empty() ||
                       Groups.back().Closed))
        Groups.emplace_back();
      Labeled = true;
      Groups.back().Default = true;
      St = DS->getSubStmt();
      continue;
    }
    return true;
  }
}

bool PullbackBuilder::switchGroups(const SwitchStmt *SS,
                                   const CompoundStmt *Body,
                                   SwitchLowering &L, bool &NestedBreak) {
  auto &Groups = L.Groups;
  for (const Stmt *St : Body->body()) {
    // Peel the labels off this statement.
    if (!peelSwitchLabels(St, L))
      return false;
    if (Groups.empty()) {
      unsupported(St, "statement before the first 'case'");
      return false;
    }
    if (Groups.back().Closed) {
      if (!isa<NullStmt>(St)) {
        unsupported(St, "unreachable statement in a 'switch'");
        return false;
      }
      continue;
    }
    if (isa<BreakStmt>(St)) {
      Groups.back().Closed = true;
      continue;
    }
    // `case 1: { ...; break; }`: the block without its last statement
    // closes the group.
    if (const auto *CS = dyn_cast<CompoundStmt>(St);
        CS && !CS->body_empty() && isa<BreakStmt>(CS->body_back())) {
      SmallVector<Stmt *, 8> Rest(CS->body_begin(), CS->body_end() - 1);
      if (llvm::none_of(Rest, [](const Stmt *C) { return hasBreak(C); })) {
        Groups.back().Body.push_back(CompoundStmt::Create(
            Ctx, Rest,
            CS->hasStoredFPFeatures() ? CS->getStoredFPFeatures()
                                      : FPOptionsOverride(),
            CS->getLBracLoc(), CS->getRBracLoc()));
        Groups.back().Closed = true;
        continue;
      }
    }
    NestedBreak |= !OnceSwitches.count(SS) && hasBreak(St);
    Groups.back().Body.push_back(St);
    if (isa<ReturnStmt>(St))
      Groups.back().Closed = true;
  }
  if (!Groups.empty() && !Groups.back().Closed)
    Groups.back().Closed = true; // the last group may fall off the end
  return true;
}

Expr *PullbackBuilder::switchMatches(SwitchLowering &L, unsigned From,
                                     unsigned To) {
  Expr *Test = nullptr;
  for (unsigned K = From; K <= To; ++K)
    for (const Expr *V : L.Groups[K].Values) {
      Expr *Eq = B.binop(BO_EQ, B.ref(L.C), plain(V));
      Test = Test ? B.binop(BO_LOr, Test, Eq) : Eq;
    }
  return Test;
}

Expr *PullbackBuilder::switchReached(SwitchLowering &L, unsigned Run,
                                     unsigned K) {
  const SwitchLowering::Run &Rn = L.Runs[Run];
  bool DefaultBefore = false;
  for (unsigned I = Rn.First; I <= K; ++I)
    DefaultBefore |= L.Groups[I].Default;
  if (!DefaultBefore)
    return switchMatches(L, Rn.First, K);
  return B.unop(UO_LNot, B.paren(switchMatches(L, K + 1, Rn.Last)));
}

void PullbackBuilder::switchRun(SwitchLowering &L, unsigned Run, Stmts &F,
                                Stmts &R) {
  const SwitchLowering::Run &Rn = L.Runs[Run];
  if (Rn.First == Rn.Last) {
    sequence(L.Groups[Rn.First].Body, F, R);
    return;
  }
  // A jump (a `return`, or `continue` of a loop around the switch) in
  // one group skips the reverse of the groups after it, as in a sequence.
  auto [Flag, NextId] = jumpScope();
  unsigned Start = *NextId;
  SmallVector<Stmts, 4> RevParts;
  for (unsigned K = Rn.First; K <= Rn.Last; ++K) {
    unsigned Before = *NextId;
    Stmts GF, GR;
    sequence(L.Groups[K].Body, GF, GR);
    if (Before > Start)
      unlessJumped(Flag, Before, GR);
    if (K == Rn.Last) {
      F.insert(F.end(), GF.begin(), GF.end());
      RevParts.push_back(std::move(GR));
      continue;
    }
    F.push_back(B.ifStmt(switchReached(L, Run, K), B.block(GF), nullptr));
    if (GR.empty()) {
      RevParts.emplace_back();
      continue;
    }
    Stmts Guarded;
    Guarded.push_back(
        B.ifStmt(switchReached(L, Run, K), B.block(GR), nullptr));
    RevParts.push_back(std::move(Guarded));
  }
  for (auto It = RevParts.rbegin(); It != RevParts.rend(); ++It)
    R.insert(R.end(), It->begin(), It->end());
}

/// `switch` on an integer, lowered to an if-chain on the recorded value:
/// one link per run of case groups that fall through into each other (a
/// run ends at a group ending in `break` or `return`), the groups of a run
/// each under the test "entered at this group or an earlier one of the
/// run", reversed in reverse order. A `break` elsewhere in a group (`if
/// (c) break;`) makes the switch a loop that runs once (switchOnce).
void PullbackBuilder::switchStmt(const SwitchStmt *SS, Stmts &Fwd,
                                 Stmts &Rev) {
  if ((SS->getInit() || SS->getConditionVariable()) &&
      HeadersSplit.insert(SS).second) {
    headerScope(SS->getInit(), SS->getConditionVariableDeclStmt(), SS, Fwd,
                Rev);
    return;
  }
  const auto *Body = dyn_cast<CompoundStmt>(SS->getBody());
  if (!Body) {
    unsupported(SS, "'switch' statement without a block");
    return;
  }
  SwitchLowering L;
  bool NestedBreak = false;
  if (!switchGroups(SS, Body, L, NestedBreak))
    return;
  if (NestedBreak) {
    switchOnce(SS, Fwd, Rev);
    return;
  }

  // The value, recorded like a branch decision.
  QualType CT = SS->getCond()->IgnoreParenImpCasts()->getType();
  if (!CT->isIntegralOrEnumerationType())
    CT = Ctx.IntTy;
  L.C = hoist("_s", CT.getUnqualifiedType());
  Fwd.push_back(B.assign(B.ref(L.C), plain(SS->getCond())));
  if (!Loops.empty() && !Frames.empty())
    Frames.back().Recorded.push_back(L.C);

  // Runs of groups: a group that does not end in `break` or `return` falls
  // through into the next one, so a run is the groups from one that follows
  // a closed group up to the next closed one. One run is entered at most.
  auto &Runs = L.Runs;
  for (unsigned I = 0; I < L.Groups.size(); ++I) {
    if (Runs.empty() || L.Groups[Runs.back().Last].Closed)
      Runs.push_back({I, I});
    Runs.back().Last = I;
    Runs.back().Default |= L.Groups[I].Default;
  }

  // if (c == v1 || c == v2) {...} else if ... else {default run}
  Stmt *FwdChain = nullptr, *RevChain = nullptr;
  std::optional<unsigned> Default;
  for (unsigned I = 0; I < Runs.size(); ++I)
    if (Runs[I].Default)
      Default = I;
  Stmts DF, DR;
  if (Default)
    switchRun(L, *Default, DF, DR);
  FwdChain = Default ? B.block(DF) : nullptr;
  RevChain = Default && !DR.empty() ? B.block(DR) : nullptr;
  for (unsigned I = Runs.size(); I-- > 0;) {
    if (I == Default)
      continue;
    Stmts F, R;
    switchRun(L, I, F, R);
    if (Failed)
      return;
    FwdChain = B.ifStmt(switchMatches(L, Runs[I].First, Runs[I].Last),
                        B.block(F), FwdChain);
    RevChain = (!R.empty() || RevChain)
                   ? B.ifStmt(switchMatches(L, Runs[I].First, Runs[I].Last),
                              B.block(R), RevChain)
                   : RevChain;
  }
  if (FwdChain)
    Fwd.push_back(FwdChain);
  if (RevChain)
    Rev.push_back(RevChain);
}

/// A switch with a `break` nested in a case's statements, as
/// `do { switch-as-if-chain } while (false)`: each nested `break` is a jump
/// out of that loop (its id goes on the tape, the reverse skips what came
/// after it), with the machinery of `break` in loops.
void PullbackBuilder::switchOnce(const SwitchStmt *SS, Stmts &Fwd,
                                 Stmts &Rev) {
  // A `continue` in the switch belongs to a loop around it, not to this
  // one.
  if (const Stmt *C = findContinue(SS->getBody())) {
    unsupported(C, "'continue' in a 'switch' that has a 'break' nested in "
                   "a case's statements");
    return;
  }
  OnceSwitches.insert(SS);
  QualType SizeT = Ctx.getSizeType();
  LoopInfo *LI = newLoop(/*Jumps=*/true);
  Loops.push_back(LI);
  LI->BodyFrame = Frames.size();
  Stmts BodyFwd, BodyRev;
  BodyFwd.push_back(B.unop(UO_PreInc, B.ref(LI->Count)));
  stmt(SS, BodyFwd, BodyRev);
  BodyFwd.push_back(pushValue(B.intLit(0, SizeT), SizeT));
  Loops.pop_back();
  if (Failed)
    return;
  Stmts Outer;
  Outer.push_back(B.assign(B.ref(LI->Count), B.intLit(0, SizeT)));
  Outer.push_back(B.doStmt(B.block(BodyFwd), B.boolLit(false)));
  if (LI->Nested)
    Outer.push_back(push(LI->Count));
  Fwd.push_back(B.block(Outer));

  Stmts R, RevBody;
  if (LI->Nested)
    R.push_back(pop(LI->Count));
  RevBody.push_back(B.unop(UO_PreDec, B.ref(LI->Count)));
  RevBody.push_back(pop(LI->Flag));
  RevBody.insert(RevBody.end(), BodyRev.begin(), BodyRev.end());
  R.push_back(B.whileStmt(B.ref(LI->Count), B.block(RevBody)));
  Rev.push_back(B.block(R));
}

} // namespace grad
