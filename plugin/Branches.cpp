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

#include "Consumer.h"
#include "Diagnostics.h"
#include "Jumps.h"
#include "PullbackBuilder.h"
#include "Records.h"

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

/// `switch` on an integer, lowered to an if-chain on the recorded value:
/// each case group ends with `break` (or returns); fallthrough between
/// non-empty groups and `break` elsewhere in a group are errors.
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
  struct Group {
    SmallVector<const Expr *, 4> Values;
    bool Default = false;
    SmallVector<const Stmt *, 8> Body;
    bool Closed = false;
  };
  std::vector<Group> Groups;
  for (const Stmt *St : Body->body()) {
    // Peel the labels off this statement.
    bool Labeled = false;
    while (true) {
      if (const auto *CS = dyn_cast<CaseStmt>(St)) {
        if (CS->getRHS()) {
          unsupported(CS, "'case' range");
          return;
        }
        if (!Labeled && (Groups.empty() || !Groups.back().Body.empty() ||
                         Groups.back().Closed)) {
          if (!Groups.empty() && !Groups.back().Closed &&
              !Groups.back().Body.empty()) {
            unsupported(CS, "fallthrough between 'case' labels");
            return;
          }
          Groups.emplace_back();
        }
        Labeled = true;
        Groups.back().Values.push_back(CS->getLHS());
        St = CS->getSubStmt();
        continue;
      }
      if (const auto *DS = dyn_cast<DefaultStmt>(St)) {
        if (!Labeled && (Groups.empty() || !Groups.back().Body.empty() ||
                         Groups.back().Closed)) {
          if (!Groups.empty() && !Groups.back().Closed &&
              !Groups.back().Body.empty()) {
            unsupported(DS, "fallthrough between 'case' labels");
            return;
          }
          Groups.emplace_back();
        }
        Labeled = true;
        Groups.back().Default = true;
        St = DS->getSubStmt();
        continue;
      }
      break;
    }
    if (Groups.empty()) {
      unsupported(St, "statement before the first 'case'");
      return;
    }
    if (Groups.back().Closed) {
      if (!isa<NullStmt>(St)) {
        unsupported(St, "unreachable statement in a 'switch'");
        return;
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
    if (hasBreak(St)) {
      unsupported(St, "'break' out of a 'switch' from a nested statement");
      return;
    }
    Groups.back().Body.push_back(St);
    if (isa<ReturnStmt>(St))
      Groups.back().Closed = true;
  }
  if (!Groups.empty() && !Groups.back().Closed)
    Groups.back().Closed = true; // the last group may fall off the end

  // The value, recorded like a branch decision.
  QualType CT = SS->getCond()->IgnoreParenImpCasts()->getType();
  if (!CT->isIntegralOrEnumerationType())
    CT = Ctx.IntTy;
  VarDecl *C = hoist("_s", CT.getUnqualifiedType());
  Fwd.push_back(B.assign(B.ref(C), plain(SS->getCond())));
  if (!Loops.empty() && !Frames.empty())
    Frames.back().Recorded.push_back(C);

  // if (c == v1 || c == v2) {...} else if ... else {default}
  Stmt *FwdChain = nullptr, *RevChain = nullptr;
  const Group *Default = nullptr;
  for (const Group &G : Groups)
    if (G.Default)
      Default = &G;
  auto Build = [&](const Group &G, Stmts &F, Stmts &R) {
    sequence(G.Body, F, R);
  };
  Stmts DF, DR;
  if (Default)
    Build(*Default, DF, DR);
  FwdChain = Default ? B.block(DF) : nullptr;
  RevChain = Default && !DR.empty() ? B.block(DR) : nullptr;
  for (auto It = Groups.rbegin(); It != Groups.rend(); ++It) {
    if (&*It == Default && It->Values.empty())
      continue;
    Expr *Test = nullptr;
    for (const Expr *V : It->Values) {
      Expr *Eq = B.binop(BO_EQ, B.ref(C), plain(V));
      Test = Test ? B.binop(BO_LOr, Test, Eq) : Eq;
    }
    if (&*It == Default) {
      // `case v: default:` share a body: the default branch covers it.
      continue;
    }
    Stmts F, R;
    Build(*It, F, R);
    if (Failed)
      return;
    Expr *Test2 = nullptr;
    for (const Expr *V : It->Values) {
      Expr *Eq = B.binop(BO_EQ, B.ref(C), plain(V));
      Test2 = Test2 ? B.binop(BO_LOr, Test2, Eq) : Eq;
    }
    FwdChain = B.ifStmt(Test, B.block(F), FwdChain);
    RevChain = (!R.empty() || RevChain)
                   ? B.ifStmt(Test2, B.block(R), RevChain)
                   : RevChain;
  }
  if (FwdChain)
    Fwd.push_back(FwdChain);
  if (RevChain)
    Rev.push_back(RevChain);
}

} // namespace grad
