//===- TangentBuilder.h - The builder of pushforwards and HVPs --*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Internal to Tangents.cpp (expressions), TangentCalls.cpp, TangentLanes.cpp
/// and TangentMembers.cpp (calls), TangentInits.cpp (initialisers),
/// TangentDecls.cpp (declarations), TangentStmts.cpp (statements,
/// parameters, the entry points) and VectorPullbacks.cpp (linear mode). A
/// pushforward is built in one sweep: every expression is
/// rebuilt as a pair, its value (the primal expression, remapped to the
/// pushforward's variables) and its tangent (an expression of the same type;
/// for pointers, a pointer into tangent memory; null when it is zero).
/// Statements that write a differentiated lvalue first write its tangent
/// (computed from the values before the write), then the value. Values that
/// a tangent reads more than once are bound to temporaries where they are
/// evaluated (never in a loop condition or increment, where the rebuilt
/// expression must stay one expression). An HVP is the same sweep over the
/// generated pullback (Forward.h).
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_TANGENTBUILDER_H
#define CLANG_GRAD_TANGENTBUILDER_H

#include "analysis/Activity.h"
#include "forward/Forward.h"
#include "lift/ForwardAbi.h"
#include "lift/Lift.h"
#include "lift/Requests.h"
#include "ast/Diagnostics.h"
#include "analysis/Paths.h"
#include "ast/Rules.h"
#include "ast/SemaBuilder.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"
#include "clang/Sema/Sema.h"
#include "llvm/ADT/DenseSet.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <string>

namespace grad {
namespace tangent {
using namespace clang;

/// A rebuilt expression: value and tangent (null: zero, or no tangent).
struct VT {
  Expr *V = nullptr;
  Expr *T = nullptr;
};

class TangentBuilder {
public:
  /// The pushforward of \p PE from \p Def.
  TangentBuilder(DerivativeRequests &D, PushforwardEntry &PE,
                 const FunctionDecl *Def)
      : D(D), S(D.sema()), Ctx(S.Context), PE(&PE), Primal(PE.Primal),
        RequestLoc(PE.RequestLoc), Def(Def), Fn(PE.Pushforward),
        B(S, Def->getLocation()), Lanes(PE.Lanes), Linear(PE.Linear) {}
  /// The Hessian-vector product \p H from the pullback \p Pullback.
  TangentBuilder(DerivativeRequests &D, HvpEntry &H, const FunctionDecl *Pullback)
      : D(D), S(D.sema()), Ctx(S.Context), H(&H), Primal(H.Primal),
        RequestLoc(H.AttrLoc), Def(Pullback), Fn(H.Hvp),
        B(S, H.Primal->getLocation()) {}
  /// The vector pullback \p V from the scalar pullback \p Pullback.
  TangentBuilder(DerivativeRequests &D, VectorPullbackEntry &V,
                 const FunctionDecl *Pullback)
      : D(D), S(D.sema()), Ctx(S.Context), VP(&V), Primal(V.Primal),
        RequestLoc(V.AttrLoc), Def(Pullback), Fn(V.Fn),
        B(S, V.Primal->getLocation()), Lanes(V.Lanes), Linear(true) {}

  bool build();

private:
  DerivativeRequests &D;
  Sema &S;
  ASTContext &Ctx;
  PushforwardEntry *PE = nullptr;
  HvpEntry *H = nullptr;
  VectorPullbackEntry *VP = nullptr;
  const FunctionDecl *Primal;
  SourceLocation RequestLoc;
  const FunctionDecl *Def;
  FunctionDecl *Fn;
  SemaBuilder B;
  /// Directions per tangent (vector mode: tangents are grad::lanes); 0 for
  /// scalar tangents.
  unsigned Lanes = 0;
  /// Linear mode (PushforwardEntry::Linear, vector pullbacks): only what
  /// depends on the dropped adjoints has a tangent, and it has no value.
  bool Linear = false;
  /// Linear mode: which variables depend on the adjoints.
  std::unique_ptr<Activity> LinAct;
  bool linearActive(const VarDecl *VD) const;
  /// Linear mode: \p E is a value of the pullback's own (neither an adjoint
  /// nor reaching one: the forward sweep, the tape), emitted as written.
  bool pullbackOwn(const Expr *E) const {
    return Linear && !LinAct->isActive(E) && !LinAct->reachesActive(E);
  }
  void runLinearActivity(const WrtMask &Adj);
  /// Linear mode: the pullback's local \p N as the user knows it ("the
  /// adjoint of 'x'").
  static std::string adjointName(StringRef N);
  /// Linear mode: "the adjoint of 'v'" for an adjoint variable \p E, "an
  /// adjoint container" otherwise.
  static std::string adjointOf(const Expr *E) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      return adjointName(DRE->getDecl()->getName());
    return "an adjoint container";
  }
  /// Linear mode: a dropped variable's value is never computed. Reads of
  /// it build a reference to a variable that is never declared (of the
  /// same type, so that the value side still type-checks); build()
  /// refuses a body in which one is left.
  llvm::DenseMap<const VarDecl *, VarDecl *> Poison;
  llvm::DenseSet<const VarDecl *> PoisonVars;
  VarDecl *poisonFor(const VarDecl *VD);
  /// Linear mode: reports the first use of a dropped value left in \p St.
  bool checkPoison(const Stmt *St);

  /// The type of the tangent of a value of type \p T (\p T itself unless
  /// in vector mode); null when it has none.
  QualType tanType(QualType T) {
    return tangentType(S, T, Lanes, B.Loc, /*Vectors=*/Linear);
  }
  /// \p T's tangent type, or null after reporting \p What at \p St.
  QualType tanTypeOr(QualType T, const Stmt *St, const Twine &What) {
    QualType R = tanType(T);
    if (R.isNull())
      fail(St, What + " of type '" +
                   T.getNonReferenceType().getAsString(
                       Ctx.getPrintingPolicy()) +
                   "' in vector mode (objects and containers have no lanes "
                   "yet)");
    return R;
  }

  llvm::DenseMap<const VarDecl *, VarDecl *> Vals, Tans;
  llvm::DenseMap<const LabelDecl *, LabelDecl *> Labels;
  LabelDecl *labelFor(const LabelDecl *L) {
    LabelDecl *&N = Labels[L];
    if (!N)
      N = B.label(Fn, L->getName());
    return N;
  }
  /// Tangents held as a pointer to the tangent object (`double *t_x` for
  /// `double &x`).
  llvm::DenseSet<const VarDecl *> TanByPointer;
  /// Pointers that own floating heap memory (`double *w = new double[n]`,
  /// malloc): their tangent memory is the runtime's zeroed shadow memory,
  /// freed where they are freed.
  llvm::DenseSet<const VarDecl *> HeapTans;
  bool heapTangent(const VarDecl *VD, Expr *&VInit, Expr *&TInit);
  /// The tangent of the value a single heap object starts with (`new
  /// double(e)`, `new T{a, b}`), stored into its tangent memory right
  /// after the declaration.
  llvm::DenseMap<const VarDecl *, Expr *> HeapInitTans;
  /// \p E as written, over the pushforward's values (code without
  /// derivatives: allocations, deallocations); null if it cannot be.
  Expr *replayed(const Expr *E);
  /// \p X without a tangent, as written (scratch memory, braces of
  /// constants, a capture-free lambda), or refused.
  VT asWrittenOrRefused(const Expr *X);
  /// The tangent memory freed with what \p Arg points to, if it owns heap
  /// memory (null otherwise).
  Expr *freedTangent(const Expr *Arg);
  /// Variables whose declaration failed (not reported again).
  llvm::DenseSet<const VarDecl *> FailedVars;
  /// Pointer parameters whose pointees' values are discarded (a pullback's
  /// adjoint outputs in a Hessian-vector product): only their tangents are
  /// written; reading them is an error.
  llvm::DenseSet<const VarDecl *> Dropped;
  /// Building the left side of a write into dropped memory (its value side
  /// is not emitted).
  bool AllowDropped = false;
  SmallVectorImpl<Stmt *> *Cur = nullptr;
  /// Inside a loop condition or increment: what would be statements are
  /// joined with the comma operator, and nothing is bound to a temporary.
  unsigned NoHoist = 0;
  SmallVector<Expr *, 4> Pending;
  /// The expression statement being built: its value is discarded.
  const Expr *Discard = nullptr;
  bool Errors = false, StmtFailed = false;
  /// What the builder gave a tangent (`expr` with a tangent needed) or
  /// modelled (assignments, declarations, returns): checkSites compares it
  /// with the derivative sites of the primal (analysis/Sites.h).
  llvm::DenseSet<const void *> Modelled;
  void modelled(const void *P) { Modelled.insert(P); }
  /// A pushforward of a user's function: every derivative site was
  /// modelled; an internal error at each one that was not.
  bool checkSites();
  /// What the call shape of \p CE (analysis/CallShapes.def) decides
  /// alone: true, with \p Done, for a callback replayed as written or a
  /// refused shape; false when `call` dispatches it.
  bool byShape(const CallExpr *CE, VT &Done);
  /// Always on, in the pushforward of a user's function: the tangent \p TP
  /// of the container parameter \p P has its shape (`check_shape`, as the
  /// adjoints of a pullback).
  void checkTangentShape(const ParmVarDecl *P, ParmVarDecl *TP);
  /// An error of this function has been reported.
  bool Reported = false;
  unsigned Temps = 0;
  QualType RetT;

  /// True if \p St reads a local whose declaration failed: its errors
  /// follow from that one.
  bool readsFailedVar(const Stmt *St) const {
    if (!St || FailedVars.empty())
      return false;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(St))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        return FailedVars.count(VD) != 0;
    for (const Stmt *C : St->children())
      if (readsFailedVar(C))
        return true;
    return false;
  }

  /// Where the derivative was requested: for a pushforward, the calls
  /// that led to it.
  void noteRequest() {
    if (PE && !H && !VP)
      D.noteForwardRequest(*PE);
    else if (RequestLoc.isValid())
      report(S.Diags, Diag::GradSiteNote, RequestLoc)
          << nameOf(Primal);
  }

  std::nullptr_t fail(const Stmt *St, const Twine &What) {
    Errors = true;
    if (!StmtFailed && Reported && readsFailedVar(St))
      StmtFailed = true;
    if (!StmtFailed) {
      StmtFailed = Reported = true;
      SourceLocation Loc = St ? St->getBeginLoc() : SourceLocation();
      if (H)
        report(S.Diags, Diag::UnsupportedHvp,
               Loc.isValid() ? Loc : RequestLoc)
            << What.str() << nameOf(Primal);
      else if (Linear)
        report(S.Diags, Diag::UnsupportedVectorPullback,
               Loc.isValid() ? Loc : RequestLoc)
            << What.str() << linearPrimalName();
      else
        report(S.Diags, Diag::UnsupportedForward, Loc)
            << What.str() << nameOf(Def);
      noteRequest();
    }
    return nullptr;
  }

  /// fail, for steps that return whether they succeeded: false.
  bool failed(const Stmt *St, const Twine &What) {
    fail(St, What);
    return false;
  }

  void emit(Stmt *St) {
    if (!St) {
      Errors = true;
      return;
    }
    if (NoHoist) {
      if (auto *X = dyn_cast<Expr>(St))
        Pending.push_back(X);
      else
        Errors = true;
      return;
    }
    Cur->push_back(St);
  }

  std::string spelled(const Expr *X) const { return spelledExpr(Ctx, X); }
  /// Linear mode: the user's function whose vector pullback this is part
  /// of (for a callee's reverse half, the callee).
  std::string linearPrimalName() const;

  /// A name for a temporary, unlike any the function being
  /// differentiated declares (an HVP differentiates a generated pullback,
  /// whose own temporaries are `_r0`, `_t0`, ...).
  std::string fresh(StringRef Base) {
    if (!TakenKnown)
      collectTaken();
    std::string Name;
    do
      Name = ("_" + Base + std::to_string(Temps++)).str();
    while (Taken.count(Name));
    return Name;
  }
  void collectTaken() {
    struct Names : RecursiveASTVisitor<Names> {
      llvm::StringSet<> &Out;
      explicit Names(llvm::StringSet<> &Out) : Out(Out) {}
      bool VisitNamedDecl(NamedDecl *D) {
        if (D->getIdentifier())
          Out.insert(D->getName());
        return true;
      }
    } N(Taken);
    N.TraverseDecl(const_cast<FunctionDecl *>(Def));
    TakenKnown = true;
  }
  llvm::StringSet<> Taken;
  bool TakenKnown = false;

  /// Binds \p V (of type \p T) to a temporary where it is evaluated.
  Expr *hoist(Expr *V, QualType T, const Expr *Src) {
    if (!V)
      return nullptr;
    if (NoHoist) {
      if (Src && !Src->HasSideEffects(Ctx))
        return V; // evaluated once here; copies are rebuilt from Src
      fail(Src ? static_cast<const Stmt *>(Src) : Def->getBody(),
           "a call or side effect in a loop condition or increment whose "
           "value the derivative needs twice");
      return nullptr;
    }
    VarDecl *Tmp = B.var(Fn, fresh("v"),
                         T.getNonReferenceType().getUnqualifiedType(), V);
    emit(B.declStmt(Tmp));
    return B.ref(Tmp);
  }

  /// A second copy of the value of \p X (built from \p Src): a variable is
  /// read again, anything else is bound to a temporary first.
  Expr *dup(VT &X, const Expr *Src) {
    if (!X.V)
      return nullptr;
    Expr *K = X.V->IgnoreParenImpCasts();
    if (auto *DRE = dyn_cast<DeclRefExpr>(K))
      return B.ref(DRE->getDecl());
    if (auto *FL = dyn_cast<FloatingLiteral>(K))
      return FloatingLiteral::Create(Ctx, FL->getValue(), FL->isExact(),
                                     FL->getType(), B.Loc);
    if (auto *IL = dyn_cast<IntegerLiteral>(K))
      return IntegerLiteral::Create(Ctx, IL->getValue(), IL->getType(),
                                    B.Loc);
    if (NoHoist) {
      if (Src && !Src->HasSideEffects(Ctx)) {
        // Rebuilt from source: the same value, a fresh expression.
        SmallVector<Expr *, 4> Saved(Pending);
        VT Again = expr(Src, false);
        Pending = Saved;
        return Again.V;
      }
      return hoist(X.V, K->getType(), Src);
    }
    X.V = hoist(X.V, Src ? Src->getType() : K->getType(), Src);
    Expr *R = X.V ? X.V->IgnoreParenImpCasts() : nullptr;
    return R ? B.ref(cast<DeclRefExpr>(R)->getDecl()) : nullptr;
  }

  /// The value zero of type \p T (`T{}` for objects).
  Expr *valueZero(QualType T) {
    T = T.getNonReferenceType().getUnqualifiedType();
    if (T->isArithmeticType())
      return B.zero(T);
    if (T->isPointerType())
      return new (Ctx) CXXNullPtrLiteralExpr(Ctx.NullPtrTy, B.Loc);
    return B.construct(T, {}, /*List=*/true);
  }
  /// The zero tangent of a value of type \p T (or of a tangent of type
  /// \p T); a null pointer for pointers.
  Expr *zeroOf(QualType T) {
    if (Lanes && !T->isPointerType()) {
      T = tanType(T.getNonReferenceType().getUnqualifiedType());
      if (T.isNull()) {
        Errors = true;
        return nullptr;
      }
    }
    return valueZero(T);
  }
  Expr *orZero(Expr *T, QualType Ty) { return T ? T : zeroOf(Ty); }

  Expr *add(Expr *A, Expr *Bx) {
    if (!A)
      return Bx;
    if (!Bx)
      return A;
    return B.binop(BO_Add, A, Bx);
  }
  /// \p E, parenthesised when it is a unary `+`, `-` or `!`: Sema warns
  /// about `a = -b` (-Wnot-compound-assign) when generated locations put the
  /// operators next to each other.
  Expr *rhs(Expr *E) {
    if (const auto *UO =
            E ? dyn_cast<UnaryOperator>(E->IgnoreImpCasts()) : nullptr)
      if (UO->getOpcode() == UO_Minus || UO->getOpcode() == UO_Plus ||
          UO->getOpcode() == UO_LNot)
        return B.paren(E);
    return E;
  }

  Expr *mul(Expr *A, Expr *Bx) {
    if (!A || !Bx)
      return nullptr;
    return B.binop(BO_Mul, A, Bx);
  }

  static bool floatingOrPointer(QualType T) {
    T = T.getNonReferenceType();
    if (T->isPointerType() || T->isArrayType())
      return isFloating(T->getPointeeOrArrayElementType()->getCanonicalTypeUnqualified()) ||
             hasFloatingData(QualType(T->getPointeeOrArrayElementType(), 0));
    return isFloating(T) || hasFloatingData(T);
  }

  VT expr(const Expr *X, bool NeedT);
  /// Linear mode: the lanes of a shadow allocation (null V otherwise).
  VT linearShadowAlloc(const Expr *X);
  VT declRef(const DeclRefExpr *DRE);
  // The cases of expr (Tangents.cpp).
  VT arraySubscript(const ArraySubscriptExpr *AS);
  /// `s.f`, `p->f`: the tangent's member when the field carries one.
  VT memberAccess(const MemberExpr *ME);
  VT explicitCast(const ExplicitCastExpr *EC, bool NeedT);
  /// `throw e`: the value thrown, without a tangent.
  VT throwExpr(const CXXThrowExpr *TE);
  /// A construction: a copy is the object itself; an object with floating
  /// data a temporary with a tangent; anything else as written.
  VT constructExpr(const CXXConstructExpr *CE, bool NeedT);
  /// `new` and `delete` of scratch memory without floating data, replayed
  /// as written (freeing the tangent memory of heap memory that has one);
  /// null if \p X is not such.
  Expr *replayedScratch(const Expr *X);
  /// Braces of values without tangents, as written: true with \p Out when
  /// decided (built, or an error), false when Sema refuses the braces.
  bool bracesWithoutTangents(const InitListExpr *IL, VT &Out);
  VT unary(const UnaryOperator *UO, bool NeedT);
  VT binary(const BinaryOperator *BO, bool NeedT);
  VT assignment(const Expr *Whole, BinaryOperatorKind Op, const Expr *L,
                const Expr *R);
  /// An assignment being built: its parts, the type of the left side,
  /// whether its value is discarded, and the hoisted addresses of the left
  /// side's value and tangent (when it is not a pure access).
  struct Assign {
    const Expr *Whole;
    BinaryOperatorKind Op;
    const Expr *L, *R;
    QualType LT;
    bool Discarded;
    ValueDecl *AddrV = nullptr, *AddrT = nullptr;
  };
  /// An accumulation into a dropped adjoint: its tangent only.
  VT droppedAssignment(const Assign &A, const VarDecl *Root);
  /// `(t *= x) *= y`: the inner writes first, \p A.L moved to the inner
  /// left side; false after an error.
  bool innerAssignments(Assign &A, VT &RV, bool Tracked);
  /// Binds the addresses of the left side and of its tangent to
  /// temporaries; false after an error.
  bool hoistAssignedAddress(Assign &A);
  /// The left side (through its hoisted addresses, if any).
  VT assignedLValue(const Assign &A, bool NeedT);
  /// Linear mode: a write into adjoint memory, on its lanes only.
  VT linearAssignment(const Assign &A, const VT &LV, const VT &RV);
  /// The new tangent of the left side (\p Skip: unchanged); false after an
  /// error.
  bool assignedTangent(const Assign &A, VT &RV, Expr *Old, Expr *&NewT,
                       bool &Skip);
  /// A write of a tracked left side with a tangent: the tangent, then the
  /// value.
  VT trackedAssignment(const Assign &A, VT &LV, VT &RV);
  VT conditional(const ConditionalOperator *CO, bool NeedT);
  VT call(const CallExpr *CE, bool NeedT);
  VT functionCall(const CallExpr *CE, const FunctionDecl *FD, bool NeedT);
  VT operatorCall(const clang::CXXOperatorCallExpr *OC, bool NeedT);
  /// operatorCall's last case: an operator run as written.
  VT operatorAsWritten(const clang::CXXOperatorCallExpr *OC, bool NeedT);
  // The cases of call (TangentCalls.cpp).
  /// The runtime's helpers in a pullback pushed forward (verify_reread,
  /// zeroed, sin_cos, zero, accumulate, ...): true with \p Out if \p FD is
  /// one.
  bool runtimeHelper(const CallExpr *CE, const FunctionDecl *FD, bool NeedT,
                     VT &Out);
  /// `check_shape(*d_x, x, what)` in a pullback pushed forward: the same
  /// check on the adjoint's tangent.
  VT shapeCheckCall(const clang::CallExpr *CE, const clang::FunctionDecl *FD);
  /// The runtime's `zero(x)`, `accumulate(dst, src)` (linear: the same call
  /// on the tangents) and, in linear mode, `shadow_free(p)`.
  VT linearRuntimeCall(const CallExpr *CE, const FunctionDecl *FD);
  /// An accessor called on the values and on the tangent memory of \p Acc.
  VT accessorCall(const CallExpr *CE, const FunctionDecl *FD, const Expr *Acc,
                  bool NeedT);
  /// A [[grad::nodiff]] function: run as written, without tangents.
  VT nodiffCall(const CallExpr *CE, const FunctionDecl *FD);
  /// A function without body or derivative: as written when no derivative
  /// flows through it.
  VT opaqueCall(const CallExpr *CE, const FunctionDecl *FD, bool NeedT);
  /// A call of a local lambda: the call of the lambda lifted into a
  /// function of its parameters and captures (pushed forward like any
  /// helper); null after an error.
  const CallExpr *liftedCall(const CXXOperatorCallExpr *OC);
  llvm::DenseMap<const CallExpr *, const CallExpr *> LambdaCalls;
  /// Copies of numbers a local lambda captures by copy and the function
  /// assigns after it (Lift.h captureCopy), declared where the lambda is;
  /// the lifted calls read them.
  llvm::DenseMap<std::pair<const LambdaExpr *, const VarDecl *>, VarDecl *>
      CaptureCopies;
  VT ruleCall(const CallExpr *CE, const FunctionDecl *FD, const Rule &R,
              bool NeedT);
  VT pushforwardCall(const CallExpr *CE, const FunctionDecl *FD);
  /// `sin(x)` or `cos(x)`: value and partial from one runtime sin_cos.
  VT sinCosRule(const CallExpr *CE, const Rule &R, const VT &Arg);
  // The steps of pushforwardCall (TangentCalls.cpp).
  /// What a pointer or reference result points into: the argument (a
  /// scalar one, or memory), its value and its tangent location.
  struct PointedResult {
    bool Ref = false, Ptr = false;
    const Expr *Arg = nullptr;
    bool Scalar = false;
    Expr *V = nullptr, *T = nullptr;
  };
  /// Arguments pointing into dropped memory: the callee drops them too.
  WrtMask droppedArgs(const CallExpr *CE, const FunctionDecl *FD) const;
  /// The argument \p FD's pointer or reference result points into.
  PointedResult pointedResult(const CallExpr *CE, const FunctionDecl *FD);
  /// The argument \p P points into (\p X), with its value and tangent
  /// location in \p P; false after an error.
  bool pointedArg(const CallExpr *CE, const FunctionDecl *FD, PointedResult &P,
                  VT &X);
  /// Values and tangents of the arguments of a pushforward call.
  bool pushforwardArgs(const CallExpr *CE, const FunctionDecl *FD,
                       const WrtMask &Drop, PointedResult &P,
                       SmallVectorImpl<VT> &Args);
  /// The call as written on the values (a void one emitted unless its
  /// value is discarded).
  VT primalCall(const CallExpr *CE, const FunctionDecl *FD, ArrayRef<VT> Args);
  /// Linear mode: the linear pushforward called on the adjoints' lanes.
  VT linearPushforwardCall(const CallExpr *CE, const FunctionDecl *FD,
                           ArrayRef<VT> Args);
  /// Clears in \p Only the read-only parameters given no tangent; true if
  /// any was.
  bool narrowReadOnly(const FunctionDecl *FD, ArrayRef<VT> Args,
                      const WrtMask &Drop, WrtMask &Only);
  /// The tangent arguments of the callee's pushforward of signature
  /// \p Sig; false after an error.
  bool calleeTangentArgs(const CallExpr *CE, const FunctionDecl *FD,
                         const PullbackSignature &Sig, ArrayRef<VT> Args,
                         SmallVectorImpl<Expr *> &Ts);
  /// The value and tangent of the callee's pushforward \p Call.
  VT pushforwardResult(const CallExpr *CE, const FunctionDecl *FD,
                       const PushforwardEntry &Callee, Expr *Call,
                       const PointedResult &P);
  VT sinCosPair(const CallExpr *CE, const FunctionDecl *FD, bool NeedT);
  /// Vector mode: the user's scalar pushforward \p User of \p FD called
  /// once per lane (floating scalar tangents only).
  /// Vector mode: an accessor's result and its location in tangent memory.
  VT laneAccessor(const CallExpr *CE, const FunctionDecl *FD, const Expr *Acc,
                  SmallVectorImpl<VT> &Args, SmallVectorImpl<Expr *> &Vs,
                  SmallVectorImpl<Expr *> &Ts);
  VT perLaneCall(const CallExpr *CE, const FunctionDecl *FD,
                 FunctionDecl *User, const PullbackSignature &Sig,
                 SmallVectorImpl<VT> &Args);
  VT memberCall(const CXXMemberCallExpr *MC, bool NeedT);
  /// Linear mode: reports a member an adjoint container does not support;
  /// true if it did.
  bool refuseAdjointMember(const CXXMemberCallExpr *MC, const Expr *Obj,
                           bool Std);
  /// Element access, data() and pointer iterators: the same member of the
  /// tangent container.
  VT elementMemberCall(const CXXMemberCallExpr *MC, const Expr *Obj,
                       StringRef Name, bool Arrow);
  /// Other members: const ones whose result carries no derivative, as
  /// written.
  VT constMember(const CXXMemberCallExpr *MC, bool NeedT);
  /// The arguments' values of constMember; false after an error.
  bool constMemberArgs(const CXXMemberCallExpr *MC, bool Carries,
                       const std::string &Returning,
                       SmallVectorImpl<Expr *> &Vs);
  /// The member function \p MD as the user wrote it: the primal of a
  /// generated pullback or half (a pullback differentiated for a
  /// Hessian-vector product calls those); null if \p MD is written by the
  /// user.
  const FunctionDecl *primalOfGenerated(const FunctionDecl *MD);
  /// "member function 'f'" or "constructor 'T'": \p MD, or the member
  /// whose generated pullback \p MD is, as the user wrote it.
  std::string memberAsWritten(const FunctionDecl *MD);
  /// Reports \p MC, a member function forward mode does not differentiate.
  VT undifferentiatedMember(const CXXMemberCallExpr *MC, const Expr *At,
                            const std::string &What);
  /// The tangent container's iterator at the index of the iterator \p X
  /// (built from \p At) into the container \p O; null after an error.
  Expr *tangentPosition(VT &O, const Expr *Obj, VT &X, const Expr *At,
                        bool Arrow);
  // The cases of memberCall (TangentMembers.cpp).
  VT tapeMember(const CXXMemberCallExpr *MC, const Expr *Obj, StringRef Name,
                bool Arrow);
  VT resizingMember(const CXXMemberCallExpr *MC, const Expr *Obj,
                    StringRef Name, bool Arrow);
  VT eraseMember(const CXXMemberCallExpr *MC, const Expr *Obj, StringRef Name,
                 bool Arrow);
  /// v.assign(p, q), v.insert(pos, ...), v.swap(w) mirrored on the tangent
  /// containers (\p Range: the last two arguments are a pointer range).
  VT rangeMutation(const CXXMemberCallExpr *MC, bool Range);
  /// A mutation being built by rangeMutation: the call, its object, and
  /// the arguments of the value's and the tangent's calls.
  struct Mutation {
    const CXXMemberCallExpr *MC;
    const Expr *Obj;
    StringRef Name;
    bool Arrow;
    VT O;
    SmallVector<Expr *, 3> Vs, Ts;
  };
  /// Reports a mutation with arguments it does not model.
  VT badMutation(const Mutation &M);
  /// v.swap(w): the tangents swapped too.
  VT swapMutation(Mutation &M);
  /// insert(pos, ...): the position, as an index into the tangent too.
  bool insertPosition(Mutation &M);
  /// The pointer range (p, q) and the tangent range (zeros without one).
  bool rangeArgs(Mutation &M);
  /// Braces of values `{x, y}` and those of tangents.
  bool bracedArgs(Mutation &M, unsigned First, const InitListExpr *IL);
  /// Counts and values from \p First on, with their tangents.
  bool valueArgs(Mutation &M, unsigned First);
  VT construct(const Expr *Init, QualType T, bool NeedT);
  bool initPair(const Expr *Init, QualType T, Expr *&VOut, Expr *&TOut);
  // The steps of initPair (TangentInits.cpp).
  /// Braces of \p Elems (null if one is missing or Sema refuses them).
  Expr *initListOf(MutableArrayRef<Expr *> Elems);
  /// One element, member or argument \p A of type \p AT.
  bool initPart(const Expr *A, QualType AT, Expr *&V, Expr *&Tn);
  /// Braces: those of the values and those of the tangents.
  bool initListPair(const InitListExpr *IL, Expr *&VOut, Expr *&TOut);
  /// A constructor call: the same constructor on the tangents.
  bool constructorPair(const CXXConstructExpr *CE, QualType T, Expr *&VOut,
                       Expr *&TOut);
  /// A container built from the pointer range (\p PA, \p QA): its tangent
  /// from the tangent range.
  bool rangeConstructionPair(const CXXConstructExpr *CE, const Expr *PA,
                             const Expr *QA, Expr *&VOut, Expr *&TOut);
  /// A temporary object with floating data (`Wishart{g, m}`, `Pt{x, y}`):
  /// its value and a tangent object built the same way.
  VT objectTemporary(const Expr *Init, QualType T) {
    // (Linear mode: an object of the pullback's own, such as sin_cos's
    // pair on the tape, as written.)
    if (pullbackOwn(Init)) {
      QualType U = T.getNonReferenceType().getUnqualifiedType();
      const auto *CE = dyn_cast<CXXConstructExpr>(Init->IgnoreImplicit());
      if (CE && CE->getNumArgs() == 0) // (printed as `T{}`, not as nothing)
        return {B.construct(U, {}, /*List=*/true), nullptr};
      // `std::vector<double>(n)`: the same construction.
      if (CE && !llvm::any_of(CE->arguments(), [](const Expr *A) {
            return isa<CXXStdInitializerListExpr>(A->IgnoreImplicit());
          })) {
        SmallVector<Expr *, 4> Args;
        for (const Expr *A : CE->arguments()) {
          if (isa<CXXDefaultArgExpr>(A))
            break;
          VT X = expr(A, false);
          if (!X.V)
            return {};
          Args.push_back(X.V);
        }
        return {B.construct(U, Args, CE->isListInitialization()), nullptr};
      }
      if (Expr *V = replayed(Init))
        return {V, nullptr};
    }
    if (Lanes)
      return {fail(Init, "temporary of type '" +
                             T.getNonReferenceType().getAsString(
                                 Ctx.getPrintingPolicy()) +
                             "' in vector mode (objects and containers have "
                             "no lanes yet)"),
              nullptr};
    Expr *V = nullptr, *Tn = nullptr;
    if (!initPair(Init, T, V, Tn))
      return {};
    T = T.getNonReferenceType().getUnqualifiedType();
    if (isa<InitListExpr>(V))
      V = B.construct(T, {V}, /*List=*/true);
    if (Tn && isa<InitListExpr>(Tn))
      Tn = B.construct(T, {Tn}, /*List=*/true);
    return {V, Tn};
  }
  Expr *condition(const Expr *C);
  Expr *headerExpr(const Expr *X);

  void stmt(const Stmt *St);
  void returnStmt(const ReturnStmt *RS);
  void ifStmt(const IfStmt *IS);
  void forStmt(const ForStmt *FS);
  void whileStmt(const WhileStmt *WS);
  void doStmt(const DoStmt *DoS);
  void exprStmt(const Expr *X);
  void switchStmt(const SwitchStmt *SS);
  void switchScopeStmt(const Stmt *St);
  void labelOnly(const Stmt *St);
  void rangeFor(const CXXForRangeStmt *RS);
  /// The element variable of a range-based for being rebuilt: its value
  /// and tangent (instead of its initialiser, `*__begin`).
  llvm::DenseMap<const VarDecl *, VT> InitOverride;
  /// The switches being rebuilt (their `case` labels are added to the
  /// innermost).
  SmallVector<SwitchStmt *, 2> Switches;
  void declStmt(const DeclStmt *DS);
  // The steps of declStmt (TangentDecls.cpp).
  /// One local variable: its value and tangent declared.
  void localDecl(const DeclStmt *DS, const VarDecl *VD);
  /// The copies a local lambda takes of what the function assigns later.
  void declareCaptureCopies(const LambdaExpr *L, const VarDecl *VD);
  /// The initialiser of \p VD, or the one \p Given (range-for elements).
  VT localInit(const VarDecl *VD, const VT *Given, bool NeedT);
  /// A local without a tangent: its value only.
  void untrackedLocal(const VarDecl *VD, const VT *Given, bool Before);
  /// The value and tangent a tracked local starts with.
  void trackedInits(const VarDecl *VD, const VT *Given, Expr *&VInit,
                    Expr *&TInit);
  /// A reference: what it is bound to, and its tangent.
  void referenceInits(const VarDecl *VD, const VT *Given, const Expr *Bound,
                      Expr *&VInit, Expr *&TInit);
  /// Linear mode: the lanes of an adjoint container.
  Expr *linearContainerInit(const VarDecl *VD);
  /// Arrays, containers and objects: a tangent of the same shape.
  void objectInits(const VarDecl *VD, const VT *Given, Expr *&VInit,
                   Expr *&TInit);
  /// Declares the tangent and the value of \p VD.
  void declareLocal(const DeclStmt *DS, const VarDecl *VD,
                    const std::string &What, Expr *VInit, Expr *TInit);
  void block(const Stmt *St, SmallVectorImpl<Stmt *> &Out);
  void bindPushforward();
  bool bindHvp();
  void bindVectorPullback();

  Stmt *blockOf(const Stmt *St) {
    SmallVector<Stmt *, 16> Out;
    block(St, Out);
    return B.block(Out);
  }
};

} // namespace tangent
} // namespace grad

#endif
