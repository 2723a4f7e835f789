//===- Callables.cpp - Which callable an expression names -------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// findLambda / initLambda / findFunction: the lambda or function a call's
/// callee or a map's callable names, also through a local variable (`auto
/// f = [..]`, a `std::function` only called).
///
//===----------------------------------------------------------------------===//

#include "analysis/Callables.h"
#include "ast/Diagnostics.h"
#include "ast/Records.h"
#include "analysis/Facts.h"
#include "ast/Rules.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace grad {

static const Expr *peel(const Expr *E) {
  while (E) {
    const Expr *N = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *CE = dyn_cast<CXXConstructExpr>(N))
      if (CE->getNumArgs() == 1 && CE->getConstructor()->isCopyOrMoveConstructor())
        N = CE->getArg(0);
    if (const auto *UO = dyn_cast<UnaryOperator>(N))
      if (UO->getOpcode() == UO_AddrOf)
        N = UO->getSubExpr();
    if (N == E)
      return E;
    E = N;
  }
  return E;
}

namespace {
/// True if every use of \p VD in \p Body is a call `VD(...)`.
struct OnlyCalled : RecursiveASTVisitor<OnlyCalled> {
  const VarDecl *VD;
  bool OK = true;
  llvm::DenseSet<const DeclRefExpr *> Callees;
  explicit OnlyCalled(const VarDecl *VD) : VD(VD) {}
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
    if (OC->getOperator() == OO_Call && OC->getNumArgs() >= 1)
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(OC->getArg(0)->IgnoreImpCasts()))
        Callees.insert(DRE);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    // (The call's object is visited after the call itself.)
    if (DRE->getDecl() == VD && !Callees.count(DRE))
      OK = false;
    return OK;
  }
};

/// Parameter and result types as a call sees them (no references, no cv).
QualType callType(QualType T) {
  return T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
}
} // namespace

const LambdaExpr *initLambda(const VarDecl *VD) {
  if (!VD || !VD->isLocalVarDecl() || !VD->hasInit())
    return nullptr;
  if (const auto *L = dyn_cast<LambdaExpr>(peel(VD->getInit())))
    return L;
  // std::function<R(A...)> f = [..](A...) {..}, then only called: a name
  // for the lambda (whose call signature is the function's).
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      VD->getType()->getAsCXXRecordDecl());
  if (!Spec || !Spec->isInStdNamespace() || !Spec->getIdentifier() ||
      Spec->getName() != "function" || Spec->getTemplateArgs().size() != 1)
    return nullptr;
  const auto *CE = dyn_cast<CXXConstructExpr>(VD->getInit()->IgnoreImplicit());
  if (!CE || CE->getNumArgs() != 1 ||
      CE->getConstructor()->isCopyOrMoveConstructor())
    return nullptr;
  const auto *L = dyn_cast<LambdaExpr>(peel(CE->getArg(0)));
  const auto *FT = Spec->getTemplateArgs()[0].getAsType()
                       ->getAs<FunctionProtoType>();
  if (!L || !FT)
    return nullptr;
  const CXXMethodDecl *Op = L->getCallOperator();
  if (Op->isTemplated() || Op->getNumParams() != FT->getNumParams() ||
      callType(Op->getReturnType()) != callType(FT->getReturnType()))
    return nullptr;
  for (unsigned I = 0; I < FT->getNumParams(); ++I)
    if (callType(Op->getParamDecl(I)->getType()) !=
        callType(FT->getParamType(I)))
      return nullptr;
  auto &Called = Facts::get(VD->getASTContext()).OnlyCalled;
  auto [It, New] = Called.try_emplace(VD, false);
  if (New) {
    OnlyCalled C(VD);
    if (const auto *FD = dyn_cast<FunctionDecl>(VD->getDeclContext()))
      C.TraverseStmt(FD->getBody());
    else
      C.OK = false;
    It->second = C.OK;
  }
  return It->second ? L : nullptr;
}

std::string lambdaPassed(const ASTContext &Ctx, const Expr *A,
                         const FunctionDecl *FD, llvm::StringRef Why) {
  std::string S = isa<LambdaExpr>(peel(A))
                      ? std::string("lambda")
                      : "lambda '" + spelledExpr(Ctx, A) + "'";
  S += " passed to '" + nameOf(FD) + "'";
  if (!Why.empty())
    S += " " + Why.str();
  return S;
}

std::string unseenTarget(const ASTContext &Ctx, const CallExpr *CE) {
  const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE);
  if (!OC || OC->getOperator() != OO_Call || OC->getNumArgs() < 1 ||
      !isStdClass(OC->getArg(0)->getType().getNonReferenceType(), "function"))
    return "";
  std::string S = "call of the std::function '" +
                  spelledExpr(Ctx, OC->getArg(0)) + "'";
  const auto *DRE =
      dyn_cast<DeclRefExpr>(OC->getArg(0)->IgnoreParenImpCasts());
  if (DRE && isa<ParmVarDecl>(DRE->getDecl()))
    return S + ", a parameter whose target the plugin cannot see here "
               "(differentiate the caller that binds it to a lambda or "
               "function)";
  return S + ", whose target the plugin cannot follow (it follows one "
             "initialised with a lambda or function and then only called)";
}

bool captureFreeObject(const VarDecl *VD) {
  const LambdaExpr *L = initLambda(VD);
  if (!L || L->capture_size() != 0 || L->getCaptureDefault() != LCD_None ||
      !isa<LambdaExpr>(peel(VD->getInit())))
    return false;
  OnlyCalled C(VD);
  if (const auto *FD = dyn_cast<FunctionDecl>(VD->getDeclContext()))
    C.TraverseStmt(FD->getBody());
  return !C.OK;
}

const LambdaExpr *findLambda(const Expr *E) {
  E = peel(E);
  if (const auto *L = dyn_cast_or_null<LambdaExpr>(E))
    return L;
  // A local variable initialised with a lambda.
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E))
    return initLambda(dyn_cast<VarDecl>(DRE->getDecl()));
  return nullptr;
}

const FunctionDecl *findFunction(const Expr *E) {
  E = peel(E);
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E))
    return dyn_cast<FunctionDecl>(DRE->getDecl());
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Classifying the callables of map and broadcast
//===----------------------------------------------------------------------===//

const Expr *pointerOperation(const Stmt *St) {
  if (!St || isa<LambdaExpr>(St))
    return nullptr;
  if (const auto *UO = dyn_cast<UnaryOperator>(St))
    if (UO->getOpcode() == UO_Deref || UO->getOpcode() == UO_AddrOf)
      return UO;
  for (const Stmt *C : St->children())
    if (const Expr *P = pointerOperation(C))
      return P;
  return nullptr;
}

namespace {
/// Finds what makes a callable impure: writes to captured or global state,
/// reads of mutable globals, calls to functions without rules.
struct Purity : RecursiveASTVisitor<Purity> {
  const FunctionDecl *Callee;
  llvm::DenseSet<const VarDecl *> Captured;
  std::string Writes, ReadsGlobal, Calls;
  llvm::SmallVector<VarDecl *, 4> WrittenGlobals;
  llvm::DenseSet<const VarDecl *> WrittenVars;

  bool isLocal(const VarDecl *VD) const {
    return !Captured.count(VD) && VD->isLocalVarDeclOrParm() &&
           !VD->isStaticLocal();
  }
  bool WritesThis = false;
  void write(const Expr *E) {
    E = E->IgnoreParenImpCasts();
    // this->m, this->a[i], this->s.m: the captured object.
    for (const Expr *P = E;;) {
      P = P->IgnoreParenImpCasts();
      if (const auto *ME = dyn_cast<MemberExpr>(P)) {
        P = ME->getBase();
        continue;
      }
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(P)) {
        P = AS->getBase();
        continue;
      }
      if (isa<CXXThisExpr>(P)) {
        WritesThis = true;
        if (Writes.empty())
          Writes = "writes members of 'this'";
        return;
      }
      break;
    }
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
      E = AS->getBase()->IgnoreParenImpCasts();
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E))
      if (OC->getOperator() == OO_Subscript)
        E = OC->getArg(0)->IgnoreParenImpCasts();
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD || isLocal(VD))
      return;
    WrittenVars.insert(VD);
    if (!Captured.count(VD)) {
      if (Writes.empty())
        Writes = "writes global '" + VD->getNameAsString() + "'";
      WrittenGlobals.push_back(const_cast<VarDecl *>(VD));
    } else if (Writes.empty()) {
      Writes = "writes '" + VD->getNameAsString() + "'";
    }
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      write(BO->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp())
      write(UO->getSubExpr());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (VD && !isLocal(VD) && !Captured.count(VD) && ReadsGlobal.empty() &&
        !VD->getType().isConstQualified() && !VD->isConstexpr())
      ReadsGlobal = "reads global '" + VD->getNameAsString() + "'";
    return true;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) {
    // A non-const member function called on the captured object.
    const CXXMethodDecl *MD = MC->getMethodDecl();
    if (MD && !MD->isConst() && !MD->isStatic() &&
        isa<CXXThisExpr>(MC->getImplicitObjectArgument()->IgnoreParenImpCasts())) {
      WritesThis = true;
      if (Writes.empty())
        Writes = "calls non-const member function '" + MD->getNameAsString() +
                 "' of 'this'";
    }
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD || findRule(FD) || !Calls.empty())
      return true;
    if (!isFloating(CE->getType()))
      return true;
    Calls = "calls '" + nameOf(FD) + "'";
    return true;
  }
};
} // namespace

void classify(LambdaInfo &Info) {
  Purity P;
  P.Callee = Info.Callee;
  if (Info.Lambda)
    for (const LambdaCapture &C : Info.Lambda->captures()) {
      if (C.capturesThis()) {
        LiftedCapture T;
        T.ByRef = true;
        T.This = true;
        Info.Caps.push_back(T);
        continue;
      }
      if (!C.capturesVariable())
        continue;
      auto *VD = dyn_cast<VarDecl>(C.getCapturedVar());
      if (!VD)
        continue;
      P.Captured.insert(VD);
      Info.Caps.push_back({VD, C.getCaptureKind() == LCK_ByRef, false});
    }
  if (Info.Callee->getBody())
    P.TraverseStmt(Info.Callee->getBody());
  for (LiftedCapture &C : Info.Caps)
    C.Written = C.This ? P.WritesThis : P.WrittenVars.count(C.Var) != 0;
  // Written globals become by-reference captures of the element function.
  for (VarDecl *G : P.WrittenGlobals) {
    bool Seen = false;
    for (const LiftedCapture &C : Info.Caps)
      Seen |= C.Var == G;
    if (!Seen)
      Info.Caps.push_back({G, true, true});
  }
  if (!P.Writes.empty()) {
    Info.Kind = Lowering::Stateful;
    Info.Reason = P.Writes;
  } else if (!Info.Caps.empty()) {
    Info.Kind = Lowering::Reverse;
    Info.Reason = "captures '" + Info.Caps.front().name() + "'";
  } else if (!P.ReadsGlobal.empty()) {
    Info.Kind = Lowering::Reverse;
    Info.Reason = P.ReadsGlobal;
  } else if (!P.Calls.empty()) {
    Info.Kind = Lowering::Reverse;
    Info.Reason = P.Calls;
  } else {
    Info.Kind = Lowering::Forward;
    Info.Reason = "capture-free and pure";
  }
}

/// The class whose `this` a lambda captures: that of the member function
/// it is written in (through enclosing lambdas).
QualType capturedThisType(const LambdaInfo &Info) {
  if (!Info.Lambda)
    return QualType();
  const DeclContext *DC = Info.Lambda->getLambdaClass()->getDeclContext();
  for (; DC; DC = DC->getParent())
    if (const auto *MD = dyn_cast<CXXMethodDecl>(DC))
      if (!MD->getParent()->isLambda())
        return MD->getASTContext().getRecordType(MD->getParent());
  return QualType();
}

SmallVector<std::pair<const VarDecl *, const Expr *>, 2>
copiedCaptures(const LambdaExpr *L) {
  SmallVector<std::pair<const VarDecl *, const Expr *>, 2> Out;
  auto Init = L->capture_init_begin();
  for (const LambdaCapture &LC : L->captures()) {
    const Expr *I = *Init++;
    if (!LC.capturesVariable() || LC.getCaptureKind() != LCK_ByCopy ||
        L->isInitCapture(&LC) || !I)
      continue;
    const auto *V = dyn_cast<VarDecl>(LC.getCapturedVar());
    if (!V)
      continue;
    QualType T = V->getType();
    QualType NR = T.getNonReferenceType();
    // (A closure captured by copy cannot change: no copy of it.)
    const CXXRecordDecl *RD = NR->getAsCXXRecordDecl();
    if ((!T->isReferenceType() && T.isConstQualified()) ||
        !(NR->isArithmeticType() || NR->isRecordType()) ||
        (RD && RD->isLambda()))
      continue;
    Out.push_back({V, I});
  }
  return Out;
}

std::string copiedCaptureProblem(const LambdaExpr *L, const Expr *Callee,
                                 ArrayRef<const VarDecl *> Copied,
                                 const std::string &Lambda) {
  bool Immediate = isa<LambdaExpr>(Callee->IgnoreImplicit()->IgnoreParens());
  for (const LambdaCapture &LC : L->captures()) {
    if (!LC.capturesVariable() || LC.getCaptureKind() != LCK_ByCopy ||
        L->isInitCapture(&LC))
      continue;
    const auto *V = dyn_cast<VarDecl>(LC.getCapturedVar());
    if (!V)
      continue;
    std::string N = V->getNameAsString();
    if (V->getType().getNonReferenceType()->isArrayType())
      return "call of " + Lambda + ", which captures the array '" + N +
             "' by value (capture it by reference)";
    if (!Immediate && !llvm::is_contained(Copied, V) &&
        llvm::any_of(copiedCaptures(L),
                     [&](auto &P) { return P.first == V; }))
      return "call of " + Lambda + ", which captures '" + N +
             "' by value where the derivative cannot copy it (make the "
             "lambda the initializer of a local variable, or capture '" +
             N + "' by reference)";
  }
  return "";
}

bool containsLambda(const Stmt *St) {
  if (!St)
    return false;
  if (isa<LambdaExpr>(St))
    return true;
  for (const Stmt *C : St->children())
    if (containsLambda(C))
      return true;
  return false;
}

//===----------------------------------------------------------------------===//
// Calls of the runtime's primitives
//===----------------------------------------------------------------------===//

StringRef runtimePrimitive(const CallExpr *CE) {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD || !FD->getIdentifier())
    return {};
  const auto *NS =
      dyn_cast<NamespaceDecl>(FD->getDeclContext()->getRedeclContext());
  if (!NS || !NS->getIdentifier() || NS->getName() != "grad" ||
      !NS->getParent()->getRedeclContext()->isTranslationUnit())
    return {};
  StringRef N = FD->getName();
  if (N == "map" || N == "broadcast" || N == "sum" || N == "dot" ||
      N == "matmul")
    return N;
  return {};
}

static const CallExpr *
mapCallIn(const Stmt *St, llvm::SmallPtrSetImpl<const FunctionDecl *> &Seen,
          unsigned Depth) {
  if (!St)
    return nullptr;
  if (const auto *LE = dyn_cast<LambdaExpr>(St))
    if (const CallExpr *M = mapCallIn(LE->getBody(), Seen, Depth))
      return M;
  if (const auto *CE = dyn_cast<CallExpr>(St)) {
    StringRef P = runtimePrimitive(CE);
    if (P == "map" || P == "broadcast")
      return CE;
    const FunctionDecl *Def = nullptr;
    const FunctionDecl *FD = CE->getDirectCallee();
    if (P.empty() && FD && Depth < 8 && !FD->isInStdNamespace() &&
        FD->hasBody(Def) && Seen.insert(Def).second)
      if (const CallExpr *M = mapCallIn(Def->getBody(), Seen, Depth + 1))
        return M;
  }
  for (const Stmt *C : St->children())
    if (const CallExpr *M = mapCallIn(C, Seen, Depth))
      return M;
  return nullptr;
}

const CallExpr *mapCallReached(const FunctionDecl *FD) {
  llvm::SmallPtrSet<const FunctionDecl *, 16> Seen;
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def))
    return nullptr;
  Seen.insert(Def);
  return mapCallIn(Def->getBody(), Seen, 0);
}

} // namespace grad
