//===- Complex.cpp - How std::complex calls are differentiated --*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Which <complex> function or operator a call is, and which rule
/// differentiates it (the builders' side is reverse/Complex.cpp and the
/// forward builder's calls).
///
//===----------------------------------------------------------------------===//

#include "analysis/Complex.h"
#include "ast/Records.h"
#include "ast/Rules.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace grad {

/// True if \p FD belongs to <complex>: a function or operator of namespace
/// std with a std::complex parameter or result, or a member of std::complex.
bool isComplexFunction(const FunctionDecl *FD) {
  if (const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD))
    return isComplex(QualType(MD->getParent()->getTypeForDecl(), 0));
  if (!FD || !FD->isInStdNamespace())
    return false;
  if (isComplex(FD->getReturnType()))
    return true;
  for (const ParmVarDecl *P : FD->parameters())
    if (isComplex(P->getType()))
      return true;
  return false;
}

bool complexCall(const CallExpr *CE, ComplexCall &CC) {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!isComplexFunction(FD))
    return false;
  CC = ComplexCall();
  CC.Callee = FD;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
    // z.real(), z.imag(): the getters (the setters write z).
    const auto *MD = MC->getMethodDecl();
    if (!MD->getIdentifier() || MC->getNumArgs() != 0)
      return false;
    CC.Member = true;
    CC.Args.push_back(MC->getImplicitObjectArgument());
    if (MD->getName() == "real")
      CC.Op = ComplexOp::Real;
    else if (MD->getName() == "imag")
      CC.Op = ComplexOp::Imag;
    else
      return false;
    return true;
  }
  for (const Expr *A : CE->arguments()) {
    if (isa<CXXDefaultArgExpr>(A))
      break;
    CC.Args.push_back(A);
  }
  unsigned N = CC.Args.size();
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE)) {
    if (isa<CXXMethodDecl>(FD))
      return false; // z += w, z = w: assignments
    switch (OC->getOperator()) {
    case OO_Plus:
      CC.Op = N == 1 ? ComplexOp::Pos : ComplexOp::Add;
      return true;
    case OO_Minus:
      CC.Op = N == 1 ? ComplexOp::Neg : ComplexOp::Sub;
      return true;
    case OO_Star:
      CC.Op = ComplexOp::Mul;
      return N == 2;
    case OO_Slash:
      CC.Op = ComplexOp::Div;
      return N == 2;
    default:
      return false; // ==, !=, <<, >>: no derivative, replayed
    }
  }
  if (!FD->getIdentifier())
    return false;
  StringRef Name = FD->getName();
  static const std::pair<const char *, ComplexOp> Builtin[] = {
      {"real", ComplexOp::Real}, {"imag", ComplexOp::Imag},
      {"abs", ComplexOp::Abs},   {"arg", ComplexOp::Arg},
      {"norm", ComplexOp::Norm}, {"conj", ComplexOp::Conj},
      {"proj", ComplexOp::Proj}, {"polar", ComplexOp::Polar}};
  for (const auto &[BName, Op] : Builtin)
    if (Name == BName) {
      CC.Op = Op;
      return N == 1 || (Op == ComplexOp::Polar && N == 2);
    }
  if (const Rule *Ru = findComplexRule(Name, N)) {
    CC.Op = ComplexOp::Rule;
    CC.Ru = Ru;
    return true;
  }
  CC.Op = ComplexOp::Unknown;
  return true;
}

const CXXConstructExpr *complexConstruction(const Expr *E) {
  const auto *CC = dyn_cast_or_null<CXXConstructExpr>(E);
  if (!CC || !isComplex(CC->getType()) ||
      CC->getConstructor()->isCopyOrMoveConstructor())
    return nullptr;
  return CC;
}

} // namespace grad
