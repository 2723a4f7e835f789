//===- Jumps.cpp - Jumps out of loops and switches --------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "analysis/Jumps.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace grad {

namespace {
/// Finds the jumps that leave a statement: a `break` outside nested loops
/// and switches, a `continue` outside nested loops (one in a switch belongs
/// to the enclosing loop) and, when asked, any `return`.
struct JumpFinder : RecursiveASTVisitor<JumpFinder> {
  const bool Breaks, Continues, Returns;
  bool Found = false;
  const Stmt *First = nullptr; ///< the first jump found
  unsigned Loops = 0, Switches = 0;
  JumpFinder(bool Continues, bool Returns, bool Breaks = true)
      : Breaks(Breaks), Continues(Continues), Returns(Returns) {}
  bool TraverseForStmt(ForStmt *S) { return loop(S); }
  bool TraverseWhileStmt(WhileStmt *S) { return loop(S); }
  bool TraverseDoStmt(DoStmt *S) { return loop(S); }
  bool TraverseCXXForRangeStmt(CXXForRangeStmt *S) { return loop(S); }
  bool TraverseSwitchStmt(SwitchStmt *S) {
    ++Switches;
    RecursiveASTVisitor::TraverseStmt(S->getBody());
    --Switches;
    return true;
  }
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  template <class T> bool loop(T *S) {
    ++Loops;
    RecursiveASTVisitor::TraverseStmt(S->getBody());
    --Loops;
    return true;
  }
  bool VisitBreakStmt(BreakStmt *) {
    Found |= Breaks && Loops == 0 && Switches == 0;
    return true;
  }
  bool VisitContinueStmt(ContinueStmt *S) {
    if (Continues && Loops == 0 && !Found)
      First = S;
    Found |= Continues && Loops == 0;
    return true;
  }
  bool VisitReturnStmt(ReturnStmt *) {
    Found |= Returns;
    return true;
  }
};
} // namespace

bool hasBreak(const Stmt *St) {
  JumpFinder F(/*Continues=*/false, /*Returns=*/false);
  F.TraverseStmt(const_cast<Stmt *>(St));
  return F.Found;
}

const Stmt *findContinue(const Stmt *St) {
  JumpFinder F(/*Continues=*/true, /*Returns=*/false, /*Breaks=*/false);
  F.TraverseStmt(const_cast<Stmt *>(St));
  return F.First;
}

bool hasReturn(const Stmt *Body) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
    bool VisitReturnStmt(ReturnStmt *) {
      Found = true;
      return false;
    }
  } F;
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Found;
}

bool hasJumps(const Stmt *Body) {
  JumpFinder F(/*Continues=*/true, /*Returns=*/true);
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Found;
}

namespace {
/// True if the loop body writes \p VD.
struct LoopWriteFinder : RecursiveASTVisitor<LoopWriteFinder> {
  const VarDecl *VD;
  bool Found = false;
  bool writes(const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == VD;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp() && writes(BO->getLHS()))
      Found = true;
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if ((UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
        writes(UO->getSubExpr()))
      Found = true;
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    for (const Expr *A : CE->arguments())
      if (writes(A) && A->isLValue())
        Found = true;
    return true;
  }
};
} // namespace

const VarDecl *canonicalIndex(const ForStmt *FS, int &Step) {
  const auto *DS = dyn_cast_or_null<DeclStmt>(FS->getInit());
  if (!DS || !DS->isSingleDecl())
    return nullptr;
  const auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl());
  if (!VD || !VD->getType()->isIntegerType() || !VD->hasInit() ||
      VD->getType().isVolatileQualified())
    return nullptr;
  const Expr *Inc = FS->getInc();
  if (!Inc)
    return nullptr;
  Inc = Inc->IgnoreParenImpCasts();
  auto IsVD = [&](const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == VD;
  };
  Step = 0;
  if (const auto *UO = dyn_cast<UnaryOperator>(Inc)) {
    if (UO->isIncrementOp() && IsVD(UO->getSubExpr()))
      Step = 1;
    else if (UO->isDecrementOp() && IsVD(UO->getSubExpr()))
      Step = -1;
  } else if (const auto *CA = dyn_cast<CompoundAssignOperator>(Inc)) {
    const auto *One = dyn_cast<IntegerLiteral>(CA->getRHS()->IgnoreParenImpCasts());
    if (IsVD(CA->getLHS()) && One && One->getValue() == 1)
      Step = CA->getOpcode() == BO_AddAssign   ? 1
             : CA->getOpcode() == BO_SubAssign ? -1
                                               : 0;
  }
  if (!Step)
    return nullptr;
  LoopWriteFinder W;
  W.VD = VD;
  W.TraverseStmt(const_cast<Stmt *>(FS->getBody()));
  if (FS->getCond())
    W.TraverseStmt(const_cast<Expr *>(FS->getCond()));
  return W.Found ? nullptr : VD;
}

void collectTailReturns(const Stmt *St, ASTContext &Ctx,
                        llvm::SmallPtrSetImpl<const Stmt *> &Out) {
  if (!St)
    return;
  if (const auto *RS = dyn_cast<ReturnStmt>(St)) {
    Out.insert(RS);
  } else if (const auto *CS = dyn_cast<CompoundStmt>(St)) {
    if (!CS->body_empty())
      collectTailReturns(CS->body_back(), Ctx, Out);
  } else if (const auto *IS = dyn_cast<IfStmt>(St)) {
    // Both branches end the function: each return is last on its path
    // and the reverse of the `if` replays the branch taken.
    if (IS->isConstexpr()) {
      if (std::optional<const Stmt *> Case = IS->getNondiscardedCase(Ctx))
        collectTailReturns(*Case, Ctx, Out);
    } else if (IS->getElse() && !IS->getInit() &&
               !IS->getConditionVariable() && !IS->isConsteval()) {
      collectTailReturns(IS->getThen(), Ctx, Out);
      collectTailReturns(IS->getElse(), Ctx, Out);
    }
  }
}

} // namespace grad
