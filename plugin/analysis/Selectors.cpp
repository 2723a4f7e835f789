//===- Selectors.cpp - std::min, std::max and std::clamp as '?:' ----------===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "analysis/Selectors.h"
#include "ast/Records.h"
#include "analysis/Facts.h"
#include "ast/Rules.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/Builtins.h"
#include "clang/Sema/Sema.h"
#include "clang/Sema/SemaInternal.h"


using namespace clang;

namespace grad {

FormBuilders StdFormBuilders;

/// Which selector \p CE calls, and whether with a comparator.
Selector selectorKind(const CallExpr *CE, bool &Comp) {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD || !FD->isInStdNamespace() || !FD->getIdentifier())
    return Selector::None;
  StringRef N = FD->getName();
  Selector K = N == "min"     ? Selector::Min
               : N == "max"   ? Selector::Max
               : N == "clamp" ? Selector::Clamp
                              : Selector::None;
  if (K == Selector::None)
    return K;
  unsigned Operands = K == Selector::Clamp ? 3 : 2;
  unsigned NP = FD->getNumParams();
  if ((NP != Operands && NP != Operands + 1) || CE->getNumArgs() != NP)
    return Selector::None;
  // const T & operands of a floating T (not initializer_list overloads).
  QualType R = FD->getReturnType();
  if (!R->isLValueReferenceType() ||
      !R.getNonReferenceType()->isRealFloatingType())
    return Selector::None;
  for (unsigned I = 0; I < Operands; ++I)
    if (!FD->getParamDecl(I)->getType()->isReferenceType())
      return Selector::None;
  Comp = NP == Operands + 1;
  return K;
}

/// The comparator argument as the object to call: a lambda or function
/// object, without the copy that passing it by value makes.
Expr *comparatorObject(const Expr *A) {
  const Expr *K = A->IgnoreImplicit();
  if (const auto *CC = dyn_cast<CXXConstructExpr>(K))
    if (CC->getNumArgs() == 1 &&
        CC->getConstructor()->isCopyOrMoveConstructor())
      K = CC->getArg(0)->IgnoreImplicit();
  return const_cast<Expr *>(K);
}

/// True if \p X may write memory or give another value when evaluated
/// again: a call through a pointer, of a function that may write through
/// its parameters, of a non-const member function, or of a function
/// without a visible body that is no `<cmath>` function (`rand()`,
/// `clock()`, a counter in another file).
static bool mayWrite(const Stmt *X) {
  if (!X)
    return false;
  if (const auto *C = dyn_cast<CallExpr>(X)) {
    const FunctionDecl *FD = C->getDirectCallee();
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
    if (!FD || writesThroughParams(FD) ||
        (MD && MD->isInstance() && !MD->isConst()))
      return true;
    if (!FD->hasBody() && !findRule(FD) && !FD->hasAttr<ConstAttr>() &&
        !FD->hasAttr<PureAttr>())
      return true;
  }
  for (const Stmt *Ch : X->children())
    if (mayWrite(Ch))
      return true;
  return false;
}

bool reevaluable(const Expr *E, const ASTContext &Ctx) {
  return !E->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false) &&
         !mayWrite(E);
}

const ConditionalOperator *selectorForm(const Facts &St, const Expr *E) {
  const auto *CE = dyn_cast_or_null<CallExpr>(E ? E->IgnoreParenImpCasts()
                                                : nullptr);
  if (!CE)
    return nullptr;
  auto It = St.SelectorForms.find(CE);
  if (It != St.SelectorForms.end())
    return It->second;
  const ConditionalOperator *CO =
      StdFormBuilders.Selector ? StdFormBuilders.Selector(St, CE) : nullptr;
  St.SelectorForms[CE] = CO;
  return CO;
}

bool isSelectorForm(const Facts &St, const ConditionalOperator *CO) {
  return St.SelectorParts.count(CO);
}

bool hasComparator(const Facts &St, const Expr *E) {
  const auto *CE = dyn_cast_or_null<CallExpr>(E ? E->IgnoreParenImpCasts()
                                                : nullptr);
  bool Comp = false;
  return CE && selectorKind(CE, Comp) != Selector::None && Comp &&
         selectorForm(St, CE);
}

const IfStmt *conditionalAssignment(const Facts &St, const Expr *E) {
  const auto *BO = dyn_cast_or_null<BinaryOperator>(
      E ? E->IgnoreParenImpCasts() : nullptr);
  if (!BO || !BO->isAssignmentOp() || !St.S)
    return nullptr;
  const auto *CO = dyn_cast<ConditionalOperator>(BO->getLHS()->IgnoreParens());
  if (!CO || !CO->isGLValue())
    return nullptr;
  auto It = St.ConditionalAssigns.find(BO);
  if (It != St.ConditionalAssigns.end())
    return It->second;
  const IfStmt *Out = nullptr;
  ASTContext &Ctx = St.S->getASTContext();
  // The condition runs before `e` here: neither may change anything.
  if (reevaluable(CO->getCond(), Ctx) && reevaluable(BO->getRHS(), Ctx) &&
      StdFormBuilders.ConditionalAssign)
    Out = StdFormBuilders.ConditionalAssign(St, BO);
  St.ConditionalAssigns[BO] = Out;
  return Out;
}

/// A std::vector or std::array of floating elements.
bool contiguousFloating(QualType T) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  const auto *TS = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  if (!TS || !TS->isInStdNamespace() || !TS->getIdentifier() ||
      (TS->getName() != "vector" && TS->getName() != "array") ||
      TS->getTemplateArgs().size() < 1 ||
      TS->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return false;
  return TS->getTemplateArgs()[0].getAsType()->isRealFloatingType();
}

/// A std::vector of floating elements.
bool floatingVector(QualType T) {
  return contiguousFloating(T) &&
         T.getNonReferenceType()->getAsCXXRecordDecl()->getName() == "vector";
}

const CallExpr *pointerForm(const Facts &St, const Expr *E) {
  const auto *CE = dyn_cast_or_null<CallExpr>(E ? E->IgnoreParenImpCasts()
                                                : nullptr);
  if (!CE)
    return nullptr;
  auto It = St.PointerForms.find(CE);
  if (It != St.PointerForms.end())
    return It->second;
  const CallExpr *PF =
      StdFormBuilders.Pointer ? StdFormBuilders.Pointer(St, CE) : nullptr;
  St.PointerForms[CE] = PF;
  return PF;
}

/// `same(a)` where `double &same(double &v) { return v; }`: the argument
/// the helper returns a reference to, when the helper's whole body returns
/// that reference parameter and the other arguments have no side effects.
static const Expr *buildIdentityForm(const CallExpr *CE) {
  const FunctionDecl *FD = CE->getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (!FD || isa<CXXMethodDecl>(FD) || FD->isVariadic() ||
      !FD->getReturnType()->isLValueReferenceType() || !FD->hasBody(Def) ||
      !Def)
    return nullptr;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  const auto *RS = Body && Body->size() == 1
                       ? dyn_cast<ReturnStmt>(Body->body_front())
                       : nullptr;
  const auto *DRE =
      RS && RS->getRetValue()
          ? dyn_cast<DeclRefExpr>(RS->getRetValue()->IgnoreParenImpCasts())
          : nullptr;
  const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
  if (!P || !P->getType()->isLValueReferenceType() ||
      P->getFunctionScopeIndex() >= CE->getNumArgs())
    return nullptr;
  const ASTContext &Ctx = FD->getASTContext();
  if (!Ctx.hasSameType(P->getType(), FD->getReturnType()))
    return nullptr;
  for (unsigned I = 0; I < CE->getNumArgs(); ++I)
    if (I != P->getFunctionScopeIndex() && CE->getArg(I)->HasSideEffects(Ctx))
      return nullptr;
  const Expr *A = CE->getArg(P->getFunctionScopeIndex());
  return A->isLValue() ? A : nullptr;
}

void noteDerefForms(const Facts &St, const Stmt *Body) {
  if (!Body)
    return;
  if (const auto *CE = dyn_cast<CallExpr>(Body);
      CE && !isa<CXXOperatorCallExpr>(CE))
    if (const Expr *F = buildIdentityForm(CE))
      St.DerefForms[CE] = F;
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(Body)) {
    if (const Expr *F =
            StdFormBuilders.Deref ? StdFormBuilders.Deref(St, OC) : nullptr)
      St.DerefForms[OC] = F;
    else if (const Expr *F = StdFormBuilders.Functional
                                 ? StdFormBuilders.Functional(St, OC)
                                 : nullptr)
      St.DerefForms[OC] = F;
  }
  for (const Stmt *C : Body->children())
    noteDerefForms(St, C);
}

} // namespace grad
