//===- Promotion.cpp - Implicit float-to-double promotion -------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "analysis/Promotion.h"
#include "ast/Diagnostics.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace grad {
namespace {

bool isFloat(QualType T) {
  const auto *BT = T.getCanonicalType()->getAs<BuiltinType>();
  return BT && BT->getKind() == BuiltinType::Float;
}

/// The float value \p E widens, if \p E is an implicit float-to-wider cast.
const Expr *widenedFloat(const Expr *E) {
  E = E->IgnoreParens();
  const auto *ICE = dyn_cast<ImplicitCastExpr>(E);
  if (!ICE || ICE->getCastKind() != CK_FloatingCast)
    return nullptr;
  const Expr *Sub = ICE->getSubExpr();
  if (!isFloat(Sub->getType()) || isFloat(ICE->getType()))
    return nullptr;
  return Sub;
}

struct Checker : RecursiveASTVisitor<Checker> {
  Sema &S;
  const FunctionDecl *FD;
  llvm::DenseSet<const Expr *> Seen;
  Checker(Sema &S, const FunctionDecl *FD) : S(S), FD(FD) {}

  /// The fix-it for a double literal: `0.01` -> `0.01f`.
  std::optional<FixItHint> literalFix(const Expr *W) {
    const auto *Lit = dyn_cast_or_null<FloatingLiteral>(W);
    if (!Lit || Lit->getLocation().isMacroID())
      return std::nullopt;
    SourceManager &SM = S.getSourceManager();
    SourceLocation End =
        Lexer::getLocForEndOfToken(Lit->getLocation(), 0, SM, S.getLangOpts());
    StringRef Text = Lexer::getSourceText(
        CharSourceRange::getCharRange(Lit->getLocation(), End), SM,
        S.getLangOpts());
    if (Text.empty() ||
        !(isdigit(static_cast<unsigned char>(Text.back())) ||
          Text.back() == '.'))
      return std::nullopt;
    return FixItHint::CreateInsertion(End, "f");
  }

  void warn(const Expr *At, const Expr *Wide, QualType To) {
    if (!Seen.insert(At).second)
      return;
    const Expr *W = Wide ? Wide->IgnoreParenImpCasts() : nullptr;
    std::optional<FixItHint> Fix = literalFix(W);
    {
      auto DB = report(S.Diags, Diag::Promotion, At->getExprLoc());
      DB << To.getCanonicalType().getUnqualifiedType().getAsString()
         << nameOf(FD)
         << At->getSourceRange();
      if (Fix)
        DB << *Fix;
    }
    if (W && !Fix)
      report(S.Diags, Diag::PromotionOperandNote, W->getExprLoc())
          << W->getType().getCanonicalType().getUnqualifiedType().getAsString();
  }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->getOpcode() == BO_Assign || BO->isLogicalOp() || BO->isCommaOp())
      return true;
    const Expr *L = BO->getLHS(), *R = BO->getRHS();
    if (const auto *CA = dyn_cast<CompoundAssignOperator>(BO)) {
      // f *= 0.5: the computation type is double.
      if (isFloat(BO->getLHS()->getType()) &&
          !isFloat(CA->getComputationResultType()) &&
          CA->getComputationResultType()->isRealFloatingType())
        warn(BO, R, CA->getComputationResultType());
      return true;
    }
    // (0.01 * x) * x: one warning, at the promotion that made the left
    // operand double; its fix makes the outer product float too.
    if (widenedFloat(L) && !widenedFloat(R) && !promotedInside(R))
      warn(BO, R, L->getType());
    else if (widenedFloat(R) && !widenedFloat(L) && !promotedInside(L))
      warn(BO, L, R->getType());
    return true;
  }

  /// True if \p E is wide because a float was promoted inside it.
  static bool promotedInside(const Expr *E) {
    const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
    if (!BO || BO->isAssignmentOp() || BO->isLogicalOp() || BO->isCommaOp())
      return false;
    if ((widenedFloat(BO->getLHS()) != nullptr) !=
        (widenedFloat(BO->getRHS()) != nullptr))
      return true;
    return promotedInside(BO->getLHS()) || promotedInside(BO->getRHS());
  }

  bool VisitCallExpr(CallExpr *CE) {
    // A float passed where the callee takes a double (e.g. ::exp(float)).
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee)
      return true;
    for (unsigned I = 0; I < CE->getNumArgs() && I < Callee->getNumParams();
         ++I)
      if (const Expr *F = widenedFloat(CE->getArg(I)))
        warn(CE->getArg(I), nullptr, CE->getArg(I)->getType()), (void)F;
    return true;
  }

  bool VisitLambdaExpr(LambdaExpr *L) {
    // A callable whose result is wider than its floating inputs.
    const CXXMethodDecl *MD = L->getCallOperator();
    QualType R = MD->getReturnType();
    if (!R->isRealFloatingType() || isFloat(R))
      return true;
    bool AllFloat = MD->getNumParams() > 0;
    for (const ParmVarDecl *P : MD->parameters())
      AllFloat &= isFloat(P->getType().getNonReferenceType());
    if (AllFloat && Seen.insert(L).second)
      report(S.Diags, Diag::PromotionLambda, L->getBeginLoc())
          << R.getUnqualifiedType().getAsString() << nameOf(FD);
    return true;
  }
};

} // namespace

void checkPromotions(Sema &S, const FunctionDecl *FD) {
  if (!FD->getBody() || S.Diags.getIgnoreAllWarnings())
    return;
  Checker C(S, FD);
  C.TraverseStmt(FD->getBody());
}

} // namespace grad
