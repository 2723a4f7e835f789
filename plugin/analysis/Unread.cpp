//===- Unread.cpp - Calls whose values are never read ---------------------===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "analysis/Unread.h"
#include "ast/Rules.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace grad {
namespace {

class Reads {
public:
  llvm::DenseSet<const VarDecl *> Read;
  llvm::DenseSet<const CallExpr *> Candidates, ReadCalls;

  void stmt(const Stmt *St);

private:
  bool readVar(const VarDecl *VD) const {
    QualType T = VD->getType();
    // (A reference or pointer may write or read it anywhere.)
    return T->isReferenceType() || T->isPointerType() || Read.count(VD);
  }
  static bool isLiteral(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(E))
      if (U->getOpcode() == UO_Minus || U->getOpcode() == UO_Plus)
        E = U->getSubExpr()->IgnoreParenImpCasts();
    return isa<FloatingLiteral>(E) || isa<IntegerLiteral>(E);
  }
  static const VarDecl *localOf(const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    return VD && VD->isLocalVarDeclOrParm() ? VD : nullptr;
  }
  void all(const Stmt *St) {
    for (const Stmt *C : St->children())
      if (C) {
        if (const auto *E = dyn_cast<Expr>(C))
          expr(E, true);
        else
          stmt(C);
      }
  }
  void expr(const Expr *E, bool Need);
};

void Reads::expr(const Expr *E, bool Need) {
  if (!E)
    return;
  E = E->IgnoreParens();
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(E))
    return expr(IC->getSubExpr(), Need);
  if (const auto *EC = dyn_cast<ExplicitCastExpr>(E))
    return expr(EC->getSubExpr(),
                Need || !EC->getType()->isRealFloatingType());
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (Need)
        Read.insert(VD);
    return;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    bool Pass = UO->getOpcode() == UO_Minus || UO->getOpcode() == UO_Plus;
    return expr(UO->getSubExpr(), Need || !Pass);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    const Expr *L = BO->getLHS(), *R = BO->getRHS();
    switch (BO->getOpcode()) {
    case BO_Add:
    case BO_Sub:
      expr(L, Need);
      expr(R, Need);
      return;
    case BO_Mul:
      expr(L, Need || !isLiteral(R));
      expr(R, Need || !isLiteral(L));
      return;
    case BO_Div:
      expr(L, Need || !isLiteral(R));
      expr(R, true);
      return;
    case BO_Assign:
    case BO_AddAssign:
    case BO_SubAssign:
      if (const VarDecl *VD = localOf(L)) {
        expr(R, Need || readVar(VD));
        if (Need && BO->getOpcode() != BO_Assign)
          Read.insert(VD);
        return;
      }
      break;
    default:
      break;
    }
    expr(L, true);
    expr(R, true);
    return;
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = CE->getDirectCallee();
    const Rule *R = FD && !isa<CXXMemberCallExpr>(CE) ? findRule(FD) : nullptr;
    if (R && R->HasPartialOverX && CE->getNumArgs() == 1) {
      Candidates.insert(CE);
      if (Need)
        ReadCalls.insert(CE);
    }
  }
  all(E);
}

void Reads::stmt(const Stmt *St) {
  if (!St)
    return;
  if (const auto *E = dyn_cast<Expr>(St))
    return expr(E, false); // a statement's own value is dropped
  if (const auto *RS = dyn_cast<ReturnStmt>(St))
    return expr(RS->getRetValue(), false);
  if (const auto *DS = dyn_cast<DeclStmt>(St)) {
    for (const Decl *D : DS->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        expr(VD->getInit(), readVar(VD));
    return;
  }
  if (const auto *FS = dyn_cast<ForStmt>(St)) {
    stmt(FS->getInit());
    expr(FS->getCond(), true);
    stmt(FS->getInc());
    stmt(FS->getBody());
    return;
  }
  if (isa<CompoundStmt>(St)) {
    for (const Stmt *C : St->children())
      stmt(C);
    return;
  }
  all(St);
}

} // namespace

llvm::DenseSet<const CallExpr *> unreadRuleCalls(const Stmt *Body) {
  Reads R;
  // Locals only become read: repeat until no more do.
  size_t Before;
  do {
    Before = R.Read.size();
    R.stmt(Body);
  } while (R.Read.size() != Before);
  llvm::DenseSet<const CallExpr *> Out;
  for (const CallExpr *CE : R.Candidates)
    if (!R.ReadCalls.count(CE))
      Out.insert(CE);
  return Out;
}

} // namespace grad
