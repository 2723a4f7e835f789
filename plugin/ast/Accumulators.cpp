//===- Accumulators.cpp - Adjoint sums kept in registers --------*- C++ -*-===//
//
// Part of clang-grad.
//
// A reverse loop often adds into one element of a local adjoint array at
// every iteration: in GMM's triangle, `_d_xc[i] += icf[li] * _r` runs over j
// with i fixed. The optimiser keeps that element in memory (it cannot tell
// the adjoint vector from the other memory the loop writes), so every
// iteration waits for the previous one's store. When the array's storage
// never escapes (every mention of it is an element read, an element write or
// assign/size), nothing else in the loop names it, and the index does not
// change in the loop, the sum is kept in a local instead:
//
//   { double _acc0 = _d_xc[i]; while (...) { ... _acc0 += e; ... }
//     _d_xc[i] = _acc0; }
//
// The same additions in the same order: the same bits.
//
//===----------------------------------------------------------------------===//

#include "ast/Tidy.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;

namespace grad {
namespace {

/// A local array or std::vector of floating-point numbers.
bool adjointArray(const VarDecl *VD) {
  if (!VD || isa<ParmVarDecl>(VD) || !VD->isLocalVarDecl() ||
      VD->isStaticLocal() || VD->getType()->isReferenceType())
    return false;
  QualType T = VD->getType();
  if (const auto *AT = dyn_cast<ConstantArrayType>(T.getCanonicalType()))
    return AT->getElementType()->isRealFloatingType();
  const auto *RD = T->getAsCXXRecordDecl();
  const auto *TD = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  return TD && TD->isInStdNamespace() && TD->getIdentifier() &&
         TD->getName() == "vector" && TD->getTemplateArgs().size() >= 1 &&
         TD->getTemplateArgs()[0].getKind() == TemplateArgument::Type &&
         TD->getTemplateArgs()[0].getAsType()->isRealFloatingType();
}

/// The array variable \p E subscripts (`a[i]`, `v[i]`), with the index.
const VarDecl *subscripted(const Expr *E, const Expr **Index) {
  E = E->IgnoreParens();
  const Expr *Base = nullptr;
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    const auto *IC = dyn_cast<ImplicitCastExpr>(AS->getBase());
    if (!IC || IC->getCastKind() != CK_ArrayToPointerDecay)
      return nullptr;
    Base = IC->getSubExpr();
    *Index = AS->getIdx();
  } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E)) {
    if (OC->getOperator() != OO_Subscript || OC->getNumArgs() != 2)
      return nullptr;
    Base = OC->getArg(0);
    *Index = OC->getArg(1);
  } else {
    return nullptr;
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(Base->IgnoreParenImpCasts());
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

/// Arrays whose storage escapes: some mention of them is not an element
/// read, an element write (`a[i] = e`, `a[i] op= e`), `assign`/`size`, or
/// an argument of a call (`a`, `&a[k]`, `a.data()`: the generated calls and
/// the runtime's zero() keep no pointer).
/// Also the variables that may change other than by naming them: some
/// mention of them is not a read, an assignment to them or an increment
/// (`int *p = &i; ++*p;`, `int &r = i;`).
struct Escapes : RecursiveASTVisitor<Escapes> {
  llvm::DenseSet<const VarDecl *> Escaped, Aliased;
  llvm::DenseSet<const DeclRefExpr *> Fine, Plain;
  void plain(const Expr *E) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParens()))
      Plain.insert(DRE);
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp())
      plain(UO->getSubExpr());
    return true;
  }
  void fineSubscript(const Expr *E) {
    const Expr *Idx;
    E = E->IgnoreParens();
    if (!subscripted(E, &Idx))
      return;
    const Expr *Base = isa<ArraySubscriptExpr>(E)
                           ? cast<ArraySubscriptExpr>(E)->getBase()
                           : cast<CXXOperatorCallExpr>(E)->getArg(0);
    Fine.insert(cast<DeclRefExpr>(Base->IgnoreParenImpCasts()));
  }
  bool VisitImplicitCastExpr(ImplicitCastExpr *IC) {
    if (IC->getCastKind() == CK_LValueToRValue) {
      fineSubscript(IC->getSubExpr());
      plain(IC->getSubExpr());
    }
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp()) {
      fineSubscript(BO->getLHS());
      plain(BO->getLHS());
    }
    return true;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) {
    const auto *MD = MC->getMethodDecl();
    const Expr *Obj = MC->getImplicitObjectArgument();
    if (MD && MD->getIdentifier() && Obj &&
        (MD->getName() == "assign" || MD->getName() == "size"))
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Obj->IgnoreParenImpCasts()))
        Fine.insert(DRE);
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    for (const Expr *A : CE->arguments()) {
      A = A->IgnoreParenImpCasts();
      if (const auto *UO = dyn_cast<UnaryOperator>(A);
          UO && UO->getOpcode() == UO_AddrOf)
        A = UO->getSubExpr()->IgnoreParens();
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(A))
        if (const auto *MD = MC->getMethodDecl();
            MD && MD->getIdentifier() && MD->getName() == "data")
          A = MC->getImplicitObjectArgument()->IgnoreParenImpCasts();
      const Expr *Idx;
      if (subscripted(A, &Idx))
        fineSubscript(A);
      else if (const auto *DRE = dyn_cast<DeclRefExpr>(A))
        Fine.insert(DRE);
    }
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    Mentions.push_back(DRE);
    return true;
  }
  std::vector<const DeclRefExpr *> Mentions;
  void finish() {
    for (const DeclRefExpr *DRE : Mentions)
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
        if (!Fine.count(DRE))
          Escaped.insert(VD);
        if (!Plain.count(DRE))
          Aliased.insert(VD);
      }
  }
};

/// Loops that are statements of a block, inner ones first.
struct Loops : RecursiveASTVisitor<Loops> {
  std::vector<std::pair<CompoundStmt *, unsigned>> Sites;
  bool TraverseCompoundStmt(CompoundStmt *CS) {
    unsigned I = 0;
    for (Stmt *Child : CS->body()) {
      TraverseStmt(Child);
      if (isa<WhileStmt, ForStmt, DoStmt>(Child))
        Sites.push_back({CS, I});
      ++I;
    }
    return true;
  }
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
};

/// Everything a loop does with variables, and whether control leaves it
/// other than at its end.
struct LoopUses : RecursiveASTVisitor<LoopUses> {
  llvm::DenseSet<const VarDecl *> Declared, Written;
  llvm::DenseMap<const VarDecl *, unsigned> Mentioned;
  bool Leaves = false;
  unsigned Depth = 0; // loops and switches inside the loop
  bool VisitVarDecl(VarDecl *VD) {
    Declared.insert(VD);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      ++Mentioned[VD];
    return true;
  }
  void written(const Expr *E) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        Written.insert(VD);
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      written(BO->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
      written(UO->getSubExpr());
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    // (A variable passed by reference may change.)
    for (const Expr *A : CE->arguments())
      if (A->isGLValue())
        written(A);
    return true;
  }
  bool VisitGotoStmt(GotoStmt *) { return Leaves = true, true; }
  bool VisitIndirectGotoStmt(IndirectGotoStmt *) { return Leaves = true, true; }
  bool VisitReturnStmt(ReturnStmt *) { return Leaves = true, true; }
  bool VisitBreakStmt(BreakStmt *) {
    Leaves |= Depth == 0;
    return true;
  }
  bool TraverseSwitchStmt(SwitchStmt *S) {
    ++Depth;
    RecursiveASTVisitor::TraverseSwitchStmt(S);
    --Depth;
    return true;
  }
  /// The loop itself, then loops nested in it (a break inside those
  /// leaves only them).
  template <class F> bool loop(F Traverse) {
    if (Top)
      return Top = false, Traverse();
    ++Depth;
    Traverse();
    --Depth;
    return true;
  }
  bool TraverseWhileStmt(WhileStmt *S) {
    return loop([&] { return RecursiveASTVisitor::TraverseWhileStmt(S); });
  }
  bool TraverseForStmt(ForStmt *S) {
    return loop([&] { return RecursiveASTVisitor::TraverseForStmt(S); });
  }
  bool TraverseDoStmt(DoStmt *S) {
    return loop([&] { return RecursiveASTVisitor::TraverseDoStmt(S); });
  }
  bool TraverseCXXForRangeStmt(CXXForRangeStmt *S) {
    return loop(
        [&] { return RecursiveASTVisitor::TraverseCXXForRangeStmt(S); });
  }
  bool Top = true;
};

/// `a[i] += e` statements of blocks inside a loop, by the array they add to.
struct Sums : RecursiveASTVisitor<Sums> {
  struct Site {
    CompoundStmt *Block;
    unsigned Index;
    const Expr *Element;
  };
  llvm::MapVector<const VarDecl *, std::vector<Site>> Of;
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitCompoundStmt(CompoundStmt *CS) {
    unsigned I = 0;
    for (Stmt *Child : CS->body()) {
      const auto *CA = dyn_cast<CompoundAssignOperator>(Child);
      const Expr *Idx;
      if (CA && CA->getOpcode() == BO_AddAssign)
        if (const VarDecl *VD = subscripted(CA->getLHS(), &Idx))
          Of[VD].push_back({CS, I, CA->getLHS()->IgnoreParens()});
      ++I;
    }
    return true;
  }
};

/// Only variables, constants and arithmetic.
bool simpleIndex(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (isa<DeclRefExpr, IntegerLiteral>(E))
    return true;
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return BO->isAdditiveOp() || BO->isMultiplicativeOp()
               ? simpleIndex(BO->getLHS()) && simpleIndex(BO->getRHS())
               : false;
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return UO->getOpcode() == UO_Minus && simpleIndex(UO->getSubExpr());
  return false;
}

struct IndexVars : RecursiveASTVisitor<IndexVars> {
  llvm::SmallVector<const VarDecl *, 4> Vars;
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      Vars.push_back(VD);
    return true;
  }
};

/// The names \p FD declares, so that new locals do not shadow them.
void collectNames(FunctionDecl *FD, llvm::StringSet<> &Names) {
  struct NameFinder : RecursiveASTVisitor<NameFinder> {
    llvm::StringSet<> *Names;
    bool VisitNamedDecl(NamedDecl *ND) {
      if (ND->getIdentifier())
        Names->insert(ND->getName());
      return true;
    }
  } NF;
  NF.Names = &Names;
  NF.TraverseDecl(FD);
}

/// True if the sums into \p VD at \p Sites share one simple index that the
/// loop does not change, and no added value reads the array.
bool sameInvariantIndex(ASTContext &Ctx, const VarDecl *VD,
                        const std::vector<Sums::Site> &Sites, const LoopUses &U,
                        const Escapes &E) {
  // One index, the same at every site, that the loop does not change.
  const Expr *Idx0;
  subscripted(Sites.front().Element, &Idx0);
  if (!simpleIndex(Idx0))
    return false;
  llvm::FoldingSetNodeID ID0;
  Idx0->Profile(ID0, Ctx, /*Canonical=*/true);
  bool Same = true;
  for (const auto &Site : Sites) {
    const Expr *Idx;
    subscripted(Site.Element, &Idx);
    llvm::FoldingSetNodeID ID;
    Idx->Profile(ID, Ctx, /*Canonical=*/true);
    Same &= ID == ID0;
    // (The added value must not read the array.)
    const auto *CA =
        cast<CompoundAssignOperator>(Site.Block->body_begin()[Site.Index]);
    LoopUses R;
    R.Top = false;
    R.TraverseStmt(const_cast<Expr *>(CA->getRHS()));
    Same &= !R.Mentioned.count(VD);
  }
  IndexVars IV;
  IV.TraverseStmt(const_cast<Expr *>(Idx0));
  for (const VarDecl *V : IV.Vars)
    Same &= !U.Declared.count(V) && !U.Written.count(V) &&
            !E.Aliased.count(V) && !V->getType()->isReferenceType();
  return Same;
}

/// Rewrites the sums at \p Sites into the local \p Name declared before
/// the loop at \p Loc from the element's value (into \p Before), and
/// stores it back after the loop (into \p After).
void accumulateInLocal(FunctionDecl *FD, const std::vector<Sums::Site> &Sites,
                       StringRef Name, SourceLocation Loc,
                       std::vector<Stmt *> &Before,
                       std::vector<Stmt *> &After) {
  ASTContext &Ctx = FD->getASTContext();
  auto *Elem = const_cast<Expr *>(Sites.front().Element);
  QualType T = Elem->getType()
                   .getNonReferenceType()
                   .getCanonicalType()
                   .getUnqualifiedType();
  auto *Acc = VarDecl::Create(Ctx, FD, Loc, Loc, &Ctx.Idents.get(Name), T,
                              Ctx.getTrivialTypeSourceInfo(T, Loc), SC_None);
  Acc->setInit(ImplicitCastExpr::Create(Ctx, T, CK_LValueToRValue, Elem,
                                        nullptr, VK_PRValue,
                                        FPOptionsOverride()));
  Acc->setIsUsed();
  Before.push_back(new (Ctx) DeclStmt(DeclGroupRef(Acc), Loc, Loc));
  auto Ref = [&]() {
    return DeclRefExpr::Create(Ctx, NestedNameSpecifierLoc(), SourceLocation(),
                               Acc, false, Loc, T, VK_LValue);
  };
  Expr *Last = Elem;
  for (const auto &Site : Sites) {
    auto *CA =
        cast<CompoundAssignOperator>(Site.Block->body_begin()[Site.Index]);
    Last = const_cast<Expr *>(Site.Element);
    Site.Block->body_begin()[Site.Index] = CompoundAssignOperator::Create(
        Ctx, Ref(), CA->getRHS(), BO_AddAssign, T, VK_LValue, OK_Ordinary,
        CA->getOperatorLoc(), CA->getFPFeatures(), CA->getComputationLHSType(),
        CA->getComputationResultType());
  }
  After.push_back(BinaryOperator::Create(
      Ctx, Last,
      ImplicitCastExpr::Create(Ctx, T, CK_LValueToRValue, Ref(), nullptr,
                               VK_PRValue, FPOptionsOverride()),
      BO_Assign, Last->getType(), VK_LValue, OK_Ordinary, Loc,
      FPOptionsOverride()));
}

} // namespace

void hoistAccumulators(FunctionDecl *FD) {
  Stmt *Body = FD->getBody();
  if (!Body)
    return;
  ASTContext &Ctx = FD->getASTContext();
  Escapes E;
  E.TraverseStmt(Body);
  E.finish();
  Loops L;
  L.TraverseStmt(Body);
  llvm::StringSet<> Names;
  collectNames(FD, Names);
  unsigned Next = 0;
  for (auto [Block, Pos] : L.Sites) {
    Stmt *Loop = Block->body_begin()[Pos];
    LoopUses U;
    U.TraverseStmt(Loop);
    if (U.Leaves)
      continue;
    Sums S;
    S.TraverseStmt(Loop);
    std::vector<Stmt *> Before, After;
    for (auto &[VD, Sites] : S.Of) {
      if (!adjointArray(VD) || E.Escaped.count(VD) ||
          U.Mentioned[VD] != Sites.size())
        continue;
      if (!sameInvariantIndex(Ctx, VD, Sites, U, E))
        continue;
      // The sum in a local, from the element's value before the loop.
      std::string Name;
      do
        Name = "_acc" + std::to_string(Next++);
      while (Names.count(Name));
      Names.insert(Name);
      accumulateInLocal(FD, Sites, Name, Loop->getBeginLoc(), Before, After);
    }
    if (Before.empty())
      continue;
    Before.push_back(Loop);
    Before.insert(Before.end(), After.begin(), After.end());
    Block->body_begin()[Pos] = CompoundStmt::Create(
        Ctx, Before, FPOptionsOverride(), Loop->getBeginLoc(),
        Loop->getEndLoc());
  }
}

} // namespace grad
