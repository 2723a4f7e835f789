//===- Lift.cpp - Lambdas passed to map and broadcast -----------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "lift/Lift.h"
#include "ast/Diagnostics.h"
#include "ast/Abi.h"
#include "ast/Rules.h"
#include "ast/SemaBuilder.h"
#include "analysis/Unread.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace grad {

//===----------------------------------------------------------------------===//
// Cloning a callable's body into a new function
//===----------------------------------------------------------------------===//

namespace {
class Cloner {
public:
  Cloner(Sema &S, FunctionDecl *Fn, QualType Dual)
      : B(S, Fn->getLocation()), S(S), Ctx(S.Context), Fn(Fn), Dual(Dual) {}

  SemaBuilder B;
  llvm::DenseMap<const VarDecl *, VarDecl *> Map;
  /// `const C &self`, the captured `this`.
  VarDecl *Self = nullptr;
  /// Rule calls whose value part is never read (see Unread.h).
  llvm::DenseSet<const CallExpr *> Unread;
  std::string Error;
  SourceLocation ErrorLoc;

  QualType type(QualType T) const {
    if (!Dual.isNull() && isFloating(T.getNonReferenceType()))
      return Dual;
    return T;
  }
  bool isDual(const Expr *E) const {
    return E && !Dual.isNull() &&
           Ctx.hasSameUnqualifiedType(E->getType().getNonReferenceType(),
                                      Dual);
  }
  Expr *toDual(Expr *E) {
    if (!E || Dual.isNull() || isDual(E) || !E->getType()->isArithmeticType())
      return E;
    // D{static_cast<T>(e)}: a constant dual number.
    QualType T = cast<ClassTemplateSpecializationDecl>(
                     Dual->getAsCXXRecordDecl())
                     ->getTemplateArgs()[0]
                     .getAsType();
    Expr *V = B.staticCast(T, E);
    if (!V)
      return nullptr;
    ExprResult IL = S.ActOnInitList(B.Loc, MultiExprArg(&V, 1), B.Loc);
    if (IL.isInvalid())
      return nullptr;
    Expr *ILE = IL.get();
    ExprResult R = S.BuildCXXTypeConstructExpr(
        Ctx.getTrivialTypeSourceInfo(Dual, B.Loc), B.Loc,
        MultiExprArg(&ILE, 1), B.Loc, /*ListInitialization=*/true);
    return R.isInvalid() ? nullptr : R.get();
  }

  Expr *fail(const Stmt *St, StringRef What) {
    if (Error.empty()) {
      Error = What.str();
      ErrorLoc = St->getBeginLoc();
    }
    return nullptr;
  }

  Expr *expr(const Expr *E);
  Stmt *stmt(const Stmt *St);

private:
  /// A reference to a mapped local, a global or an enumerator.
  Expr *declRef(const DeclRefExpr *DRE);
  /// A unary operator; pointer operations are refused in dual lambdas.
  Expr *unaryOp(const UnaryOperator *UO);
  /// A data member of a parameter or capture.
  Expr *memberAccess(const MemberExpr *ME);
  /// A subscript or a call of a callable object; other operators refused.
  Expr *operatorCall(const CXXOperatorCallExpr *OC);
  /// A named member function call on a parameter, capture or `this`.
  Expr *memberCall(const CXXMemberCallExpr *MC);
  /// A direct call; with dual arguments, the rule's dual overload.
  Expr *call(const CallExpr *CE);
  /// A cast; a floating cast of a dual stays dual.
  Expr *explicitCast(const ExplicitCastExpr *EC);

  Sema &S;
  ASTContext &Ctx;
  FunctionDecl *Fn;
  QualType Dual;
};

Expr *Cloner::declRef(const DeclRefExpr *DRE) {
  if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
    auto It = Map.find(VD);
    if (It != Map.end())
      return B.ref(It->second);
    if (!VD->isLocalVarDeclOrParm() || VD->isStaticLocal())
      return B.ref(const_cast<VarDecl *>(VD));
    return fail(DRE, "reference to '" + VD->getNameAsString() + "'");
  }
  if (const auto *ECD = dyn_cast<EnumConstantDecl>(DRE->getDecl()))
    return B.ref(const_cast<EnumConstantDecl *>(ECD));
  return fail(DRE, "reference to '" + DRE->getDecl()->getNameAsString() + "'");
}

Expr *Cloner::unaryOp(const UnaryOperator *UO) {
  // (Lifted as written for a lambda called in the function, which is
  // differentiated like a helper; map's tangent functions have no
  // pointers to duals, and Map.cpp refuses pointers in map callables.)
  if ((UO->getOpcode() == UO_Deref || UO->getOpcode() == UO_AddrOf) &&
      !Dual.isNull())
    return fail(UO, "pointer operation '" + spelledExpr(Ctx, UO) +
                        "' in a lambda (read the value into a local before "
                        "the lambda, or write the lambda's body in the "
                        "function)");
  return B.unop(UO->getOpcode(), expr(UO->getSubExpr()));
}

Expr *Cloner::memberAccess(const MemberExpr *ME) {
  // p.b, q->w, this->w: a data member of a parameter or capture.
  const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!FD || !FD->getIdentifier())
    return fail(ME, "member access");
  if (Self && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
    return B.member(B.ref(Self), FD->getName());
  return B.member(expr(ME->getBase()), FD->getName(), ME->isArrow());
}

Expr *Cloner::operatorCall(const CXXOperatorCallExpr *OC) {
  if (OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2)
    return B.subscript(expr(OC->getArg(0)), expr(OC->getArg(1)));
  if (OC->getOperator() == OO_Call && OC->getNumArgs() >= 1 &&
      !isDual(expr(OC->getArg(0)))) {
    SmallVector<Expr *, 4> Args;
    for (unsigned I = 1; I < OC->getNumArgs(); ++I)
      Args.push_back(expr(OC->getArg(I)));
    return B.call(expr(OC->getArg(0)), Args); // obj(args...)
  }
  return fail(OC, "overloaded operator call");
}

Expr *Cloner::memberCall(const CXXMemberCallExpr *MC) {
  const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens());
  if (!ME || !MC->getMethodDecl() || !MC->getMethodDecl()->getIdentifier())
    return fail(MC, "member function call");
  SmallVector<Expr *, 4> Args;
  for (const Expr *A : MC->arguments())
    if (!isa<CXXDefaultArgExpr>(A))
      Args.push_back(expr(A));
  if (Self && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
    return B.memberCall(B.ref(Self), MC->getMethodDecl()->getName(), Args);
  return B.memberCall(expr(ME->getBase()), MC->getMethodDecl()->getName(), Args,
                      ME->isArrow());
}

Expr *Cloner::call(const CallExpr *CE) {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return fail(CE, constructName(CE));
  SmallVector<Expr *, 4> Args;
  bool AnyDual = false;
  for (const Expr *A : CE->arguments()) {
    // (Default arguments too: the lifted call names the function anew.)
    Args.push_back(expr(A));
    if (!Args.back())
      return nullptr;
    AnyDual |= isDual(Args.back());
  }
  if (AnyDual) {
    // Dual arguments: the rule's dual overload from grad/dual.h.
    const Rule *R = findRule(FD);
    if (!R)
      return fail(CE, "call to '" + nameOf(FD) +
                          "' in a dual-number lambda");
    // dual.h takes any mix of one dual type and arithmetic scalars.
    if (Unread.count(CE))
      return B.callRuntime(std::string(R->Name) + "_der", {}, Args);
    return B.callGrad(R->Name, Args);
  }
  return B.call(B.funcRef(const_cast<FunctionDecl *>(FD)), Args);
}

Expr *Cloner::explicitCast(const ExplicitCastExpr *EC) {
  QualType T = EC->getTypeAsWritten();
  Expr *Sub = expr(EC->getSubExpr());
  if (isDual(Sub) && isFloating(T))
    return Sub;
  if (!Dual.isNull() && isFloating(T))
    return toDual(Sub);
  return B.staticCast(T, Sub);
}

Expr *Cloner::expr(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreImplicit()->IgnoreParens();
  if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(E))
    return expr(DA->getExpr());
  if (const auto *NT = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
    return expr(NT->getReplacement());
  B.Loc = E->getExprLoc();
  if (const auto *FL = dyn_cast<FloatingLiteral>(E))
    return FloatingLiteral::Create(Ctx, FL->getValue(), FL->isExact(),
                                   FL->getType(), B.Loc);
  if (const auto *IL = dyn_cast<IntegerLiteral>(E))
    return IntegerLiteral::Create(Ctx, IL->getValue(), IL->getType(), B.Loc);
  if (const auto *BL = dyn_cast<CXXBoolLiteralExpr>(E))
    return B.boolLit(BL->getValue());
  if (isa<CXXNullPtrLiteralExpr>(E))
    return new (Ctx) CXXNullPtrLiteralExpr(Ctx.NullPtrTy, B.Loc);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return declRef(DRE);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return unaryOp(UO);
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    Expr *L = expr(BO->getLHS()), *R = expr(BO->getRHS());
    if (BO->getOpcode() == BO_Assign && isDual(L))
      R = toDual(R);
    return B.binop(BO->getOpcode(), L, R);
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    Expr *T = expr(CO->getTrueExpr()), *F = expr(CO->getFalseExpr());
    if (isDual(T) || isDual(F)) {
      T = toDual(T);
      F = toDual(F);
    }
    return B.cond(expr(CO->getCond()), T, F);
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return B.subscript(expr(AS->getBase()), expr(AS->getIdx()));
  if (isa<CXXThisExpr>(E)) {
    if (!Self)
      return fail(E, "'this'");
    return B.addrOf(B.ref(Self));
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return memberAccess(ME);
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E))
    return operatorCall(OC);
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
    return memberCall(MC);
  if (const auto *CE = dyn_cast<CallExpr>(E))
    return call(CE);
  if (const auto *EC = dyn_cast<ExplicitCastExpr>(E))
    return explicitCast(EC);
  return fail(E, constructName(E));
}

Stmt *Cloner::stmt(const Stmt *St) {
  if (!St)
    return nullptr;
  B.Loc = St->getBeginLoc();
  if (const auto *CS = dyn_cast<CompoundStmt>(St)) {
    SmallVector<Stmt *, 16> Body;
    for (const Stmt *C : CS->body())
      Body.push_back(stmt(C));
    return B.block(Body);
  }
  if (const auto *DS = dyn_cast<DeclStmt>(St)) {
    SmallVector<Decl *, 4> Decls;
    for (const Decl *D : DS->decls()) {
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!VD || VD->isStaticLocal()) {
        fail(St, "local declaration");
        return nullptr;
      }
      QualType T = type(VD->getType());
      if (VD->getInit() && isa<LambdaExpr>(VD->getInit()->IgnoreImplicit())) {
        fail(St, "lambda declared inside a lambda (write the body of '" +
                     VD->getNameAsString() + "' where it is called)");
        return nullptr;
      }
      Expr *Init = VD->hasInit() ? expr(VD->getInit()) : nullptr;
      // (Never a variable without the initializer that failed.)
      if (VD->hasInit() && !Init)
        return nullptr;
      if (T == Dual)
        Init = toDual(Init);
      VarDecl *NV = B.var(Fn, VD->getName(), T, Init);
      Map[VD] = NV;
      Decls.push_back(NV);
    }
    return new (Ctx) DeclStmt(
        DeclGroupRef::Create(Ctx, Decls.data(), Decls.size()), B.Loc, B.Loc);
  }
  if (const auto *RS = dyn_cast<ReturnStmt>(St)) {
    Expr *V = RS->getRetValue() ? expr(RS->getRetValue()) : nullptr;
    if (RS->getRetValue() && !V)
      return nullptr;
    if (V && !Dual.isNull() && isFloating(Fn->getReturnType()) == false &&
        Ctx.hasSameUnqualifiedType(Fn->getReturnType(), Dual))
      V = toDual(V);
    StmtResult R = S.BuildReturnStmt(B.Loc, V);
    if (R.isInvalid()) {
      fail(St, "return statement");
      return nullptr;
    }
    return R.get();
  }
  if (const auto *IS = dyn_cast<IfStmt>(St)) {
    if (IS->getInit() || IS->getConditionVariable()) {
      fail(St, "'if' with an initializer");
      return nullptr;
    }
    return B.ifStmt(expr(IS->getCond()), stmt(IS->getThen()),
                    IS->getElse() ? stmt(IS->getElse()) : nullptr);
  }
  if (const auto *FS = dyn_cast<ForStmt>(St))
    return B.forStmt(stmt(FS->getInit()), expr(FS->getCond()),
                     expr(FS->getInc()), stmt(FS->getBody()));
  if (const auto *WS = dyn_cast<WhileStmt>(St))
    return B.whileStmt(expr(WS->getCond()), stmt(WS->getBody()));
  if (const auto *DS = dyn_cast<DoStmt>(St))
    return B.doStmt(stmt(DS->getBody()), expr(DS->getCond()));
  if (isa<BreakStmt>(St))
    return B.breakStmt();
  if (isa<ContinueStmt>(St))
    return B.continueStmt();
  if (isa<NullStmt>(St))
    return new (Ctx) NullStmt(B.Loc);
  if (const auto *E = dyn_cast<Expr>(St))
    return expr(E);
  fail(St, constructName(St));
  return nullptr;
}
} // namespace

//===----------------------------------------------------------------------===//
// Lifting (the driver names and records the functions: driver/Lambdas.cpp)
//===----------------------------------------------------------------------===//


bool cloneLifted(Sema &S, const LambdaInfo &Info, FunctionDecl *Fn,
                 QualType Dual, const FunctionDecl *Primal) {
  const FunctionDecl *F = Info.Callee;
  SourceLocation Loc = Fn->getLocation();
  ArrayRef<ParmVarDecl *> Params = Fn->parameters();
  Sema::SynthesizedFunctionScope Scope(S, Fn);
  Cloner C(S, Fn, Dual);
  unsigned I = 0;
  for (const ParmVarDecl *P : F->parameters())
    C.Map[P] = Params[I++];
  for (const LiftedCapture &Cap : Info.Caps) {
    if (Cap.This)
      C.Self = Params[I++];
    else
      C.Map[Cap.Var] = Params[I++];
  }
  // A tangent function serves tangent_pullback alone, which reads the
  // derivative part of its result only.
  if (!Dual.isNull())
    C.Unread = unreadRuleCalls(F->getBody());
  Stmt *Body = C.stmt(F->getBody());
  if (!C.Error.empty() || !Body || C.B.Failed) {
    report(S.Diags, Diag::UnsupportedConstruct,
           C.ErrorLoc.isValid() ? C.ErrorLoc : Loc)
        << (C.Error.empty() ? std::string("lambda body") : C.Error)
        << nameOf(Primal);
    return false;
  }
  Fn->setBody(Body);
  return true;
}


VarDecl *captureCopy(ASTContext &Ctx, const VarDecl *V, const Expr *Init,
                     const LambdaExpr *L, StringRef Name) {
  QualType T = V->getType().getNonReferenceType().getUnqualifiedType();
  SourceLocation Loc = L->getBeginLoc();
  VarDecl *C = VarDecl::Create(
      Ctx, const_cast<DeclContext *>(V->getDeclContext()), Loc, Loc,
      &Ctx.Idents.get(Name), T, Ctx.getTrivialTypeSourceInfo(T, Loc),
      SC_None);
  C->setInit(const_cast<Expr *>(Init));
  return C;
}


} // namespace grad
