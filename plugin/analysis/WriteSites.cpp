//===- WriteSites.cpp - Where writes run relative to reads ------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The activity analysis records where each variable and each storage's
/// data is written (DefCollector's sites). These queries compare those
/// sites with a read: whether any write can run after it, in the whole
/// function or within one run of a statement (a recomputed iteration).
/// Statements are numbered in pre-order once, on first use.
///
//===----------------------------------------------------------------------===//

#include "analysis/Activity.h"

#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace grad {

namespace {
/// Pre-order numbers of a body's statements, the last number inside each,
/// and the loops.
struct Numbering : RecursiveASTVisitor<Numbering> {
  llvm::DenseMap<const Stmt *, std::pair<unsigned, unsigned>> &Span;
  SmallVectorImpl<const Stmt *> &Loops;
  unsigned Next = 0;
  Numbering(llvm::DenseMap<const Stmt *, std::pair<unsigned, unsigned>> &S,
            SmallVectorImpl<const Stmt *> &L)
      : Span(S), Loops(L) {}
  bool shouldVisitLambdaBody() const { return false; }
  bool dataTraverseStmtPre(Stmt *S) {
    Span[S] = {Next, Next};
    ++Next;
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S))
      Loops.push_back(S);
    return true;
  }
  bool dataTraverseStmtPost(Stmt *S) {
    Span[S].second = Next - 1;
    return true;
  }
};
} // namespace

bool Activity::sitesEndBefore(llvm::ArrayRef<const Stmt *> Sites,
                              const Stmt *Read, const Stmt *Root) const {
  if (Span.empty())
    Numbering(Span, LoopStmts).TraverseStmt(const_cast<Stmt *>(Body));
  auto RS = Span.find(Read);
  auto OS = Root ? Span.find(Root) : Span.end();
  if (RS == Span.end() || (Root && OS == Span.end()))
    return false;
  unsigned R = RS->second.first;
  auto Inside = [](std::pair<unsigned, unsigned> Outer, unsigned N) {
    return Outer.first <= N && N <= Outer.second;
  };
  for (const Stmt *W : Sites) {
    auto WS = W ? Span.find(W) : Span.end();
    if (WS == Span.end())
      return false; // (inside a lambda: anywhere)
    if (Root && !Inside(OS->second, WS->second.first))
      continue; // (another run of Root)
    // A write that may run after the read: one that does not end before
    // it, or that shares a loop with it (inside Root, if given).
    if (WS->second.second >= R)
      return false;
    for (const Stmt *L : LoopStmts) {
      auto LS = Span.find(L)->second;
      if (Root && (L == Root || !Inside(OS->second, LS.first)))
        continue;
      if (Inside(LS, R) && Inside(LS, WS->second.first))
        return false;
    }
  }
  return true;
}

bool Activity::unchangedAfter(const VarDecl *VD, const Stmt *Read) const {
  auto It = DataSites.find(VD);
  if (It == DataSites.end() || !Body || isAlias(VD) || isAddressTaken(VD) ||
      isWritten(VD) || !Roots.empty())
    return false;
  return sitesEndBefore(It->second, Read);
}

bool Activity::valueUnchangedAfter(const VarDecl *VD,
                                   const Stmt *Read) const {
  if (!Body || isAlias(VD) || isAddressTaken(VD) || isDataWritten(VD) ||
      !Roots.empty())
    return false;
  auto It = VarSites.find(VD);
  return It == VarSites.end() || sitesEndBefore(It->second, Read);
}

bool Activity::unchangedWithin(const VarDecl *VD, const Stmt *Read,
                               const Stmt *Root) const {
  if (!Body || isAlias(VD) || isAddressTaken(VD) || isWritten(VD) ||
      !Roots.empty())
    return false;
  auto It = DataSites.find(VD);
  return It == DataSites.end() || sitesEndBefore(It->second, Read, Root);
}

} // namespace grad
