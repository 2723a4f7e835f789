//===- CallableViews.cpp - Lambdas passed to functions, as captures -------===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "driver/CallableViews.h"
#include "driver/Consumer.h"
#include "ast/CopyBody.h"
#include "ast/Diagnostics.h"
#include "ast/SemaBuilder.h"
#include "analysis/CaptureCopies.h"
#include "analysis/Facts.h"
#include "analysis/Selectors.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Sema/EnterExpressionEvaluationContext.h"
#include "clang/Sema/Sema.h"
#include "clang/Sema/Template.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;

namespace grad {

namespace {
/// The closure type of a parameter (`F f`, `const F &f`, `F &&f` with F a
/// lambda's type), or null.
const CXXRecordDecl *closureType(const ValueDecl *P) {
  const auto *RD = P->getType().getNonReferenceType()->getAsCXXRecordDecl();
  return RD && RD->isLambda() ? RD : nullptr;
}

/// True if \p FD returns one of its parameters' closure types (as
/// `std::for_each` returns its callable).
bool returnsClosure(const FunctionDecl *FD) {
  const auto *RD = FD->getReturnType()->getAsCXXRecordDecl();
  return RD && RD->isLambda();
}

/// How a parameter holds a callable: as the lambda's own closure type, as
/// a pointer or reference to a function, or as a `std::function`.
enum class Holds { Nothing, Closure, Pointer, Function };

bool isStdFunction(QualType T) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD && RD->isInStdNamespace() && RD->getIdentifier() &&
         RD->getName() == "function";
}

Holds holds(const ParmVarDecl *P) {
  QualType T = P->getType().getNonReferenceType();
  if (T->isFunctionPointerType() || T->isFunctionType())
    return Holds::Pointer;
  if (closureType(P))
    return Holds::Closure;
  return isStdFunction(T) ? Holds::Function : Holds::Nothing;
}

/// The standard algorithms whose bodies a view takes as written (loops
/// over their iterators calling the callable; over pointers into a vector
/// or array once PointerForms has rewritten its iterators).
bool viewedAlgorithm(const FunctionDecl *FD) {
  static const llvm::StringSet<> Names = {
      "transform",     "accumulate",     "reduce",
      "transform_reduce", "inner_product", "partial_sum",
      "inclusive_scan", "exclusive_scan", "adjacent_difference",
      "for_each",      "for_each_n",     "generate",
      "generate_n",    "sort",           "stable_sort"};
  return FD->isInStdNamespace() && FD->getIdentifier() &&
         Names.contains(FD->getName());
}

/// The standard library's functions, the system headers' and the
/// runtime's public ones (grad::map and grad::broadcast lower their
/// lambdas themselves): not viewed. (The runtime's grad::detail functions
/// the plugin calls in place of standard ones, such as sort_elements for
/// std::sort, are.)
bool libraryFunction(const FunctionDecl *FD, const SourceManager &SM) {
  if (FD->isInStdNamespace() || SM.isInSystemHeader(FD->getLocation()))
    return true;
  const DeclContext *DC = FD->getDeclContext()->getRedeclContext();
  const NamespaceDecl *Outer = nullptr, *Inner = nullptr;
  for (; DC && !DC->isTranslationUnit(); DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC)) {
      Inner = Inner ? Inner : NS;
      Outer = NS;
    }
  return Outer && Outer->getIdentifier() && Outer->getName() == "grad" &&
         !(Inner != Outer && Inner->getIdentifier() &&
           Inner->getName() == "detail");
}

const Expr *stripped(const Expr *E) {
  while (true) {
    const Expr *N = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *CE = dyn_cast<CXXConstructExpr>(N))
      if (CE->getNumArgs() == 1 &&
          CE->getConstructor()->isCopyOrMoveConstructor())
        N = CE->getArg(0);
    if (const auto *CE = dyn_cast<CallExpr>(N))
      if (CE->isCallToStdMove() && CE->getNumArgs() == 1)
        N = CE->getArg(0);
    if (N == E)
      return E;
    E = N;
  }
}

/// The lambda an argument is: written in place, or a local initialised
/// with it (converted to a function pointer or not).
const LambdaExpr *writtenLambda(const Expr *A) {
  A = stripped(A);
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(A))
    if (isa_and_present<CXXConversionDecl>(MC->getMethodDecl()))
      A = stripped(MC->getImplicitObjectArgument());
  if (const auto *L = dyn_cast<LambdaExpr>(A))
    return L;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(A))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && VD->isLocalVarDecl() && VD->hasInit())
      return dyn_cast<LambdaExpr>(stripped(VD->getInit()));
  return nullptr;
}

/// The function an argument names (`sq`, `&sq`), or null.
const FunctionDecl *namedFunction(const Expr *A) {
  A = stripped(A);
  if (const auto *UO = dyn_cast<UnaryOperator>(A);
      UO && UO->getOpcode() == UO_AddrOf)
    A = stripped(UO->getSubExpr());
  const auto *DRE = dyn_cast<DeclRefExpr>(A);
  return DRE ? dyn_cast<FunctionDecl>(DRE->getDecl()) : nullptr;
}

/// What a `std::function` argument is made from: the argument of its
/// converting constructor (`euler([&](double v) { ... }, ...)`).
const Expr *functionSource(const Expr *A) {
  const auto *CE = dyn_cast<CXXConstructExpr>(stripped(A));
  if (CE && CE->getNumArgs() == 1 && isStdFunction(CE->getType()))
    return CE->getArg(0);
  return A;
}

/// The callee of a call through a callable (`f(a)`, `(*f)(a)`) and the
/// index of its first argument; null for other calls.
const Expr *calledCallable(const CallExpr *CE, unsigned &First) {
  const Expr *C;
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE)) {
    if (OC->getOperator() != OO_Call || OC->getNumArgs() < 1)
      return nullptr;
    C = OC->getArg(0);
    First = 1;
  } else if (isa<CXXMemberCallExpr>(CE)) {
    return nullptr;
  } else {
    C = CE->getCallee();
    First = 0;
  }
  C = stripped(C);
  while (const auto *UO = dyn_cast<UnaryOperator>(C)) {
    if (UO->getOpcode() != UO_Deref)
      break;
    C = stripped(UO->getSubExpr());
  }
  return C;
}

/// A reference to \p V as an lvalue of its own type.
Expr *lvalueRef(ASTContext &Ctx, VarDecl *V, SourceLocation Loc) {
  return DeclRefExpr::Create(Ctx, NestedNameSpecifierLoc(), SourceLocation(),
                             V, false, Loc, V->getType().getNonReferenceType(),
                             VK_LValue);
}

/// Rewrites the calls of one body: `f(a, b)` on a closure parameter of the
/// view being built (or presented) becomes a call of the lifted lambda
/// with the capture parameters; a call passing a lambda to a parameter of
/// its closure type becomes a call of the callee's view.
struct Rewriter {
  Differentiator &D;
  Sema &S;
  const Requester &Caller;
  const Stmt *Body;
  const CallableView *Self;
  llvm::SmallVectorImpl<std::pair<Stmt **, Stmt *>> *Replaced;
  llvm::SmallPtrSet<const Expr *, 8> Passed = {};

  void walk(Stmt *&Slot) {
    Stmt *St = Slot;
    if (!St || isa<LambdaExpr>(St))
      return;
    for (Stmt *&C : St->children())
      walk(C);
    if (auto *RS = dyn_cast<ReturnStmt>(St); RS && Self && RS->getRetValue())
      if (const auto *DRE = dyn_cast<DeclRefExpr>(stripped(RS->getRetValue()));
          DRE && Self->closureOf(DRE->getDecl())) {
        // `return f;` of a callee returning its callable (std::for_each).
        Slot = ReturnStmt::Create(S.Context, RS->getReturnLoc(), nullptr,
                                  nullptr);
        return;
      }
    auto *CE = dyn_cast<CallExpr>(St);
    if (!CE)
      return;
    Expr *New = liftedCall(CE);
    if (!New)
      New = viewCall(CE);
    if (!New)
      return;
    if (Replaced)
      Replaced->push_back({&Slot, St});
    Slot = New;
  }

  Expr *call(FunctionDecl *Fn, ArrayRef<Expr *> Args, SourceLocation Loc) {
    SemaBuilder B(S, Loc);
    Expr *E = B.call(B.funcRef(Fn), Args);
    return B.Failed ? nullptr : E;
  }

  /// `f(a, b)` with f a closure parameter of the view.
  Expr *liftedCall(CallExpr *CE) {
    unsigned First = 0;
    const Expr *F = Self ? calledCallable(CE, First) : nullptr;
    const auto *DRE = dyn_cast_if_present<DeclRefExpr>(F);
    const CallableView::Closure *C =
        DRE ? Self->closureOf(DRE->getDecl()) : nullptr;
    if (!C)
      return nullptr;
    SmallVector<Expr *, 8> Args;
    for (unsigned I = First; I < CE->getNumArgs(); ++I)
      Args.push_back(const_cast<Expr *>(CE->getArg(I)));
    for (ParmVarDecl *P : C->Caps)
      Args.push_back(lvalueRef(S.Context, P, CE->getExprLoc()));
    return call(C->Lifted, Args, CE->getExprLoc());
  }

  /// The arguments standing for the captures of \p L, passed as \p A:
  /// the capture parameters of the view being built, or the captured
  /// variables. False (with \p Why) if a copy may differ from the
  /// variable.
  bool captureArgs(const Expr *A, const CallableView::Closure &Target,
                   SmallVectorImpl<Expr *> &Args, std::string &Why) {
    SourceLocation Loc = A->getExprLoc();
    if (Self)
      if (const auto *DRE = dyn_cast<DeclRefExpr>(stripped(A)))
        if (const CallableView::Closure *C = Self->closureOf(DRE->getDecl())) {
          for (ParmVarDecl *P : C->Caps)
            Args.push_back(lvalueRef(S.Context, P, Loc));
          return true;
        }
    if (!Target.Info)
      return true; // (a function)
    A = functionSource(A);
    for (const LiftedCapture &C : Target.Info->Caps) {
      if (C.This) {
        Why = "it captures 'this'";
        return false;
      }
      // `[y = 2 * x]`: its initialiser, computed at the call as the
      // lambda written there computes it.
      bool InCall = isa<LambdaExpr>(stripped(A));
      if (C.Var->isInitCapture()) {
        if (!InCall || C.ByRef) {
          Why = "its capture '" + C.Var->getNameAsString() +
                "' is initialised in the lambda (write the lambda in the "
                "call, or capture a variable)";
          return false;
        }
        Args.push_back(C.Var->getInit());
        continue;
      }
      // (A lambda written in the call copies the variable at the call.)
      if (!C.ByRef && !InCall &&
          !copyStaysCurrent(C.Var, Target.Lambda->getBeginLoc(),
                            A->getBeginLoc(), Body, S.getSourceManager(),
                            Passed)) {
        Why = "it copies '" + C.Var->getNameAsString() +
              "', which may change before the call (capture it by reference)";
        return false;
      }
      Args.push_back(lvalueRef(S.Context, C.Var, Loc));
      Passed.insert(Args.back());
    }
    return true;
  }

  /// The callable passed as \p A: one of the view's closures, or a lambda
  /// written or a function named in this function.
  Binding passed(const Expr *A) {
    if (Self)
      if (const auto *DRE = dyn_cast<DeclRefExpr>(stripped(A)))
        if (const CallableView::Closure *C = Self->closureOf(DRE->getDecl()))
          return C->Info ? Binding{C->Lambda, nullptr}
                         : Binding{nullptr, C->Lifted};
    if (const LambdaExpr *L = writtenLambda(A))
      return {L, nullptr};
    return {nullptr, namedFunction(A)};
  }

  /// What the argument \p A of a parameter holding callables as \p H is
  /// bound to; empty if the view cannot call it.
  Binding binding(const Expr *A, const ParmVarDecl *P, Holds H) {
    Binding B = passed(H == Holds::Function ? functionSource(A) : A);
    if (H == Holds::Closure && (!B.Lambda ||
                                B.Lambda->getLambdaClass() != closureType(P)))
      return {};
    if (H == Holds::Pointer && B.Lambda && B.Lambda->capture_size())
      return {};
    return B;
  }

  /// The call a view may serve in place of \p CE: itself, or for an
  /// algorithm over vector iterators the same over pointers; null for
  /// calls of library functions and of generated ones.
  CallExpr *viewable(CallExpr *CE) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD || isa<CXXOperatorCallExpr>(CE) || D.isGenerated(FD) ||
        (libraryFunction(FD, S.getSourceManager()) && !viewedAlgorithm(FD)))
      return nullptr;
    const Facts &St = Facts::get(S.Context);
    bool Statement = St.StatementCalls.count(CE);
    if (viewedAlgorithm(FD))
      if (const CallExpr *PF = pointerForm(St, CE)) {
        CE = const_cast<CallExpr *>(PF);
        if (Statement)
          St.StatementCalls.insert(CE);
      }
    // (`std::for_each` returns its callable: its view returns nothing,
    // so only where the value is unused.)
    if (returnsClosure(CE->getDirectCallee()) && !Statement)
      return nullptr;
    return CE;
  }

  /// `rk4(rhs, y, t, h)` with rk4's first parameter of rhs's closure type,
  /// a function pointer bound to a function, or a std::function bound to
  /// a lambda or function: the call of the callee's view.
  Expr *viewCall(CallExpr *Written) {
    CallExpr *CE = viewable(Written);
    if (!CE)
      return nullptr;
    const FunctionDecl *FD = CE->getDirectCallee();
    SmallVector<Binding, 4> Bindings;
    bool Any = false, AnyLambda = false;
    for (unsigned I = 0; I < FD->getNumParams(); ++I) {
      Holds H = holds(FD->getParamDecl(I));
      Binding B;
      if (H != Holds::Nothing && I < CE->getNumArgs()) {
        B = binding(CE->getArg(I), FD->getParamDecl(I), H);
        if (!B)
          return nullptr;
        Any = true;
        AnyLambda |= B.Lambda != nullptr;
      }
      Bindings.push_back(B);
    }
    if (!Any)
      return nullptr;
    SourceLocation Loc = CE->getExprLoc();
    const CallableView *V = D.callableView(FD, Bindings, Caller);
    if (!V || !V->View) {
      std::string Why = V ? V->Refusal : "";
      if (V && V->Building)
        Why = "'" + nameOf(FD) +
              "' passes it to itself: recursive functions taking "
              "callables are not differentiated yet";
      // (A function passed where no view can be made keeps its call: the
      // builder says what it cannot differentiate in the callee.)
      for (unsigned I = 0; V && AnyLambda && I < Bindings.size(); ++I)
        if (Bindings[I]) {
          D.refuseCallable(CE->getArg(I), FD, Why, Caller);
          break;
        }
      return nullptr;
    }
    // The captures' arguments, then the arguments in the view's order.
    llvm::DenseMap<const ParmVarDecl *, Expr *> CapArg;
    for (unsigned I = 0; I < V->Clones.size() && I < CE->getNumArgs(); ++I)
      if (const CallableView::Closure *C = V->closureOf(V->Clones[I])) {
        SmallVector<Expr *, 4> Caps;
        std::string Why;
        if (!captureArgs(CE->getArg(I), *C, Caps, Why)) {
          D.refuseCallable(CE->getArg(I), FD, Why, Caller);
          return nullptr;
        }
        for (unsigned K = 0; K < Caps.size(); ++K)
          CapArg.try_emplace(C->Caps[K], Caps[K]);
      }
    SmallVector<Expr *, 8> Args;
    for (const ParmVarDecl *P : V->Params) {
      const auto *It = llvm::find(V->Clones, P);
      if (It == V->Clones.end()) {
        Args.push_back(CapArg.lookup(P));
        continue;
      }
      unsigned I = It - V->Clones.begin();
      if (I >= CE->getNumArgs())
        return nullptr;
      Expr *A = CE->getArg(I);
      if (auto *DA = dyn_cast<CXXDefaultArgExpr>(A))
        A = DA->getExpr();
      Args.push_back(A);
    }
    return call(V->View, Args, Loc);
  }
};

/// The call operator the calls of \p P in \p Body run (for a generic
/// lambda, the specialisation); null if there are none, or several.
const FunctionDecl *calledOperator(Stmt *Body, const ParmVarDecl *P) {
  struct Find : RecursiveASTVisitor<Find> {
    const ParmVarDecl *P;
    const FunctionDecl *Op = nullptr;
    bool Several = false;
    bool VisitCallExpr(CallExpr *CE) {
      unsigned First = 0;
      const auto *DRE =
          dyn_cast_if_present<DeclRefExpr>(calledCallable(CE, First));
      if (DRE && DRE->getDecl() == P) {
        Several |= Op && Op != CE->getDirectCallee();
        Op = CE->getDirectCallee();
      }
      return true;
    }
  } F;
  F.P = P;
  F.TraverseStmt(Body);
  return F.Several ? nullptr : F.Op;
}

/// The references to closure parameters left in a view's body: uses other
/// than calls and passing on.
struct ClosureUse : RecursiveASTVisitor<ClosureUse> {
  const CallableView *V;
  const DeclRefExpr *Found = nullptr;
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (!Found && V->closureOf(DRE->getDecl()))
      Found = DRE;
    return true;
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// The views
//===----------------------------------------------------------------------===//

/// \p Callee's body instantiated again from its pattern, for \p View whose
/// parameters are \p Params (one per parameter of the pattern).
static Stmt *instantiateAgain(Sema &S, const FunctionDecl *Callee,
                              FunctionDecl *View,
                              ArrayRef<ParmVarDecl *> Params) {
  const FunctionDecl *Pattern = Callee->getTemplateInstantiationPattern();
  if (!Pattern || !Pattern->getBody() ||
      Pattern->getNumParams() != Params.size())
    return nullptr;
  MultiLevelTemplateArgumentList Args = S.getTemplateInstantiationArgs(
      Callee, Callee->getLexicalDeclContext(), /*Final=*/false, std::nullopt,
      /*RelativeToPrimary=*/false, Pattern);
  Sema::ContextRAII Context(S, View);
  LocalInstantiationScope Scope(S);
  for (unsigned I = 0; I < Params.size(); ++I)
    Scope.InstantiatedLocal(Pattern->getParamDecl(I), Params[I]);
  S.PushFunctionScope();
  EnterExpressionEvaluationContext Eval(
      S, Sema::ExpressionEvaluationContext::PotentiallyEvaluated);
  unsigned Errors = S.Diags.getNumErrors();
  StmtResult Body = S.SubstStmt(const_cast<Stmt *>(Pattern->getBody()), Args);
  S.PopFunctionScopeInfo();
  if (Body.isInvalid() || S.Diags.getNumErrors() != Errors)
    return nullptr;
  return Body.get();
}

namespace {
/// The body a view is made from: the pattern's of a template instance,
/// the definition's of another function.
const FunctionDecl *source(const FunctionDecl *Callee) {
  if (const FunctionDecl *Pattern = Callee->getTemplateInstantiationPattern())
    return Pattern;
  return Callee->getDefinition();
}

/// Why \p Callee has no view, whatever it is passed; empty if it may.
std::string viewRefusal(const FunctionDecl *Callee) {
  if (isa<CXXMethodDecl>(Callee))
    return "a member function: lambdas are differentiated when passed to "
           "free functions";
  const FunctionDecl *Pattern = source(Callee);
  if (!Pattern || !Pattern->getBody())
    return "its definition is not in this file";
  if (Pattern->getNumParams() != Callee->getNumParams())
    return "'" + Callee->getNameAsString() +
           "' takes a parameter pack: variadic function templates taking "
           "lambdas are not differentiated yet";
  return "";
}

/// The view of \p Callee named \p Name, with clones of the callee's
/// parameters (its type and parameter list are set once its body is).
FunctionDecl *declareView(ASTContext &Ctx, const FunctionDecl *Callee,
                          StringRef Name, CallableView &V) {
  // (A view of a standard algorithm is the user's, outside namespace std.)
  auto *DC = Callee->isInStdNamespace()
                 ? Ctx.getTranslationUnitDecl()
                 : const_cast<DeclContext *>(Callee->getDeclContext());
  if (!Callee->getTemplateInstantiationPattern())
    Callee = Callee->getDefinition(); // (the parameters' names)
  FunctionDecl *View = FunctionDecl::Create(
      Ctx, DC, Callee->getInnerLocStart(), Callee->getLocation(),
      DeclarationName(&Ctx.Idents.get(Name)), Callee->getType(),
      Callee->getTypeSourceInfo(), SC_Static, /*UsesFPIntrin=*/false,
      /*isInlineSpecified=*/true, /*hasWrittenPrototype=*/true);
  for (ParmVarDecl *P : Callee->parameters())
    V.Clones.push_back(ParmVarDecl::Create(
        Ctx, View, P->getInnerLocStart(), P->getLocation(), P->getIdentifier(),
        P->getType(), P->getTypeSourceInfo(), SC_None, nullptr));
  return View;
}

/// The parameters standing for the captures of \p V's closures, typed and
/// named as their lifted functions take them: one per captured variable
/// (by reference if a closure captures it so), apart from the names of the
/// callee's parameters and locals.
void declareCaptures(ASTContext &Ctx, FunctionDecl *View, CallableView &V) {
  struct Slot {
    const VarDecl *Var;
    ParmVarDecl *From;
    QualType T;
    ParmVarDecl *Param = nullptr;
  };
  SmallVector<Slot, 4> Slots;
  SmallVector<SmallVector<unsigned, 4>, 1> SlotOf;
  for (CallableView::Closure &C : V.Closures) {
    SlotOf.emplace_back();
    if (!C.Info)
      continue; // (a function captures nothing)
    unsigned First = C.Info->Callee->getNumParams();
    for (unsigned J = First; J < C.Lifted->getNumParams(); ++J) {
      const VarDecl *Var = C.Info->Caps[J - First].Var;
      ParmVarDecl *FP = C.Lifted->getParamDecl(J);
      auto *It = llvm::find_if(
          Slots, [&](const Slot &S) { return Var && S.Var == Var; });
      SlotOf.back().push_back(It - Slots.begin());
      if (It == Slots.end())
        Slots.push_back({Var, FP, FP->getType()});
      else if (FP->getType()->isLValueReferenceType() &&
               !FP->getType().getNonReferenceType().isConstQualified())
        It->T = FP->getType();
    }
  }
  // (Nor may a local of the callee hide one where it is read.)
  struct Locals : RecursiveASTVisitor<Locals> {
    llvm::StringSet<> Names;
    bool VisitVarDecl(VarDecl *VD) {
      if (VD->getIdentifier())
        Names.insert(VD->getName());
      return true;
    }
  } L;
  // (The pattern's: the callee itself may not be instantiated yet.)
  L.TraverseStmt(const_cast<Stmt *>(source(V.Callee)->getBody()));
  llvm::StringSet<> &Names = L.Names;
  for (ParmVarDecl *P : V.Clones)
    if (!V.closureOf(P) && P->getIdentifier())
      Names.insert(P->getName());
  for (Slot &S : Slots) {
    std::string N = S.From->getName().str();
    while (!Names.insert(N).second)
      N += "_";
    S.Param = ParmVarDecl::Create(
        Ctx, View, S.From->getInnerLocStart(), S.From->getLocation(),
        &Ctx.Idents.get(N), S.T, Ctx.getTrivialTypeSourceInfo(S.T), SC_None,
        nullptr);
  }
  for (unsigned K = 0; K < V.Closures.size(); ++K)
    for (unsigned I : SlotOf[K])
      V.Closures[K].Caps.push_back(Slots[I].Param);
}

/// Gives \p View its parameters (the closures' captures in place of the
/// closures), type and body \p Body.
void defineView(ASTContext &Ctx, const FunctionDecl *Callee,
                FunctionDecl *View, CallableView &V, Stmt *Body) {
  SmallVector<ParmVarDecl *, 8> &Params = V.Params;
  for (ParmVarDecl *P : V.Clones) {
    if (const CallableView::Closure *C = V.closureOf(P)) {
      for (ParmVarDecl *Cap : C->Caps)
        if (!llvm::is_contained(Params, Cap))
          Params.push_back(Cap);
    } else {
      Params.push_back(P);
    }
  }
  SmallVector<QualType, 8> Types;
  for (unsigned I = 0; I < Params.size(); ++I) {
    Params[I]->setScopeInfo(0, I);
    Types.push_back(Params[I]->getType());
  }
  QualType FT = Ctx.getFunctionType(
      returnsClosure(Callee) ? Ctx.VoidTy : Callee->getReturnType(), Types,
      FunctionProtoType::ExtProtoInfo());
  TypeSourceInfo *TSI = Ctx.getTrivialTypeSourceInfo(FT, View->getLocation());
  if (auto FTL = TSI->getTypeLoc().getAs<FunctionProtoTypeLoc>())
    for (unsigned I = 0; I < Params.size(); ++I)
      FTL.setParam(I, Params[I]);
  View->setType(FT);
  View->setTypeSourceInfo(TSI);
  View->setParams(Params);
  View->setBody(Body);
  if (!Callee->isInStdNamespace())
    View->setLexicalDeclContext(
        const_cast<DeclContext *>(Callee->getLexicalDeclContext()));
  View->getDeclContext()->addDecl(View);
}
} // namespace

/// The closures of \p V for \p Bindings: the lambdas lifted (a generic
/// one as the specialisation \p Body calls), the functions called as they
/// are. False (with V's Refusal, or reported at the lambda) if one cannot
/// be.
static bool liftClosures(Differentiator &D, CallableView &V,
                         ArrayRef<Binding> Bindings, Stmt *Body,
                         const Requester &Caller) {
  for (unsigned I = 0; I < V.Clones.size() && I < Bindings.size(); ++I) {
    const Binding &B = Bindings[I];
    if (!B)
      continue;
    bool Generic = B.Lambda && B.Lambda->isGenericLambda();
    const FunctionDecl *Op =
        Generic ? calledOperator(Body, V.Clones[I]) : nullptr;
    if (Generic && !Op) {
      V.Refusal = "it is generic, and '" + nameOf(V.Callee) +
                  "' does not call it with arguments of one type (give its "
                  "parameters types, such as 'double z')";
      return false;
    }
    LambdaInfo *Info =
        B.Lambda ? D.lambdaInfo(B.Lambda, Caller.Primal, Caller.Pullback, Op)
                 : nullptr;
    FunctionDecl *Fn =
        Info ? D.liftFunction(*Info, 0, Caller.Primal, Caller.Pullback)
             : const_cast<FunctionDecl *>(B.Fn);
    if (!Fn)
      return false; // (a lambda that cannot be lifted was reported there)
    V.Closures.push_back({V.Clones[I], B.Lambda, Info, Fn, {}});
  }
  return true;
}

const CallableView *
Differentiator::callableView(const FunctionDecl *Callee,
                             ArrayRef<Binding> Bindings,
                             const Requester &Caller) {
  auto &Known = Views[Callee->getCanonicalDecl()];
  for (const std::unique_ptr<CallableView> &V : Known)
    if (llvm::equal(V->Bindings, Bindings))
      return V.get();
  CallableView &V = *Known.emplace_back(std::make_unique<CallableView>());
  V.Callee = Callee;
  V.Bindings.assign(Bindings.begin(), Bindings.end());
  V.Refusal = viewRefusal(Callee);
  if (!V.Refusal.empty())
    return &V;
  // (Named after its callee and, for a function passed, after it.)
  const Binding *First = llvm::find_if(Bindings, [](const Binding &B) {
    return bool(B);
  });
  FunctionDecl *View = declareView(
      S.Context, Callee,
      nameOf(Callee) + "_with_" +
          (First != Bindings.end() && First->Fn ? nameOf(First->Fn)
                                                : std::string("lambda")) +
          "_" + std::to_string(NextView++),
      V);
  std::string Why = "its body could not be instantiated again";
  Stmt *Body = Callee->getTemplateInstantiationPattern()
                   ? instantiateAgain(S, Callee, View, V.Clones)
                   : copyBody(S, source(Callee), View, V.Clones, Why);
  if (!Body) {
    V.Refusal = Why;
    return &V;
  }
  if (!liftClosures(*this, V, Bindings, Body, Caller))
    return &V;
  declareCaptures(S.Context, View, V);
  Rewriter R{*this, S, Caller, Body, &V, nullptr};
  Facts::get(S.Context).noteStatementCalls(Body);
  V.Building = true;
  R.walk(Body);
  V.Building = false;
  ClosureUse U;
  U.V = &V;
  U.TraverseStmt(Body);
  if (U.Found) {
    V.Refusal = "'" + nameOf(Callee) +
                "' does more with it than call it or pass it on";
    return &V;
  }
  defineView(S.Context, Callee, View, V, Body);
  V.View = View;
  ViewOf[View] = &V;
  nameAs(View, Callee);
  Done.push_back(View);
  if (Opts.Dump)
    printDefinitionTo(View);
  Emit(View);
  return &V;
}

const CallableView *Differentiator::viewOf(const FunctionDecl *FD) const {
  return ViewOf.lookup(FD);
}

void Differentiator::refuseCallable(const Expr *Arg, const FunctionDecl *FD,
                                    StringRef Why,
                                    const Requester &Caller) {
  if (Why.empty() || !firstErrorAt(Arg->getExprLoc(), Caller.Primal))
    return;
  const Expr *A = stripped(functionSource(Arg));
  std::string What = "callable";
  if (const FunctionDecl *F = namedFunction(A))
    What = "function '" + nameOf(F) + "'";
  else if (const auto *DRE = dyn_cast<DeclRefExpr>(A))
    What = (writtenLambda(A) || closureType(DRE->getDecl()) ? "lambda '"
                                                             : "callable '") +
           nameOf(DRE->getDecl()) + "'";
  else if (writtenLambda(A))
    What = "lambda";
  report(S.Diags, Diag::UnsupportedConstruct, Arg->getExprLoc())
      << (What + " passed to '" + nameOf(FD) + "' (" + Why.str() +
          ")")
      << nameOf(Caller.Primal);
  if (Caller.Pullback)
    noteRequest(*Caller.Pullback);
  else if (Caller.Pushforward)
    noteForwardRequest(*Caller.Pushforward);
}

//===----------------------------------------------------------------------===//
// Presenting a definition
//===----------------------------------------------------------------------===//

CallablePresentation::CallablePresentation(Differentiator &D,
                                           const FunctionDecl *Def,
                                           const Requester &Caller) {
  Stmt *Body = const_cast<Stmt *>(Def->getBody());
  if (!Body || D.viewOf(Def))
    return; // (a view's calls are rewritten for good)
  Rewriter R{D, D.sema(), Caller, Body, nullptr, &Replaced};
  Facts::get(D.sema().Context).noteStatementCalls(Body);
  for (Stmt *&C : Body->children())
    R.walk(C);
}

CallablePresentation::~CallablePresentation() {
  for (auto It = Replaced.rbegin(); It != Replaced.rend(); ++It)
    *It->first = It->second;
}

} // namespace grad
