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
            << What.str() << Primal->getNameAsString();
      else if (Linear)
        report(S.Diags, Diag::UnsupportedVectorPullback,
               Loc.isValid() ? Loc : RequestLoc)
            << What.str() << linearPrimalName();
      else
        report(S.Diags, Diag::UnsupportedForward, Loc)
            << What.str() << Def->getNameAsString();
      if (RequestLoc.isValid())
        report(S.Diags, Diag::GradSiteNote, RequestLoc)
            << Primal->getNameAsString();
    }
    return nullptr;
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

  std::string fresh(StringRef Base) {
    return ("_" + Base + std::to_string(Temps++)).str();
  }

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
  VT unary(const UnaryOperator *UO, bool NeedT);
  VT binary(const BinaryOperator *BO, bool NeedT);
  VT assignment(const Expr *Whole, BinaryOperatorKind Op, const Expr *L,
                const Expr *R);
  VT conditional(const ConditionalOperator *CO, bool NeedT);
  VT call(const CallExpr *CE, bool NeedT);
  VT operatorCall(const clang::CXXOperatorCallExpr *OC, bool NeedT);
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
  VT construct(const Expr *Init, QualType T, bool NeedT);
  bool initPair(const Expr *Init, QualType T, Expr *&VOut, Expr *&TOut);
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
