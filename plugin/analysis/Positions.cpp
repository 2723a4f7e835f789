//===- Positions.cpp - Iterators that only mark a position ----------------===//

#include "analysis/Positions.h"
#include "analysis/Paths.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"

#include <functional>

using namespace clang;

namespace grad {

namespace {

/// The iterator local and the parent of every node of its function.
struct Parents {
  const VarDecl *VD = nullptr;
  llvm::DenseMap<const Stmt *, const Stmt *> Up;
  const Stmt *lookup(const Stmt *S) const { return Up.lookup(S); }
};

void mapParents(const Stmt *S, Parents &P) {
  for (const Stmt *C : S->children())
    if (C) {
      P.Up[C] = S;
      mapParents(C, P);
    }
}

/// `it`, the local itself.
bool namesLocal(const Expr *E, const Parents &P) {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E->IgnoreImpCasts());
  return DRE && DRE->getDecl() == P.VD;
}

/// The node that uses \p E, past parentheses, implicit casts and the copy
/// an iterator passed by value makes.
const Stmt *user(const Expr *&E, const Parents &P) {
  while (true) {
    const Stmt *U = P.lookup(E);
    if (!U)
      return nullptr;
    const auto *UE = dyn_cast<Expr>(U);
    if (UE && (isa<ParenExpr>(UE) || isa<ImplicitCastExpr>(UE) ||
               isa<MaterializeTemporaryExpr>(UE) ||
               isa<CXXBindTemporaryExpr>(UE) || isa<ExprWithCleanups>(UE))) {
      E = UE;
      continue;
    }
    if (const auto *CC = dyn_cast_or_null<CXXConstructExpr>(UE);
        CC && CC->getNumArgs() == 1 &&
        CC->getConstructor()->isCopyOrMoveConstructor()) {
      E = UE;
      continue;
    }
    return U;
  }
}

bool isIterator(QualType T) {
  T = T.getNonReferenceType();
  if (T->isPointerType())
    return true;
  const auto *RD = T->getAsCXXRecordDecl();
  return RD && RD->getIdentifier() &&
         RD->getName().contains_insensitive("iterator");
}

bool stdCallNamed(const CallExpr *CE, llvm::ArrayRef<StringRef> Names) {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD || !FD->isInStdNamespace() || !FD->getIdentifier())
    return false;
  return llvm::is_contained(Names, FD->getName());
}

/// How the expression \p E, an iterator of the local, is used.
bool positionUse(const Expr *E, const Parents &P, unsigned Depth);

/// The result of an operator over the position (`it + 1`) is a position
/// too: it must be used as one.
bool derivedPosition(const Expr *R, const Parents &P, unsigned Depth) {
  return Depth < 8 && isIterator(R->getType()) && !R->isLValue() &&
         positionUse(R, P, Depth + 1);
}

/// `it == e`, `it < e`, `++it`, `it += k`: a comparison or a step.
bool comparesOrSteps(OverloadedOperatorKind Op) {
  switch (Op) {
  case OO_EqualEqual:
  case OO_ExclaimEqual:
  case OO_Less:
  case OO_Greater:
  case OO_LessEqual:
  case OO_GreaterEqual:
  case OO_Spaceship:
  case OO_PlusPlus:
  case OO_MinusMinus:
  case OO_PlusEqual:
  case OO_MinusEqual:
    return true;
  default:
    return false;
  }
}

/// The operator \p Op applied to the position \p E, giving \p R; \p First
/// is its first operand (the object of a member operator).
bool operatorUse(OverloadedOperatorKind Op, const Expr *R, const Expr *First,
                 const Expr *E, const Parents &P, unsigned Depth) {
  if (comparesOrSteps(Op))
    return true;
  switch (Op) {
  case OO_Equal:
    // A new position for the local (`it = std::prev(it, 2)`), not a copy
    // of the local into something else.
    return First && (First->IgnoreImpCasts() == E || namesLocal(First, P));
  case OO_Minus:
  case OO_Plus:
    // `it - v.begin()` measures; `it + 1`, `it - 1` is another position.
    return !isIterator(R->getType()) || derivedPosition(R, P, Depth);
  default:
    return false; // *it, it->, it[k], a call through it
  }
}

/// The operator a call invokes, written (`it == e`) or as the derivative
/// code spells it (`operator==(it, e)`, `it.operator++()`).
OverloadedOperatorKind calledOperator(const CallExpr *CE) {
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE))
    return OC->getOperator();
  const FunctionDecl *FD = CE->getDirectCallee();
  return FD ? FD->getOverloadedOperator() : OO_None;
}

bool positionUse(const Expr *E, const Parents &P, unsigned Depth) {
  const Stmt *U = user(E, P);
  if (!U)
    return false;
  // `it.operator++()`: the object of a member operator.
  if (const auto *ME = dyn_cast<MemberExpr>(U)) {
    const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(P.lookup(ME));
    OverloadedOperatorKind Op = MC ? calledOperator(MC) : OO_None;
    return Op != OO_None && MC->getCallee()->IgnoreParens() == ME &&
           operatorUse(Op, MC, E, E, P, Depth);
  }
  if (const auto *CE = dyn_cast<CallExpr>(U);
      CE && calledOperator(CE) != OO_None)
    return operatorUse(calledOperator(CE), CE,
                       CE->getNumArgs() ? CE->getArg(0) : nullptr, E, P,
                       Depth);
  if (const auto *BO = dyn_cast<BinaryOperator>(U)) {
    // A pointer: the built-in forms of the same operators.
    if (BO->isComparisonOp() || BO->isCompoundAssignmentOp())
      return true;
    if (BO->getOpcode() == BO_Assign)
      return BO->getLHS()->IgnoreParenImpCasts() == E ||
             namesLocal(BO->getLHS(), P);
    if (BO->isAdditiveOp())
      return !isIterator(BO->getType()) || derivedPosition(BO, P, Depth);
    return false;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(U))
    return UO->isIncrementDecrementOp();
  if (const auto *CE = dyn_cast<CallExpr>(U)) {
    if (stdCallNamed(CE, {"distance", "advance"}))
      return true;
    if (stdCallNamed(CE, {"next", "prev"}))
      return derivedPosition(CE, P, Depth);
  }
  return false;
}

} // namespace

bool positionOnly(const VarDecl *VD) {
  static llvm::DenseMap<const VarDecl *, bool> Known;
  if (auto It = Known.find(VD); It != Known.end())
    return It->second;
  const auto *FD = dyn_cast_or_null<FunctionDecl>(
      VD->getParentFunctionOrMethod());
  const Stmt *Body = FD ? FD->getBody() : nullptr;
  if (!Body || !VD->isLocalVarDecl() || isa<DecompositionDecl>(VD) ||
      !isFloatingIterator(VD->getType()))
    return Known[VD] = false;
  Parents P;
  P.VD = VD;
  mapParents(Body, P);
  bool Only = true;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!Only || !S)
      return;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S);
        DRE && DRE->getDecl() == VD && !positionUse(DRE, P, 0)) {
      Only = false;
    }
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(Body);
  return Known[VD] = Only;
}

/// The local itself, as an argument is given (past a copy).
static bool namesPositionLocal(const Expr *A) {
  const Expr *K = A->IgnoreParenImpCasts();
  if (const auto *CC = dyn_cast<CXXConstructExpr>(K);
      CC && CC->getNumArgs() == 1)
    K = CC->getArg(0)->IgnoreParenImpCasts();
  if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(K))
    K = MT->getSubExpr()->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(K);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return VD && positionOnly(VD);
}

bool rewrittenOnPosition(const Expr *E) {
  const auto *RW = dyn_cast<CXXRewrittenBinaryOperator>(E);
  if (!RW)
    return false;
  auto On = [](const Expr *A) {
    const auto *CE = dyn_cast<CallExpr>(A->IgnoreParenImpCasts());
    return namesPositionLocal(A) || (CE && onPosition(CE));
  };
  return On(RW->getLHS()) || On(RW->getRHS());
}

bool onPosition(const CallExpr *CE) {
  OverloadedOperatorKind Op = calledOperator(CE);
  if (Op == OO_None
          ? !stdCallNamed(CE, {"advance", "distance", "next", "prev"})
          : !comparesOrSteps(Op) && Op != OO_Equal && Op != OO_Plus &&
                Op != OO_Minus)
    return false;
  // (The local's own uses were all checked: positionOnly.)
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE);
      MC && namesPositionLocal(MC->getImplicitObjectArgument()))
    return true;
  return llvm::any_of(CE->arguments(), namesPositionLocal);
}

} // namespace grad
