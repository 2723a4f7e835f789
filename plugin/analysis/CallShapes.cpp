//===- CallShapes.cpp - Every way a call is written -------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// One classification of calls for every builder: by the node Clang built
/// (a member call, an operator call, a kernel call, a literal, a plain
/// call; ast/NodePolicy.h CallClasses lists them) and then by its callee.
/// Anything not recognised is Unknown.
///
//===----------------------------------------------------------------------===//

#include "analysis/CallShapes.h"
#include "analysis/Paths.h"
#include "ast/Diagnostics.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace grad {

CallShape callShape(const CallExpr *CE) {
  if (isa<CUDAKernelCallExpr>(CE))
    return CallShape::Kernel;
  if (isa<UserDefinedLiteral>(CE))
    return CallShape::Literal;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (!MD)
      return CallShape::MemberPointer; // (obj.*pm)(x)
    if (isa<CXXDestructorDecl>(MD))
      return CallShape::Destructor;
    if (virtualDispatch(CE))
      return CallShape::Virtual;
    return MD->isStatic() ? CallShape::StaticMember : CallShape::Member;
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE)) {
    const auto *FD = dyn_cast_or_null<FunctionDecl>(OC->getCalleeDecl());
    if (!FD)
      return CallShape::Unknown;
    if (OC->getOperator() == OO_Call) {
      const auto *MD = dyn_cast<CXXMethodDecl>(FD);
      if (MD && MD->getParent()->isLambda())
        return CallShape::Lambda;
      return CallShape::Functor;
    }
    if (virtualDispatch(CE))
      return CallShape::Virtual;
    const auto *MD = dyn_cast<CXXMethodDecl>(FD);
    return MD && !MD->isStatic() ? CallShape::MemberOperator
                                 : CallShape::FreeOperator;
  }
  if (isa<CXXPseudoDestructorExpr>(CE->getCallee()->IgnoreParens()))
    return CallShape::PseudoDestructor;
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD) {
    QualType T = CE->getCallee()->getType();
    if (T->isPointerType())
      T = T->getPointeeType();
    if (T->isFunctionType() || T->isReferenceType())
      return CallShape::FunctionPointer;
    return CallShape::Unknown;
  }
  if (FD->getBuiltinID())
    return CallShape::Builtin;
  if (FD->isVariadic())
    return CallShape::Variadic;
  if (isa<CXXMethodDecl>(FD))
    return cast<CXXMethodDecl>(FD)->isStatic() ? CallShape::StaticMember
                                               : CallShape::Member;
  return CallShape::Function;
}

CallPolicy callPolicy(CallShape Shape) {
  switch (Shape) {
#define GRAD_CALL_SHAPE(Name, Policy, Example)                                 \
  case CallShape::Name:                                                        \
    return CallPolicy::Policy;
#include "analysis/CallShapes.def"
  }
  return CallPolicy::Refused;
}

const char *callShapeName(CallShape Shape) {
  switch (Shape) {
#define GRAD_CALL_SHAPE(Name, Policy, Example)                                 \
  case CallShape::Name:                                                        \
    return #Name;
#include "analysis/CallShapes.def"
  }
  return "Unknown";
}

std::string callShapeRefusal(const ASTContext &Ctx, const CallExpr *CE,
                             CallShape Shape) {
  switch (Shape) {
  case CallShape::Virtual:
    return virtualCallName(virtualDispatch(CE));
  case CallShape::Variadic:
    return "call to variadic function '" +
           CE->getDirectCallee()->getNameAsString() + "'";
  case CallShape::MemberPointer: {
    // (n.*pm)(x), (p->*pm)(x): name the pointer.
    const Expr *Ptr = CE->getCallee()->IgnoreParens();
    if (const auto *BO = dyn_cast<BinaryOperator>(Ptr); BO && BO->isPtrMemOp())
      Ptr = BO->getRHS();
    return "call through the member function pointer '" +
           spelledExpr(Ctx, Ptr) + "' (call the member function by name)";
  }
  case CallShape::Kernel:
    return "CUDA kernel call";
  case CallShape::Unknown:
    return "call '" + spelledExpr(Ctx, CE) + "'";
  case CallShape::FunctionPointer: {
    // `table[k](x)`: a pointer loaded at run time, named as written.
    const Expr *Callee = CE->getCallee()->IgnoreParenImpCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(Callee);
        U && U->getOpcode() == UO_Deref)
      Callee = U->getSubExpr()->IgnoreParenImpCasts();
    if (!isa<DeclRefExpr>(Callee) && !isa<MemberExpr>(Callee))
      return "call through the function pointer '" +
             spelledExpr(Ctx, Callee) +
             "' (its target is chosen at run time: call the functions by "
             "name, in a switch over the index)";
    return constructName(CE); // "call through the function pointer 'g'"
  }
  default:
    return constructName(CE);
  }
}

} // namespace grad
