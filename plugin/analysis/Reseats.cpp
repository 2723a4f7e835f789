//===- Reseats.cpp - Pointers made to point into other memory ------------===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Where a pointer variable may be made to point into other memory than the
/// storage it points into: a pointer parameter assigned another pointer
/// (reseatedParam), and a pointer passed by reference to a function that
/// may assign it (keepsWithin, writesPointerParam: the callee's body, and
/// the functions it passes the pointer on to by reference).
///
//===----------------------------------------------------------------------===//

#include "analysis/Paths.h"
#include "analysis/Facts.h"
#include "ast/Records.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace grad {

const ParmVarDecl *reseatedParam(const BinaryOperator *BO) {
  if (!BO || BO->getOpcode() != BO_Assign)
    return nullptr;
  const auto *P = dyn_cast_or_null<ParmVarDecl>(refVar(BO->getLHS()));
  if (!P || !P->getType()->isPointerType() ||
      !hasFloatingData(P->getType()->getPointeeType()))
    return nullptr;
  const Expr *RHS = BO->getRHS();
  if (basedOn(RHS, P) || RHS->IgnoreParenImpCasts()->isNullPointerConstant(
                             P->getASTContext(),
                             Expr::NPC_ValueDependentIsNotNull))
    return nullptr;
  return P;
}

namespace {
/// keepsWithin's walk of the callee's body.
struct WithinScan : RecursiveASTVisitor<WithinScan> {
  const VarDecl *P;
  unsigned Depth;
  /// Any write to the pointer counts (writesPointerParam), not only one
  /// that moves it out of its memory.
  bool Any = false;
  bool Ok = true;
  bool names(const Expr *E) const { return refVar(E) == P; }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (Any && BO->isAssignmentOp() && names(BO->getLHS()))
      Ok = false;
    if (BO->getOpcode() == BO_Assign && names(BO->getLHS()) &&
        !basedOn(BO->getRHS(), P) &&
        !BO->getRHS()->IgnoreParenImpCasts()->isNullPointerConstant(
            P->getASTContext(), Expr::NPC_ValueDependentIsNotNull))
      Ok = false;
    return Ok;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if ((UO->getOpcode() == UO_AddrOf ||
         (Any && UO->isIncrementDecrementOp())) &&
        names(UO->getSubExpr()))
      Ok = false;
    return Ok;
  }
  bool VisitVarDecl(VarDecl *VD) {
    // `double *&r = p;`: r may re-seat it.
    if (VD->getType()->isReferenceType() &&
        !VD->getType().getNonReferenceType().isConstQualified() &&
        VD->getInit() && names(VD->getInit()))
      Ok = false;
    return Ok;
  }
  bool VisitLambdaExpr(LambdaExpr *LE) {
    for (const LambdaCapture &C : LE->captures())
      if (C.capturesVariable() && C.getCapturedVar() == P &&
          C.getCaptureKind() == LCK_ByRef)
        Ok = false;
    return Ok;
  }
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *FD = CE->getDirectCallee();
    unsigned Shift = isa<CXXOperatorCallExpr>(CE) && FD &&
                             isa<CXXMethodDecl>(FD) &&
                             cast<CXXMethodDecl>(FD)->isInstance()
                         ? 1
                         : 0;
    for (unsigned I = Shift; I < CE->getNumArgs() && Ok; ++I) {
      if (!names(CE->getArg(I)))
        continue;
      if (!FD || I - Shift >= FD->getNumParams()) {
        Ok = false;
        break;
      }
      const ParmVarDecl *Q = FD->getParamDecl(I - Shift);
      QualType T = Q->getType();
      if (T->isReferenceType() && !T.getNonReferenceType().isConstQualified())
        Ok = Any ? !writesPointerParam(Q, Depth + 1) : keepsWithin(Q, Depth + 1);
    }
    return Ok;
  }
};
} // namespace

static bool scanPointerParam(const ParmVarDecl *P, unsigned Depth, bool Any) {
  const auto *FD = dyn_cast_or_null<FunctionDecl>(P->getDeclContext());
  if (!FD || Depth > 6)
    return false;
  // (A function template's specialization may not be instantiated yet.)
  if (Sema *S = Facts::get(FD->getASTContext()).S; S && !FD->hasBody())
    instantiatedDefinition(*S, FD, FD->getLocation());
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Def || !Def->getBody())
    return false;
  const ParmVarDecl *DP = Def->getParamDecl(P->getFunctionScopeIndex());
  WithinScan W{{}, DP, Depth, Any};
  W.TraverseStmt(Def->getBody());
  return W.Ok;
}

bool keepsWithin(const ParmVarDecl *P, unsigned Depth) {
  return scanPointerParam(P, Depth, /*Any=*/false);
}

bool keepsWithin(const Stmt *Body, const VarDecl *V) {
  WithinScan W{{}, V, 0};
  W.TraverseStmt(const_cast<Stmt *>(Body));
  return W.Ok;
}

bool writesPointerParam(const ParmVarDecl *P, unsigned Depth) {
  // (A body not visible: it may.)
  return !scanPointerParam(P, Depth, /*Any=*/true);
}

} // namespace grad
