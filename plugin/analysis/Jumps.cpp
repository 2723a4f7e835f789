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

} // namespace grad
