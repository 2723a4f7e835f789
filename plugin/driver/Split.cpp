//===- Split.cpp - Split derivatives for nested calls -----------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Which callees are differentiated in two halves. A pullback recomputes a
/// callee's value in its forward sweep and calls the callee's pullback in
/// its reverse sweep, which recomputes the callee's own forward sweep: fine
/// for a helper that only calls math functions, quadratic for a chain of N
/// nested calls. A callee that calls functions which call functions (call
/// depth >= 2) gets `_grad_f_fwd` (value; pushes a frame of what its reverse
/// sweep reads on the thread's stack) and `_grad_f_rev` (pops the frame):
/// every level of a chain then runs its forward sweep once.
///
/// Two kinds of callees get halves. useSplit: a scalar callee of call depth
/// >= 2 whose body is straight-line scalar code (no loops, containers,
/// members or early returns), the chain case above. ensureHalves: a helper
/// whose call must not run again in the reverse sweep, because it writes
/// through its arguments or reads memory the caller changes after the call
/// (Calls.cpp: writtenStorage, memoryUnstable); its body may be anything
/// the builder supports, loops included. Either way the two halves are
/// two builds of the same pullback, and the frame is what its forward
/// sweep records. Halves take the caller's stack as their last parameter;
/// those of small helpers without [[grad]] are always_inline and internal
/// (inlineHalves).
///
//===----------------------------------------------------------------------===//

#include "driver/Consumer.h"
#include "driver/EntryCopies.h"
#include "ast/Diagnostics.h"
#include "reverse/PullbackBuilder.h"
#include "analysis/Jumps.h"
#include "ast/Tidy.h"
#include "ast/Rules.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Sema/Lookup.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace grad {

namespace {

/// Checks that a body is straight-line scalar code and finds the functions
/// it calls that are differentiated through their own derivative.
struct Shape : RecursiveASTVisitor<Shape> {
  const State &St;
  llvm::SmallPtrSet<const Stmt *, 4> Tail;
  llvm::SmallVector<const FunctionDecl *, 4> Callees;
  bool OK = true;
  Shape(const State &St) : St(St) {}

  bool fail() {
    OK = false;
    return false;
  }
  bool VisitStmt(Stmt *S) {
    if (isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) ||
        isa<CXXForRangeStmt>(S) || isa<SwitchStmt>(S) || isa<GotoStmt>(S) ||
        isa<IndirectGotoStmt>(S) || isa<LabelStmt>(S) || isa<CXXTryStmt>(S) ||
        isa<LambdaExpr>(S) || isa<CXXThisExpr>(S) || isa<MemberExpr>(S) ||
        isa<ArraySubscriptExpr>(S) || isa<CXXOperatorCallExpr>(S) ||
        isa<CXXMemberCallExpr>(S) || isa<CXXConstructExpr>(S) ||
        isa<StmtExpr>(S) || isa<CoroutineBodyStmt>(S))
      return fail();
    if (const auto *RS = dyn_cast<ReturnStmt>(S))
      if (!Tail.count(RS))
        return fail();
    if (const auto *UO = dyn_cast<UnaryOperator>(S))
      if (UO->getOpcode() == UO_AddrOf || UO->getOpcode() == UO_Deref)
        return fail();
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (!VD->getType()->isArithmeticType() || VD->isStaticLocal())
      return fail();
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    // Globals may change between the two halves.
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (!VD->isLocalVarDeclOrParm() && !VD->getType().isConstQualified())
        return fail();
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD || isa<CXXMethodDecl>(FD))
      return fail();
    if (findRule(FD) || St.isNodiff(FD))
      return true;
    if (FD->isInStdNamespace() || FD->isVariadic())
      return fail();
    Callees.push_back(FD);
    return true;
  }
};

} // namespace


bool Differentiator::callsFunctions(const FunctionDecl *FD,
                                    SourceLocation Loc) {
  auto It = CallsFunctions.find(FD);
  if (It != CallsFunctions.end())
    return It->second;
  CallsFunctions[FD] = false;
  const FunctionDecl *Def = instantiatedDefinition(S, FD, Loc);
  bool Calls = false;
  if (Def && Def->getBody()) {
    struct Finder : RecursiveASTVisitor<Finder> {
      const State &St;
      bool Found = false;
      Finder(const State &St) : St(St) {}
      bool VisitCallExpr(CallExpr *CE) {
        const FunctionDecl *F = CE->getDirectCallee();
        if (F && !findRule(F) && !St.isNodiff(F) && !F->isInStdNamespace() &&
            (F->hasBody() || F->isImplicitlyInstantiable()))
          Found = true;
        return !Found;
      }
    } Fi(State::get(S.Context));
    Fi.TraverseStmt(Def->getBody());
    Calls = Fi.Found;
  }
  return CallsFunctions[FD] = Calls;
}

/// The largest body (in statements and expressions, with the bodies of
/// inlined callees) whose halves are inlined: Rodrigues' rotation with its
/// two helpers (bench/ba.cpp) is 412, GMM's helpers 30 to 220. A bound on
/// what a chain of helpers inlines into one half, so no call graph
/// multiplies code (the chains of `[[grad]]` functions of
/// bench/compile_time.py are never inlined).
static constexpr int InlineBudget = 600;

int Differentiator::inlinedSize(const FunctionDecl *FD) {
  FD = FD->getCanonicalDecl();
  auto It = InlinedSizes.find(FD);
  if (It != InlinedSizes.end())
    return It->second;
  InlinedSizes[FD] = -1; // (recursion: not inlined)
  const FunctionDecl *Def = FD->getDefinition();
  if (!Def || !Def->getBody() || State::get(S.Context).requestFor(FD) ||
      FD->isTemplateInstantiation() || isa<CXXMethodDecl>(FD))
    return -1;
  struct Count : RecursiveASTVisitor<Count> {
    Differentiator &D;
    int Size = 0;
    Count(Differentiator &D) : D(D) {}
    bool VisitStmt(Stmt *) {
      ++Size;
      return true;
    }
    bool VisitCallExpr(CallExpr *CE) {
      const FunctionDecl *F = CE->getDirectCallee();
      if (F && !findRule(F) && !F->isInStdNamespace())
        Size += std::max(0, D.inlinedSize(F));
      return true;
    }
  } C(*this);
  C.TraverseStmt(Def->getBody());
  int Size = C.Size <= InlineBudget ? C.Size : -1;
  return InlinedSizes[FD] = Size;
}

bool Differentiator::inlineHalves(const FunctionDecl *FD) {
  return Opts.InlineHalves && inlinedSize(FD) >= 0;
}

bool Differentiator::hasFrames() {
  if (FramesChecked)
    return HasFrames;
  FramesChecked = true;
  SemaBuilder B(S, SourceLocation());
  NamespaceDecl *NS = B.gradNamespace(/*Detail=*/true);
  if (!NS)
    return HasFrames = false;
  LookupResult R(S, &S.Context.Idents.get("thread_stack"), SourceLocation(),
                 Sema::LookupOrdinaryName);
  S.LookupQualifiedName(R, NS);
  return HasFrames = !R.empty();
}

bool Differentiator::useSplit(PullbackEntry &E, SourceLocation Loc) {
  if (E.Split < 0) {
    E.Split = 0;
    const FunctionDecl *FD = E.Primal;
    QualType R = FD->getReturnType();
    bool Scalars = isFloating(R) && !R->isReferenceType() &&
                   !isa<CXXMethodDecl>(FD) && !FD->isVariadic();
    for (const ParmVarDecl *P : FD->parameters()) {
      ParamKind K = classifyParam(S.Context, P->getType()).Kind;
      Scalars &= (K == ParamKind::Scalar || K == ParamKind::None) &&
                 !(P->getType()->isReferenceType() &&
                   !P->getType().getNonReferenceType().isConstQualified()) &&
                 P->getType().getNonReferenceType()->isArithmeticType();
    }
    const FunctionDecl *Def = Scalars && !E.UserProvided && hasFrames()
                                  ? instantiatedDefinition(S, FD, Loc)
                                  : nullptr;
    if (Def && Def->getBody()) {
      Shape Sh(State::get(S.Context));
      collectTailReturns(Def->getBody(), S.Context, Sh.Tail);
      Sh.TraverseStmt(Def->getBody());
      bool Deep = false;
      for (const FunctionDecl *C : Sh.Callees)
        Deep = Deep || callsFunctions(C, Loc);
      E.Split = Sh.OK && Deep && !Sh.Tail.empty();
    }
  }
  if (E.Split != 1)
    return false;
  mineNow(E);
  if (!E.Fwd) {
    declareSplit(S, E, inlineHalves(E.Primal));
    SplitWork.push_back(&E);
  }
  return true;
}

void Differentiator::mineNow(PullbackEntry &E) {
  E.HalvesForOtherUnits = false;
  if (!E.HalvesFailed)
    return;
  // Built quietly for other translation units and failed: a caller here
  // needs them, so they are built again, with their errors.
  E.HalvesFailed = false;
  E.HalvesDone = false;
  E.Fwd->setInvalidDecl(false);
  E.Rev->setInvalidDecl(false);
  SplitWork.push_back(&E);
}

void Differentiator::ensureHalves(PullbackEntry &E, bool OtherUnits) {
  if (!OtherUnits)
    mineNow(E);
  if (E.Fwd)
    return;
  E.HalvesForOtherUnits = OtherUnits;
  declareSplit(S, E, inlineHalves(E.Primal));
  SplitWork.push_back(&E);
}

bool Differentiator::defineWrapper(PullbackEntry *E) {
  FunctionDecl *PB = E->Pullback;
  Sema::SynthesizedFunctionScope Scope(S, PB);
  SemaBuilder B(S, E->Primal->getLocation());
  SmallVector<Expr *, 8> FwdArgs, RevArgs;
  for (unsigned I = 0; I < PB->getNumParams(); ++I) {
    if (I < E->Primal->getNumParams())
      FwdArgs.push_back(B.ref(PB->getParamDecl(I)));
    RevArgs.push_back(B.ref(PB->getParamDecl(I)));
  }
  // The thread's stack, left as it was found, also when the primal
  // throws.
  Expr *TS = B.callRuntime("thread_stack", {}, {}, true);
  QualType MarkT = B.runtimeDetailType("stack_mark");
  if (!TS || MarkT.isNull())
    return false;
  QualType RefT = S.Context.getLValueReferenceType(TS->getType());
  VarDecl *Stack = B.var(PB, "_stack", RefT, TS);
  Stmts Body{B.declStmt(Stack),
             B.declStmt(B.var(PB, "_mark", MarkT, B.ref(Stack),
                              /*Direct=*/true))};
  if (E->HalvesTakeStack) {
    FwdArgs.push_back(B.ref(Stack));
    RevArgs.push_back(B.ref(Stack));
  }
  // The halves are called, not inlined: the callers' halves already
  // hold their code.
  Body.push_back(B.noInline(B.staticCast(S.Context.VoidTy,
                                         B.call(B.funcRef(E->Fwd), FwdArgs))));
  Body.push_back(B.noInline(B.call(B.funcRef(E->Rev), RevArgs)));
  for (Stmt *St : Body)
    if (!St)
      return false;
  PB->setBody(B.block(Body));
  return !B.Failed;
}

void Differentiator::defineSplit(PullbackEntry *E) {
  const FunctionDecl *Def = E->Primal->getDefinition();
  // Without a body yet: retried at the end of the translation unit.
  if (!Def || E->Failed || E->HalvesDone)
    return;
  E->HalvesDone = true;
  // (Both halves see one rewritten definition: the frame they share is
  // laid out by its variables.)
  CallablePresentation Callables(*this, Def, {E->Primal, E, nullptr});
  EntryCopies View(S, Def);
  for (SplitHalf Half : {SplitHalf::Forward, SplitHalf::Reverse}) {
    PullbackBuilder PBB(*this, *E, View.def(), Half);
    FunctionDecl *FD = Half == SplitHalf::Forward ? E->Fwd : E->Rev;
    if (Def->isInlined() || Def->isTemplateInstantiation())
      FD->setImplicitlyInline();
    // (What one half stores and the other loads then stays in registers:
    // BA's vector-Jacobian product 0.91 -> 0.79-0.81 ms, performance.md.)
    if (inlineHalves(E->Primal) && !FD->hasAttr<AlwaysInlineAttr>())
      FD->addAttr(AlwaysInlineAttr::Create(
          S.Context, SourceRange(), AlwaysInlineAttr::CXX11_gnu_always_inline));
    unsigned Errors = S.Diags.getNumErrors();
    // Halves only callers in other translation units would call: built
    // quietly, and a failure is a warning (the function itself is fine).
    bool Quiet = E->HalvesForOtherUnits;
    bool WasSuppressed = S.Diags.getSuppressAllDiagnostics();
    // (Errors found quietly are reported again when a caller here needs
    // the halves: their locations are not marked as reported.)
    decltype(ErrorsAt) ErrorsBefore;
    if (Quiet) {
      ErrorsBefore = ErrorsAt;
      S.Diags.setSuppressAllDiagnostics(true);
    }
    bool Built = PBB.build();
    if (Quiet) {
      S.Diags.setSuppressAllDiagnostics(WasSuppressed);
      ErrorsAt = std::move(ErrorsBefore);
    }
    if (!Built && Quiet) {
      QuietHalves.push_back(E);
      E->HalvesFailed = true;
      E->Fwd->setInvalidDecl();
      E->Rev->setInvalidDecl();
      return;
    }
    if (!Built) {
      if (S.Diags.getNumErrors() == Errors) {
        report(S.Diags, Diag::UnsupportedConstruct, Def->getLocation())
            << "this function (building its split derivative failed)"
            << nameOf(Def);
        noteRequest(*E);
      }
      E->Failed = true;
      FD->setInvalidDecl();
      return;
    }
    tidy(FD, Opts.HoistSums);
    Done.push_back(FD);
    definedGenerated(FD);
    Emit(FD);
  }
}

} // namespace grad
