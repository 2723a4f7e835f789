//===- Inactive.cpp - Code without derivatives ------------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Which statements carry no derivative work (they write no differentiated
/// storage and do not jump out of themselves) and their replay as written:
/// logging, assert, printf, integer bookkeeping, an early throw, a loop that
/// only counts. Reading differentiated values is fine: they are constants
/// for such code.
///
//===----------------------------------------------------------------------===//

#include "ast/Diagnostics.h"
#include "reverse/PullbackBuilder.h"
#include "lift/Lift.h"
#include "analysis/Paths.h"
#include "ast/Replay.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"
#include "clang/Sema/Sema.h"

#include <functional>

using namespace clang;

namespace grad {

bool PullbackBuilder::mentionsActive(const Stmt *St) {
  if (!St)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(St))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      return mayAlias(VD) || Act.isActive(VD);
  if (isa<CXXThisExpr>(St))
    return Act.ThisActive;
  for (const Stmt *C : St->children())
    if (mentionsActive(C))
      return true;
  return false;
}

bool PullbackBuilder::storageActive(const Expr *E) {
  if (!E)
    return false;
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E);
      DRE && isa<BindingDecl>(DRE->getDecl()))
    return storageActive(bindingPart(cast<BindingDecl>(DRE->getDecl())));
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    return VD && (mayAlias(VD) || Act.isActive(VD));
  }
  if (isa<CXXThisExpr>(E))
    return Act.ThisActive;
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return storageActive(ME->getBase());
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return storageActive(AS->getBase()) || storageActive(AS->getIdx());
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return storageActive(UO->getSubExpr());
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAssignmentOp())
      return storageActive(BO->getLHS());
    if (BO->getOpcode() == BO_Comma)
      return storageActive(BO->getRHS());
    return (BO->getLHS()->getType()->isPointerType() &&
            storageActive(BO->getLHS())) ||
           (BO->getRHS()->getType()->isPointerType() &&
            storageActive(BO->getRHS()));
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return storageActive(CO->getTrueExpr()) ||
           storageActive(CO->getFalseExpr());
  if (const auto *EC = dyn_cast<ExplicitCastExpr>(E))
    return storageActive(EC->getSubExpr());
  // Iterators and other objects holding a pointer: what they point into
  // (v.begin() into v; unknown ones may point anywhere).
  if (!E->getType()->isPointerType() && holdsWritablePointer(E->getType())) {
    bool IsThis = false;
    const VarDecl *R = Act.rootOf(E, IsThis);
    if (IsThis)
      return Act.ThisActive;
    return R ? Act.isActive(R) : true;
  }
  // A member function returning a reference or pointer into its own
  // object (`t.at(i, j)`, `t.row(1)`): that object.
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E);
      MC && MC->getMethodDecl() && returnsIntoObject(MC->getMethodDecl()))
    return storageActive(MC->getImplicitObjectArgument());
  // A call or anything else that yields a reference or pointer to floating
  // data may point into differentiated storage.
  QualType T = E->getType();
  if (T->isPointerType())
    T = T->getPointeeType();
  return (E->isGLValue() || E->getType()->isPointerType()) &&
         hasFloatingData(T);
}

namespace {
/// Finds what keeps a statement from being replayed as written.
struct Blocker : RecursiveASTVisitor<Blocker> {
  PullbackBuilder &PB;
  llvm::function_ref<bool(const Stmt *)> Active;
  bool Found = false;
  unsigned LoopDepth = 0, SwitchDepth = 0;
  Blocker(PullbackBuilder &PB, llvm::function_ref<bool(const Stmt *)> A)
      : PB(PB), Active(A) {}

  bool block() {
    Found = true;
    return false;
  }
  template <class T> bool loop(T *S) {
    ++LoopDepth;
    bool R = RecursiveASTVisitor::TraverseStmt(S->getBody());
    --LoopDepth;
    // The loop's header is scanned like any other statement.
    for (Stmt *C : S->children())
      if (C != S->getBody() && !RecursiveASTVisitor::TraverseStmt(C))
        return false;
    return R;
  }
  bool TraverseForStmt(ForStmt *S) { return loop(S); }
  bool TraverseWhileStmt(WhileStmt *S) { return loop(S); }
  bool TraverseDoStmt(DoStmt *S) { return loop(S); }
  bool TraverseCXXForRangeStmt(CXXForRangeStmt *S) { return loop(S); }
  bool TraverseSwitchStmt(SwitchStmt *S) {
    ++SwitchDepth;
    bool R = RecursiveASTVisitor::TraverseSwitchStmt(S);
    --SwitchDepth;
    return R;
  }
  bool VisitReturnStmt(ReturnStmt *) { return block(); }
  bool VisitGotoStmt(GotoStmt *) { return block(); }
  bool VisitIndirectGotoStmt(IndirectGotoStmt *) { return block(); }
  bool VisitLabelStmt(LabelStmt *) { return block(); }
  bool VisitCoreturnStmt(CoreturnStmt *) { return block(); }
  bool VisitCoawaitExpr(CoawaitExpr *) { return block(); }
  bool VisitCoyieldExpr(CoyieldExpr *) { return block(); }
  bool VisitLambdaExpr(LambdaExpr *) { return block(); }
  // A call of a local lambda: a call of its lifted function.
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
    if (OC->getOperator() == OO_Call && OC->getNumArgs() > 0 &&
        findLambda(OC->getArg(0)))
      return block();
    return true;
  }
  bool VisitBreakStmt(BreakStmt *) {
    return LoopDepth + SwitchDepth ? true : block();
  }
  bool VisitContinueStmt(ContinueStmt *) {
    return LoopDepth ? true : block();
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp() && Active(BO->getLHS()))
      return block();
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp() && Active(UO->getSubExpr()))
      return block();
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    return PB.writtenStorage(CE) ? block() : true;
  }
};
} // namespace

/// The object or argument through which a call may write: non-const
/// member calls write their object, non-const pointer and reference
/// parameters their argument (variadic arguments as passed).
static void forEachWritable(const CallExpr *CE,
                            llvm::function_ref<bool(const Expr *)> F) {
  const FunctionDecl *FD = CE->getDirectCallee();
  // (An accessor only computes an address: `row(A, n, i)`, a class's
  // `m.at(i, j)` returning a reference into its elements.)
  if (isDeallocation(FD) || accessorArg(CE) || writesNothing(FD) ||
      elementMember(CE))
    return;
  unsigned Shift = 0;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
    if (writesObject(MD) && !isStdAccessor(MD) &&
        F(MC->getImplicitObjectArgument()))
      return;
  } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE)) {
    const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
    if (MD && !MD->isStatic()) {
      if (writesObject(MD) && !isStdAccessor(MD) &&
          OC->getOperator() != OO_Call && OC->getNumArgs() &&
          F(OC->getArg(0)))
        return;
      Shift = 1;
    }
  }
  for (unsigned I = Shift; I < CE->getNumArgs(); ++I) {
    const Expr *A = CE->getArg(I);
    QualType PT;
    if (FD && I - Shift < FD->getNumParams())
      PT = FD->getParamDecl(I - Shift)->getType();
    else
      PT = A->getType(); // variadic or unknown: as passed
    if (writableParam(PT) && F(A))
      return;
  }
}

bool PullbackBuilder::pointsIntoActive(const Expr *E) {
  if (!E)
    return false;
  QualType T = E->getType();
  if ((T->isPointerType() || T->isArrayType() ||
       (E->isGLValue() && hasFloatingData(T))) &&
      storageActive(E))
    return true;
  for (const Stmt *C : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(C))
      if (pointsIntoActive(CE))
        return true;
  return false;
}

const Expr *PullbackBuilder::activePointerStore(const VarDecl *VD) {
  if (VD->hasInit() && pointsIntoActive(VD->getInit()))
    return VD->getInit();
  auto Into = [&](const Expr *E) {
    bool IsThis = false;
    return E && pathRoot(E, IsThis) == VD;
  };
  std::function<const Expr *(const Stmt *)> Walk =
      [&](const Stmt *S) -> const Expr * {
    if (!S)
      return nullptr;
    const Expr *Target = nullptr; // what the expression writes into
    SmallVector<const Expr *, 4> Sources;
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->getOpcode() == BO_Assign) {
      Target = BO->getLHS();
      Sources.push_back(BO->getRHS());
    } else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S)) {
      Target = MC->getImplicitObjectArgument();
      Sources.append(MC->arg_begin(), MC->arg_end());
    } else if (const auto *CE = dyn_cast<CallExpr>(S)) {
      // (An operator= of a class, or a helper given the local.)
      for (const Expr *A : CE->arguments())
        if (!Target && Into(A))
          Target = A;
        else
          Sources.push_back(A);
    }
    if (Target && Into(Target))
      for (const Expr *Src : Sources)
        if (Src && !Into(Src) && pointsIntoActive(Src))
          return cast<Expr>(S);
    for (const Stmt *C : S->children())
      if (const Expr *Found = Walk(C))
        return Found;
    return nullptr;
  };
  return Walk(Primal->getBody());
}

const Expr *PullbackBuilder::writtenStorage(const CallExpr *CE) {
  const Expr *Found = nullptr;
  forEachWritable(CE, [&](const Expr *A) {
    if (storageActive(A))
      Found = A;
    return Found != nullptr;
  });
  return Found;
}

std::string PullbackBuilder::spelled(const Expr *E) const {
  return spelledExpr(Ctx, E);
}

bool PullbackBuilder::replayable(const Stmt *St) {
  if (!St)
    return true;
  auto Active = [this](const Stmt *E) {
    return storageActive(cast<Expr>(E));
  };
  Blocker Bl(*this, Active);
  Bl.TraverseStmt(const_cast<Stmt *>(St));
  return !Bl.Found;
}

Replayer PullbackBuilder::replayer() {
  // A capture-free lambda is declared where the statement is replayed,
  // `auto _lambda = [](double e) { return e > 0.5; };`, and named there.
  auto Hoist = [this](LambdaExpr *L) -> Expr * {
    if (!Cur)
      return nullptr;
    VarDecl *V = Replayer::lambdaVariable(S, PB, fresh("_lambda"), L);
    if (!V)
      return nullptr;
    Cur->push_back(B.declStmt(V));
    return B.ref(V);
  };
  return Replayer(
      S, [this](const ValueDecl *D) { return mapDecl(D); }, Hoist);
}

Expr *PullbackBuilder::replay(const Expr *E) {
  if (!E || Failed)
    return nullptr;
  Replayer R = replayer();
  Expr *Out = R.expr(E);
  if (!Out)
    return unsupported(R.failedAt() ? R.failedAt() : E,
                       constructName(R.failedAt() ? R.failedAt() : E));
  return Out;
}

Stmt *PullbackBuilder::replayStmt(const Expr *E) {
  if (!E || Failed)
    return nullptr;
  Replayer R = replayer();
  Expr *Out = R.discarded(E);
  if (!Out)
    return unsupported(R.failedAt() ? R.failedAt() : E,
                       constructName(R.failedAt() ? R.failedAt() : E));
  return Out;
}

VarDecl *PullbackBuilder::replayDecl(const VarDecl *VD) {
  if (Failed)
    return nullptr;
  // The hidden object of a structured binding gets a name.
  IdentifierInfo *Id = &Ctx.Idents.get(localName(VD));
  auto *NV = VarDecl::Create(Ctx, PB, VD->getBeginLoc(), VD->getLocation(),
                             Id, VD->getType(),
                             VD->getTypeSourceInfo(), SC_None);
  // `E e;`: default-initialised as written (a rebuilt `E()` would be
  // another initialisation, and `E e()` a function).
  const auto *DefaultInit = dyn_cast_or_null<CXXConstructExpr>(VD->getInit());
  if (DefaultInit && (DefaultInit->getNumArgs() > 0 ||
                      DefaultInit->isListInitialization() ||
                      !DefaultInit->getConstructor()->isDefaultConstructor()))
    DefaultInit = nullptr;
  if (VD->hasInit() && !DefaultInit) {
    Replayer R = replayer();
    Expr *Init = R.initializer(VD);
    if (!Init) {
      unsupported(R.failedAt() ? R.failedAt() : VD->getInit(),
                  constructName(R.failedAt() ? R.failedAt()
                                             : VD->getInit()));
      return nullptr;
    }
    NV->setInitStyle(VD->getInitStyle());
    S.AddInitializerToDecl(NV, Init, VD->isDirectInit());
  } else {
    S.ActOnUninitializedDecl(NV);
  }
  if (NV->isInvalidDecl()) {
    report(S.Diags, Diag::UnsupportedConstruct, VD->getLocation())
        << ("declaration of '" + VD->getNameAsString() + "'")
        << nameOf(Primal);
    D.noteRequest(Entry);
    Failed = true;
    return nullptr;
  }
  VarMap[VD] = NV;
  return NV;
}

ValueDecl *PullbackBuilder::mapDecl(const ValueDecl *D) const {
  if (const auto *VD = dyn_cast<VarDecl>(D))
    return mapVar(VD);
  if (const auto *BD = dyn_cast<BindingDecl>(D))
    return BindingVars.lookup(BD);
  return nullptr;
}

void PullbackBuilder::declareBindings(const VarDecl *VD, Stmts &Fwd) {
  const auto *DD = dyn_cast<DecompositionDecl>(VD);
  if (!DD || Failed)
    return;
  // `auto [a, b] = s;`: each name is a reference to its part of `_b`, for
  // the statements replayed as written (the derivative itself reads the
  // parts through `_b`).
  for (const BindingDecl *BD : DD->bindings()) {
    const Expr *Part = bindingPart(BD);
    Expr *E = nullptr;
    if (const CallExpr *Get = BD->getHoldingVar() ? stdGet(Part) : nullptr) {
      // Tuple-like: std::get<I>(_b) on the hidden object, as an lvalue.
      if (VarDecl *Obj = mapVar(DD))
        E = B.callStd("get", {B.ref(Obj)},
                      {B.argLoc(Get->getDirectCallee()
                                    ->getTemplateSpecializationArgs()
                                    ->get(0))});
    } else if (Part) {
      E = replay(Part);
    }
    if (!E) {
      unsupported(DD, "structured binding '" + BD->getNameAsString() + "'");
      return;
    }
    QualType RT = Ctx.getLValueReferenceType(BD->getType());
    VarDecl *V = B.var(PB, BD->getName(), RT, E);
    Fwd.push_back(B.declStmt(V));
    BindingVars[BD] = V;
  }
}

} // namespace grad
