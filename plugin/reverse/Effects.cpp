//===- Effects.cpp - Side effects inside expressions ------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Assignments and increments inside larger expressions (`a = b = e`,
/// `(t *= x) *= y`, `if ((x += y) > 0)`, `g(y += x)`, `x++ * y`, `*p++`)
/// are sequenced as C++ sequences them: the forward sweep runs the effect
/// as a statement of its own just before the statement that contains it,
/// and the reverse sweep reverses it just after that statement's own
/// reverse (Frame::SideRev). The expression then uses the effect's target
/// (its value after the effect), or for a postfix increment the value it
/// had; backprop sends the expression's adjoint to that target's shadow.
/// Effects that only sometimes run (in a branch of `?:`, on the right of
/// `&&`, in a loop condition) are refused.
///
//===----------------------------------------------------------------------===//

#include "reverse/PullbackBuilder.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace grad {

static const Expr *strip(const Expr *E) { return stripExpr(E); }

Expr *PullbackBuilder::hoistAssignment(const BinaryOperator *BO, bool Need) {
  if (NoHoist)
    return unsupported(BO, std::string("assignment ") + NoHoistWhy);
  if (Frames.empty())
    return unsupported(BO, "assignment (internal error: no statement)");
  Stmts R;
  assignment(BO, *Cur, R);
  if (Failed)
    return nullptr;
  Frames.back().SideRev.push_back(std::move(R));
  HoistedEffects.insert(BO);
  // The value: the target, after the assignment.
  const Expr *LHS = strip(BO->getLHS());
  Expr *Target = isElementAccess(LHS) ? rebuildElement(LHS, false, true)
                                      : rebuild(LHS, false, true);
  return Need ? record(BO, Target) : Target;
}

Expr *PullbackBuilder::hoistIncrement(const UnaryOperator *UO, bool Need) {
  if (NoHoist)
    return unsupported(UO, std::string("'") +
                               UnaryOperator::getOpcodeStr(UO->getOpcode())
                                   .str() +
                               "' " + NoHoistWhy);
  const Expr *Sub = strip(UO->getSubExpr());
  QualType T = Sub->getType().getNonReferenceType().getUnqualifiedType();
  Expr *Target = isElementAccess(Sub) ? rebuildElement(Sub, false, false)
                                      : rebuild(Sub, false, true);
  if (!Target)
    return nullptr;
  HoistedEffects.insert(UO);
  Expr *Value;
  if (UO->isPostfix()) {
    // The value before: recorded, then the increment.
    VarDecl *Old = hoist("_t", T);
    Cur->push_back(B.assign(B.ref(Old), Target));
    if (!Loops.empty() && !Frames.empty())
      Frames.back().Recorded.push_back(Old);
    Values[UO] = Old;
    Expr *Again = isElementAccess(Sub) ? rebuildElement(Sub, false, true)
                                       : rebuild(Sub, false, true);
    Cur->push_back(B.unop(UO->isIncrementOp() ? UO_PreInc : UO_PreDec, Again));
    Value = B.ref(Old);
  } else {
    Cur->push_back(B.unop(UO->getOpcode(), Target));
    Expr *Again = isElementAccess(Sub) ? rebuildElement(Sub, false, true)
                                       : rebuild(Sub, false, true);
    Value = Need ? record(UO, Again) : Again;
  }
  // d(x + 1)/dx = 1: nothing to reverse; the adjoint of the value goes to
  // the target.
  return Value;
}

} // namespace grad
