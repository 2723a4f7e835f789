//===- Tangents.cpp - The body of a pushforward ---------------------------===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Builds `f_pushforward` from `f`'s body in one sweep. Every expression is
/// rebuilt as a pair: its value (the primal expression, remapped to the
/// pushforward's variables) and its tangent (an expression of the same type;
/// for pointers, a pointer into tangent memory; null when it is zero).
/// Statements that write a differentiated lvalue first write its tangent
/// (computed from the values before the write), then the value. Values that
/// a tangent reads more than once are bound to temporaries where they are
/// evaluated (never in a loop condition or increment, where the rebuilt
/// expression must stay one expression).
///
//===----------------------------------------------------------------------===//

#include "Consumer.h"
#include "Diagnostics.h"
#include "Paths.h"
#include "Pushforward.h"
#include "Rules.h"
#include "SemaBuilder.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"
#include "clang/Sema/Sema.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace grad {
namespace {

/// A rebuilt expression: value and tangent (null: zero, or no tangent).
struct VT {
  Expr *V = nullptr;
  Expr *T = nullptr;
};

class TangentBuilder {
public:
  /// The pushforward of \p PE from \p Def.
  TangentBuilder(Differentiator &D, PushforwardEntry &PE,
                 const FunctionDecl *Def)
      : D(D), S(D.sema()), Ctx(S.Context), PE(&PE), Primal(PE.Primal),
        RequestLoc(PE.RequestLoc), Def(Def), Fn(PE.Pushforward),
        B(S, Def->getLocation()) {}
  /// The Hessian-vector product \p H from the pullback \p Pullback.
  TangentBuilder(Differentiator &D, HvpEntry &H, const FunctionDecl *Pullback)
      : D(D), S(D.sema()), Ctx(S.Context), H(&H), Primal(H.Primal),
        RequestLoc(H.AttrLoc), Def(Pullback), Fn(H.Hvp),
        B(S, H.Primal->getLocation()) {}

  bool build();

private:
  Differentiator &D;
  Sema &S;
  ASTContext &Ctx;
  PushforwardEntry *PE = nullptr;
  HvpEntry *H = nullptr;
  const FunctionDecl *Primal;
  SourceLocation RequestLoc;
  const FunctionDecl *Def;
  FunctionDecl *Fn;
  SemaBuilder B;

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
  unsigned Temps = 0;
  QualType RetT;

  std::nullptr_t fail(const Stmt *St, const Twine &What) {
    Errors = true;
    if (!StmtFailed) {
      StmtFailed = true;
      SourceLocation Loc = St ? St->getBeginLoc() : SourceLocation();
      if (H)
        report(S.Diags, Diag::UnsupportedHvp,
               Loc.isValid() ? Loc : RequestLoc)
            << What.str() << Primal->getNameAsString();
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

  std::string spelled(const Expr *X) const {
    return Lexer::getSourceText(
               CharSourceRange::getTokenRange(X->getSourceRange()),
               Ctx.getSourceManager(), Ctx.getLangOpts())
        .str();
  }

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

  Expr *zeroOf(QualType T) {
    T = T.getNonReferenceType().getUnqualifiedType();
    if (T->isRealFloatingType())
      return B.floatLit(0.0, T);
    if (T->isPointerType())
      return new (Ctx) CXXNullPtrLiteralExpr(Ctx.NullPtrTy, B.Loc);
    return B.construct(T, {}, /*List=*/true);
  }
  Expr *orZero(Expr *T, QualType Ty) { return T ? T : zeroOf(Ty); }

  Expr *add(Expr *A, Expr *Bx) {
    if (!A)
      return Bx;
    if (!Bx)
      return A;
    return B.binop(BO_Add, A, Bx);
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
  VT declRef(const DeclRefExpr *DRE);
  VT unary(const UnaryOperator *UO, bool NeedT);
  VT binary(const BinaryOperator *BO, bool NeedT);
  VT assignment(const Expr *Whole, BinaryOperatorKind Op, const Expr *L,
                const Expr *R);
  VT conditional(const ConditionalOperator *CO, bool NeedT);
  VT call(const CallExpr *CE, bool NeedT);
  VT ruleCall(const CallExpr *CE, const FunctionDecl *FD, const Rule &R,
              bool NeedT);
  VT pushforwardCall(const CallExpr *CE, const FunctionDecl *FD);
  VT memberCall(const CXXMemberCallExpr *MC, bool NeedT);
  VT construct(const Expr *Init, QualType T, bool NeedT);
  bool initPair(const Expr *Init, QualType T, Expr *&VOut, Expr *&TOut);
  /// A temporary object with floating data (`Wishart{g, m}`, `Pt{x, y}`):
  /// its value and a tangent object built the same way.
  VT objectTemporary(const Expr *Init, QualType T) {
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
  void declStmt(const DeclStmt *DS);
  void block(const Stmt *St, SmallVectorImpl<Stmt *> &Out);
  void bindPushforward();
  bool bindHvp();
  /// Does the body write \p VD (or bind a non-const reference to it)?
  bool writes(const VarDecl *VD) const;
  Stmt *blockOf(const Stmt *St) {
    SmallVector<Stmt *, 16> Out;
    block(St, Out);
    return B.block(Out);
  }
};

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

VT TangentBuilder::declRef(const DeclRefExpr *DRE) {
  const ValueDecl *VD0 = DRE->getDecl();
  if (const auto *VD = dyn_cast<VarDecl>(VD0)) {
    if (FailedVars.count(VD)) {
      Errors = true;
      StmtFailed = true;
      return {};
    }
    VT R;
    auto It = Vals.find(VD);
    if (Dropped.count(VD)) {
      if (!AllowDropped)
        return {fail(DRE, "read of the adjoint '" + VD->getNameAsString() +
                              "' (only accumulated into here)"),
                nullptr};
      // The value side is never emitted: the tangent stands in.
      R.V = B.ref(Tans.find(VD)->second);
    } else if (It != Vals.end())
      R.V = B.ref(It->second);
    else if (!VD->isLocalVarDeclOrParm() || VD->isStaticLocal())
      R.V = B.ref(const_cast<VarDecl *>(VD));
    else
      return {fail(DRE, "reference to '" + VD->getNameAsString() + "'"),
              nullptr};
    auto TI = Tans.find(VD);
    if (TI != Tans.end())
      R.T = TanByPointer.count(VD) ? B.deref(B.ref(TI->second))
                                   : B.ref(TI->second);
    return R;
  }
  if (isa<EnumConstantDecl>(VD0) || isa<FunctionDecl>(VD0))
    return {B.ref(const_cast<ValueDecl *>(VD0)), nullptr};
  return {fail(DRE, constructName(DRE)), nullptr};
}

VT TangentBuilder::unary(const UnaryOperator *UO, bool NeedT) {
  UnaryOperatorKind Op = UO->getOpcode();
  const Expr *Sub = UO->getSubExpr();
  switch (Op) {
  case UO_Plus:
  case UO_Minus: {
    VT X = expr(Sub, NeedT);
    return {B.unop(Op, X.V), X.T ? B.unop(Op, X.T) : nullptr};
  }
  case UO_Deref: {
    VT X = expr(Sub, NeedT);
    return {B.deref(X.V), X.T ? B.deref(X.T) : nullptr};
  }
  case UO_AddrOf: {
    VT X = expr(Sub, NeedT);
    return {B.addrOf(X.V), X.T ? B.addrOf(X.T) : nullptr};
  }
  case UO_PreInc:
  case UO_PreDec:
  case UO_PostInc:
  case UO_PostDec: {
    VT X = expr(Sub, true);
    if (!Sub->getType()->isPointerType() || !X.T)
      // Numbers: the tangent is unchanged (x++ has x's tangent).
      return {B.unop(Op, X.V), X.T};
    // A pointer with a tangent pointer: both move, the tangent first.
    const auto *Var = dyn_cast<DeclRefExpr>(Sub->IgnoreParenImpCasts());
    if (!Var)
      return {fail(UO, "increment of the pointer '" +
                           spelled(Sub) +
                           "' (only pointer variables are moved)"),
              nullptr};
    bool Inc = Op == UO_PreInc || Op == UO_PostInc;
    emit(B.unop(Inc ? UO_PreInc : UO_PreDec, X.T));
    VT T2 = declRef(Var);
    Expr *Tan = T2.T;
    if (UO->isPostfix())
      Tan = B.binop(Inc ? BO_Sub : BO_Add, Tan,
                    B.intLit(1, Ctx.getPointerDiffType()));
    return {B.unop(Op, X.V), Tan};
  }
  default: {
    VT X = expr(Sub, false);
    return {B.unop(Op, X.V), nullptr};
  }
  }
}

VT TangentBuilder::assignment(const Expr *Whole, BinaryOperatorKind Op,
                              const Expr *L, const Expr *R) {
  bool Discarded = Whole == Discard;
  QualType LT = L->getType();
  if (isa<ConditionalOperator>(L->IgnoreParens()) && floatingOrPointer(LT))
    return {fail(L, "assignment to a '?:' of differentiated memory"),
            nullptr};
  bool Tracked = floatingOrPointer(LT);
  bool IsThisRoot = false;
  const VarDecl *Root = pathRoot(L, IsThisRoot, /*Strict=*/true);
  if (Root && Dropped.count(Root)) {
    // d_x[i] += e in a pullback: only the tangent is kept.
    if (!Discarded || (Op != BO_AddAssign && Op != BO_SubAssign &&
                       Op != BO_Assign))
      return {fail(Whole, "use of the adjoint '" + Root->getNameAsString() +
                              "' other than accumulating into it"),
              nullptr};
    VT RV = expr(R, true);
    AllowDropped = true;
    VT LV = expr(L, true);
    AllowDropped = false;
    if (!RV.V || !LV.T)
      return {};
    if (RV.T || Op == BO_Assign)
      emit(B.binop(Op, LV.T, orZero(RV.T, LT)));
    return {};
  }
  VT RV = expr(R, Tracked);
  // `(t *= x) *= y`, `++t += y`: the inner write happens first (the right
  // side is sequenced before the left), then the outer one writes t.
  for (;;) {
    const Expr *LK = L->IgnoreParens();
    const Expr *Inner = nullptr;
    if (const auto *IB = dyn_cast<BinaryOperator>(LK);
        IB && IB->isAssignmentOp())
      Inner = IB->getLHS();
    else if (const auto *IU = dyn_cast<UnaryOperator>(LK);
             IU && IU->isPrefix() && IU->isIncrementDecrementOp())
      Inner = IU->getSubExpr();
    else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(LK);
             OC && OC->getOperator() == OO_Equal)
      Inner = OC->getArg(0);
    if (!Inner)
      break;
    if (Inner->HasSideEffects(Ctx))
      return {fail(L, "assignment to an assignment with side effects in its "
                      "left side"),
              nullptr};
    // The right side was evaluated first: its value and tangent are taken
    // now, before the inner write changes what they read.
    if (NoHoist)
      return {fail(L, "assignment to an assignment in a loop condition or "
                      "increment"),
              nullptr};
    if (!isa<FloatingLiteral, IntegerLiteral>(RV.V->IgnoreParenImpCasts()))
      RV.V = hoist(RV.V, R->getType(), R);
    if (RV.T)
      RV.T = hoist(RV.T, RV.T->getType(), nullptr);
    VT X = expr(LK, Tracked);
    if (isa<UnaryOperator>(LK) && X.V)
      emit(X.V);
    L = Inner;
  }
  VT LV = expr(L, Tracked);
  if (!LV.V || !RV.V)
    return {};
  if (!Tracked) {
    Expr *A = B.binop(Op, LV.V, RV.V);
    return {A, nullptr};
  }
  if (!LV.T) {
    if (!RV.T && Op != BO_MulAssign && Op != BO_DivAssign)
      return {B.binop(Op, LV.V, RV.V), nullptr};
    return {fail(L, "write of a differentiated value to '" +
                        spelled(L) +
                        "', which has no tangent (memory outside the "
                        "function's differentiated parameters)"),
            nullptr};
  }
  if (LV.T->getType().isConstQualified())
    return {fail(L, "write to '" +
                        spelled(L) +
                        "', whose tangent is read-only (a 'T[]' parameter "
                        "gets a 'const T *' tangent: declare it 'T *')"),
            nullptr};
  bool Pure = !L->HasSideEffects(Ctx);
  // The value of the left side before the write, when the tangent needs
  // it (x *= e, x /= e).
  Expr *Old = nullptr;
  if (Op == BO_MulAssign || Op == BO_DivAssign) {
    if (!Pure)
      return {fail(L, "compound assignment to an expression with side "
                      "effects"),
              nullptr};
    Old = expr(L, false).V;
  }
  Expr *TL = LV.T;
  Expr *NewT = nullptr;
  bool Skip = false;
  switch (Op) {
  case BO_Assign:
    NewT = orZero(RV.T, LT);
    break;
  case BO_AddAssign:
  case BO_SubAssign:
    if (!RV.T) {
      // p += k on a pointer moves its tangent pointer too.
      if (LT->isPointerType())
        NewT = dup(RV, R);
      else
        Skip = true;
    } else {
      NewT = RV.T;
    }
    break;
  case BO_MulAssign: {
    // t' = t' * r + l * r'
    Expr *Rv = dup(RV, R);
    NewT = add(mul(expr(L, true).T, Rv),
               RV.T ? mul(Old, RV.T) : nullptr);
    break;
  }
  case BO_DivAssign: {
    // t' = (t' - l / r * r') / r
    Expr *Rv = dup(RV, R);
    Expr *Num = expr(L, true).T;
    if (RV.T)
      Num = B.binop(BO_Sub, Num,
                    mul(B.binop(BO_Div, Old, dup(RV, R)), RV.T));
    NewT = B.binop(BO_Div, B.paren(Num), Rv);
    break;
  }
  default:
    return {fail(Whole, constructName(Whole)), nullptr};
  }
  if (!Skip) {
    BinaryOperatorKind TOp =
        Op == BO_AddAssign || Op == BO_SubAssign ? Op : BO_Assign;
    emit(B.binop(TOp, TL, NewT));
  }
  Expr *A = B.binop(Op, LV.V, RV.V);
  if (Discarded)
    return {A, nullptr};
  if (!Pure)
    return {fail(Whole, "assignment with side effects in its left side, "
                        "used as a value"),
            nullptr};
  emit(A);
  return expr(L, true);
}

VT TangentBuilder::binary(const BinaryOperator *BO, bool NeedT) {
  BinaryOperatorKind Op = BO->getOpcode();
  const Expr *L = BO->getLHS(), *R = BO->getRHS();
  if (BO->isAssignmentOp())
    return assignment(BO, Op, L, R);
  if (Op == BO_Comma) {
    const Expr *SavedDiscard = Discard;
    Discard = L->IgnoreParenImpCasts();
    VT X = expr(L, false);
    Discard = SavedDiscard;
    if (X.V)
      emit(X.V);
    return expr(R, NeedT);
  }
  if (Op == BO_LAnd || Op == BO_LOr) {
    VT X = expr(L, false);
    // The right side runs only sometimes: it must need no statements.
    SmallVector<Stmt *, 4> Side;
    auto *Saved = Cur;
    Cur = &Side;
    unsigned Before = Pending.size();
    VT Y = expr(R, false);
    Cur = Saved;
    if (!Side.empty() || Pending.size() != Before)
      return {fail(R, "a write or call of differentiated code on the right "
                      "of '" + BO->getOpcodeStr().str() + "'"),
              nullptr};
    return {B.binop(Op, X.V, Y.V), nullptr};
  }
  bool Active = NeedT && (isFloating(BO->getType()) ||
                          BO->getType()->isPointerType());
  VT X = expr(L, Active), Y = expr(R, Active);
  if (!X.V || !Y.V)
    return {};
  if (!Active || (!X.T && !Y.T))
    return {B.binop(Op, X.V, Y.V), nullptr};
  // Pointer arithmetic: the tangent pointer moves by the same offset.
  if (BO->getType()->isPointerType()) {
    if (L->getType()->isPointerType() || L->getType()->isArrayType())
      return {B.binop(Op, X.V, Y.V), B.binop(Op, X.T, dup(Y, R))};
    return {B.binop(Op, X.V, Y.V), B.binop(Op, dup(X, L), Y.T)};
  }
  switch (Op) {
  case BO_Add:
    return {B.binop(Op, X.V, Y.V), add(X.T, Y.T)};
  case BO_Sub:
    return {B.binop(Op, X.V, Y.V),
            X.T ? (Y.T ? B.binop(BO_Sub, X.T, Y.T) : X.T)
                : B.unop(UO_Minus, Y.T)};
  case BO_Mul: {
    Expr *T = add(X.T ? mul(X.T, dup(Y, R)) : nullptr,
                  Y.T ? mul(dup(X, L), Y.T) : nullptr);
    return {B.binop(Op, X.V, Y.V), T};
  }
  case BO_Div: {
    if (!Y.T)
      return {B.binop(Op, X.V, Y.V), B.binop(BO_Div, X.T, dup(Y, R))};
    // (x' * y - x * y') / (y * y)
    Expr *Yv = dup(Y, R);
    Expr *Num = add(X.T ? mul(X.T, Yv) : nullptr, nullptr);
    Expr *Sub = mul(dup(X, L), Y.T);
    Num = Num ? B.binop(BO_Sub, Num, Sub) : B.unop(UO_Minus, Sub);
    Expr *T = B.binop(BO_Div, B.paren(Num),
                      B.paren(B.binop(BO_Mul, dup(Y, R), dup(Y, R))));
    return {B.binop(Op, X.V, Y.V), T};
  }
  default:
    return {fail(BO, "operator '" + BO->getOpcodeStr().str() +
                         "' on differentiated values"),
            nullptr};
  }
}

VT TangentBuilder::conditional(const ConditionalOperator *CO, bool NeedT) {
  QualType T = CO->getType();
  bool Active = NeedT && floatingOrPointer(T);
  VT C = expr(CO->getCond(), false);
  if (!C.V)
    return {};
  SmallVector<Stmt *, 8> ThenS, ElseS;
  auto *Saved = Cur;
  unsigned Before = Pending.size();
  Cur = &ThenS;
  VT A = expr(CO->getTrueExpr(), Active);
  Cur = &ElseS;
  VT Bv = expr(CO->getFalseExpr(), Active);
  Cur = Saved;
  if (Pending.size() != Before)
    return {fail(CO, "'?:' with side effects in a loop condition"), nullptr};
  if (!A.V || !Bv.V)
    return {};
  if (ThenS.empty() && ElseS.empty()) {
    if (!Active || (!A.T && !Bv.T))
      return {B.cond(C.V, A.V, Bv.V), nullptr};
    // Value and tangent selected by the same condition, evaluated once.
    Expr *C2 = dup(C, CO->getCond());
    if (!C2)
      return {};
    QualType VTy = T.getNonReferenceType().getUnqualifiedType();
    return {B.cond(C.V, A.V, Bv.V),
            B.cond(C2, orZero(A.T, VTy), orZero(Bv.T, VTy))};
  }
  if (NoHoist)
    return {fail(CO, "'?:' in a loop condition or increment"), nullptr};
  // if (c) { ...; _v = a; _t = a'; } else { ...; _v = b; _t = b'; }
  QualType VTy = T.getNonReferenceType().getUnqualifiedType();
  VarDecl *Cond = B.var(Fn, fresh("c"), Ctx.BoolTy, B.condition(C.V));
  emit(B.declStmt(Cond));
  VarDecl *Val = B.var(Fn, fresh("v"), VTy, nullptr);
  emit(B.declStmt(Val));
  VarDecl *Tan = nullptr;
  if (Active) {
    Tan = B.var(Fn, fresh("t"), VTy, zeroOf(VTy));
    emit(B.declStmt(Tan));
  }
  ThenS.push_back(B.assign(B.ref(Val), A.V));
  ElseS.push_back(B.assign(B.ref(Val), Bv.V));
  if (Tan) {
    ThenS.push_back(B.assign(B.ref(Tan), orZero(A.T, VTy)));
    ElseS.push_back(B.assign(B.ref(Tan), orZero(Bv.T, VTy)));
  }
  emit(B.ifStmt(B.ref(Cond), B.block(ThenS), B.block(ElseS)));
  return {B.ref(Val), Tan ? B.ref(Tan) : nullptr};
}

VT TangentBuilder::ruleCall(const CallExpr *CE, const FunctionDecl *FD,
                            const Rule &R, bool NeedT) {
  unsigned N = std::min<unsigned>(CE->getNumArgs(), R.Arity);
  SmallVector<VT, 3> Args;
  bool Any = false;
  for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
    Args.push_back(expr(CE->getArg(I), NeedT));
    if (!Args.back().V)
      return {};
    Any |= I < N && Args.back().T;
  }
  auto Call = [&] {
    SmallVector<Expr *, 3> Vs;
    for (VT &A : Args)
      Vs.push_back(A.V);
    return B.call(B.funcRef(const_cast<FunctionDecl *>(FD)), Vs);
  };
  if (!NeedT || !Any)
    return {Call(), nullptr};
  // Arguments the partials read are bound first; so is the result when a
  // partial reads it.
  unsigned UsedArgs = 0;
  bool UsesY = false;
  for (unsigned I = 0; I < N; ++I)
    if (Args[I].T) {
      UsedArgs |= R.Uses[I] & 7;
      UsesY |= (R.Uses[I] & UsesResult) != 0;
    }
  SmallVector<Expr *, 3> Copies(N, nullptr);
  for (unsigned I = 0; I < N; ++I)
    if ((UsedArgs >> I) & 1) {
      Copies[I] = dup(Args[I], CE->getArg(I));
    }
  Expr *V = Call();
  Expr *Y = nullptr;
  if (UsesY) {
    V = hoist(V, CE->getType(), CE);
    Y = V;
  }
  QualType T = CE->getType().getNonReferenceType().getUnqualifiedType();
  Expr *Tan = nullptr;
  for (unsigned I = 0; I < N; ++I) {
    if (!Args[I].T)
      continue;
    SmallVector<Expr *, 3> Vs;
    for (unsigned J = 0; J < N; ++J) {
      Expr *C = nullptr;
      if ((R.Uses[I] >> J) & 1) {
        C = Copies[J] ? Copies[J] : dup(Args[J], CE->getArg(J));
        Copies[J] = nullptr; // each copy is used once: make another
        if (!C)
          return {};
      }
      Vs.push_back(C);
    }
    Expr *YC = nullptr;
    if (R.Uses[I] & UsesResult) {
      VT YV{Y, nullptr};
      YC = dup(YV, CE);
    }
    Expr *P = buildPartial(B, R, I, Vs, YC, T);
    Tan = add(Tan, mul(B.paren(P), Args[I].T));
  }
  return {V, Tan};
}

VT TangentBuilder::pushforwardCall(const CallExpr *CE, const FunctionDecl *FD) {
  std::string Why;
  unsigned NP = FD->getNumParams();
  // Arguments pointing into dropped memory: the callee drops them too.
  WrtMask Drop(NP, false);
  for (unsigned I = 0; I < NP && I < CE->getNumArgs(); ++I) {
    bool IsThisRoot = false;
    const VarDecl *Root = pathRoot(CE->getArg(I), IsThisRoot);
    Drop[I] = Root && Dropped.count(Root) &&
              CE->getArg(I)->getType()->isPointerType();
  }
  SmallVector<VT, 8> Args;
  for (unsigned I = 0; I < NP; ++I) {
    const Expr *A = I < CE->getNumArgs() ? CE->getArg(I) : nullptr;
    if (!A)
      return {fail(CE, "call with too few arguments"), nullptr};
    bool Diff =
        classifyParam(Ctx, FD->getParamDecl(I)->getType()).Kind !=
        ParamKind::None;
    AllowDropped = Drop[I];
    Args.push_back(expr(A, Diff || Drop[I]));
    AllowDropped = false;
    if (!Args.back().V)
      return {};
    if (Drop[I]) // never read: null
      Args.back().V = B.staticCast(
          A->getType(), new (Ctx) CXXNullPtrLiteralExpr(Ctx.NullPtrTy, B.Loc));
  }
  // Read-only memory without a tangent (data, constant tables) needs none:
  // the callee's pushforward for the other parameters.
  WrtMask Only = fullMask(FD);
  Only.resize(NP);
  bool Narrow = false;
  for (unsigned I = 0; I < NP; ++I) {
    if (!Only[I] || Args[I].T || Drop[I])
      continue;
    QualType PT = FD->getParamDecl(I)->getType();
    ParamKind K = classifyParam(Ctx, PT).Kind;
    bool ReadOnly =
        (K == ParamKind::Pointer && PT->isPointerType() &&
         PT->getPointeeType().isConstQualified()) ||
        (K == ParamKind::Class &&
         (!PT->isReferenceType() ||
          PT.getNonReferenceType().isConstQualified()));
    if (ReadOnly) {
      Only[I] = false;
      Narrow = true;
    }
  }
  PushforwardEntry *Callee = D.calleePushforward(
      FD, CE->getExprLoc(), Primal, Why,
      llvm::is_contained(Drop, true) ? &Drop : nullptr,
      Narrow ? &Only : nullptr);
  if (!Callee)
    return {fail(CE, "call to '" + FD->getNameAsString() + "' (" + Why + ")"),
            nullptr};
  const PullbackSignature &Sig = Callee->Sig;
  SmallVector<Expr *, 8> Vs, Ts;
  for (unsigned I = 0; I < NP; ++I) {
    Vs.push_back(Args[I].V);
    int TI = Sig.AdjointIndex[I];
    if (TI < 0)
      continue;
    QualType PT = Sig.ParamTypes[TI];
    Expr *T = Args[I].T;
    const ParmVarDecl *P = FD->getParamDecl(I);
    ParamKind K = classifyParam(Ctx, P->getType()).Kind;
    if (K == ParamKind::Scalar) {
      Ts.push_back(orZero(T, PT));
      continue;
    }
    if (!T) {
      // Read-only objects without a tangent: a zero object stands in.
      if (K == ParamKind::Class && PT->isReferenceType() &&
          !isa<ClassTemplateSpecializationDecl>(
              PT.getNonReferenceType()->getAsCXXRecordDecl())) {
        Ts.push_back(zeroOf(PT.getNonReferenceType()));
        continue;
      }
      return {fail(CE->getArg(I),
                   "argument '" +
                       spelled(CE->getArg(I)) +
                       "' of '" + FD->getNameAsString() +
                       "', which has no tangent"),
              nullptr};
    }
    if (K == ParamKind::ScalarRef ||
        (K == ParamKind::Class && PT->isPointerType()))
      T = B.addrOf(T);
    Ts.push_back(T);
  }
  for (Expr *T : Ts)
    Vs.push_back(T);
  Expr *Call = B.call(B.funcRef(Callee->Pushforward), Vs);
  if (FD->getReturnType()->isVoidType()) {
    if (CE == Discard)
      return {Call, nullptr};
    emit(Call);
    return {};
  }
  if (NoHoist)
    return {fail(CE, "call to '" + FD->getNameAsString() +
                         "' in a loop condition or increment"),
            nullptr};
  VarDecl *Res = B.var(Fn, fresh("r"), Callee->Pushforward->getReturnType(),
                       Call);
  emit(B.declStmt(Res));
  Expr *Der = B.subscript(B.member(B.ref(Res), "der"),
                          B.intLit(0, Ctx.getSizeType()));
  return {B.member(B.ref(Res), "val"), Der};
}

VT TangentBuilder::call(const CallExpr *CE, bool NeedT) {
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
    return memberCall(MC, NeedT);
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE)) {
    OverloadedOperatorKind OK = OC->getOperator();
    if (OK == OO_Subscript && OC->getNumArgs() == 2) {
      VT Base = expr(OC->getArg(0), true);
      VT Idx = expr(OC->getArg(1), false);
      Expr *I2 = Base.T ? dup(Idx, OC->getArg(1)) : nullptr;
      return {B.subscript(Base.V, Idx.V),
              Base.T ? B.subscript(Base.T, I2) : nullptr};
    }
    if (OK == OO_Equal && OC->getNumArgs() == 2)
      return assignment(CE, BO_Assign, OC->getArg(0), OC->getArg(1));
    // Anything else (stream output, comparisons of library types): run as
    // written when no object with floating data takes part (a `v += w` on
    // a struct would change values without their tangents).
    for (const Expr *A : OC->arguments())
      if (hasFloatingData(A->getType().getNonReferenceType()))
        return {fail(CE, std::string("operator '") +
                             getOperatorSpelling(OK) + "' on '" +
                             A->getType()
                                 .getNonReferenceType()
                                 .getUnqualifiedType()
                                 .getAsString(Ctx.getPrintingPolicy()) +
                             "'"),
                nullptr};
    SmallVector<VT, 2> Args;
    for (const Expr *A : OC->arguments()) {
      Args.push_back(expr(A, false));
      if (!Args.back().V)
        return {};
    }
    if (floatingOrPointer(CE->getType()) && NeedT &&
        (isFloating(CE->getType()) || hasFloatingData(CE->getType())))
      return {fail(CE, constructName(CE)), nullptr};
    if (OC->getNumArgs() == 2) {
      BinaryOperatorKind BK = BinaryOperator::getOverloadedOpcode(OK);
      return {B.binop(BK, Args[0].V, Args[1].V), nullptr};
    }
    if (OC->getNumArgs() == 1) {
      UnaryOperatorKind UK = UnaryOperator::getOverloadedOpcode(OK, false);
      return {B.unop(UK, Args[0].V), nullptr};
    }
    return {fail(CE, constructName(CE)), nullptr};
  }
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return {fail(CE, "call through a function pointer"), nullptr};
  if (const Expr *A = movedArg(CE))
    return expr(A, NeedT);
  // An accessor (`double *at(double *a, int i) { return a + i; }`): called
  // on the tangent memory, it gives the tangent location.
  if (const Expr *Acc = accessorArg(CE)) {
    SmallVector<VT, 4> Args;
    for (const Expr *A : CE->arguments()) {
      if (isa<CXXDefaultArgExpr>(A))
        break;
      Args.push_back(expr(A, A == Acc));
      if (!Args.back().V)
        return {};
    }
    SmallVector<Expr *, 4> Vs, Ts;
    bool HasT = false;
    for (unsigned I = 0; I < Args.size(); ++I) {
      const Expr *A = CE->getArg(I);
      if (A == Acc) {
        HasT = Args[I].T != nullptr;
        Ts.push_back(Args[I].T);
      } else {
        Ts.push_back(dup(Args[I], A));
      }
      Vs.push_back(Args[I].V);
    }
    Expr *Fn2 = B.funcRef(const_cast<FunctionDecl *>(FD));
    Expr *V = B.call(Fn2, Vs);
    return {V, HasT ? B.call(B.funcRef(const_cast<FunctionDecl *>(FD)), Ts)
                    : nullptr};
  }
  if (const Rule *R = findRule(FD))
    return ruleCall(CE, FD, *R, NeedT);
  bool HasBody = FD->isDefined() || FD->hasBody();
  // Does anything differentiated flow into or out of the call?
  bool Writes = writesThroughParams(FD);
  bool FloatResult = floatingOrPointer(FD->getReturnType());
  if (!pushforwardUnsupported(FD) && !FD->isVariadic() &&
      (Writes || (NeedT && FloatResult)) &&
      (HasBody || !FD->isInStdNamespace())) {
    if (!Writes && !NeedT)
      ;
    else
      return pushforwardCall(CE, FD);
  }
  if (Writes)
    return {fail(CE, "call to '" + FD->getNameAsString() +
                         "', which writes differentiated memory and has no "
                         "visible body or user pushforward"),
            nullptr};
  SmallVector<Expr *, 4> Vs;
  bool AnyT = false;
  for (const Expr *A : CE->arguments()) {
    if (isa<CXXDefaultArgExpr>(A))
      break;
    VT X = expr(A, NeedT && FloatResult);
    if (!X.V)
      return {};
    AnyT |= X.T != nullptr;
    Vs.push_back(X.V);
  }
  if (NeedT && FloatResult && AnyT &&
      (isFloating(FD->getReturnType()) ||
       FD->getReturnType()->isPointerType()))
    return {fail(CE, "call to '" + FD->getNameAsString() +
                         "' (no visible body, no derivative rule and no "
                         "user pushforward)"),
            nullptr};
  return {B.call(B.funcRef(const_cast<FunctionDecl *>(FD)), Vs), nullptr};
}

/// The methods of standard containers that change their size: mirrored on
/// the tangent container with tangent arguments.
static bool isResizing(StringRef N) {
  return N == "push_back" || N == "emplace_back" || N == "resize" ||
         N == "assign" || N == "clear" || N == "pop_back" || N == "reserve";
}

VT TangentBuilder::memberCall(const CXXMemberCallExpr *MC, bool NeedT) {
  const CXXMethodDecl *MD = MC->getMethodDecl();
  const auto *ME = dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens());
  if (!MD || !ME || !MD->getIdentifier())
    return {fail(MC, constructName(MC)), nullptr};
  StringRef Name = MD->getName();
  const Expr *Obj = ME->getBase();
  bool Std = MD->getParent()->isInStdNamespace();
  bool Arrow = ME->isArrow();
  // A pullback's tape (grad::detail::stack): a floating value is saved
  // with its tangent after it, and popped back in the opposite order.
  if (MD->getParent()->getQualifiedNameAsString() == "grad::detail::stack" &&
      (Name == "push" || Name == "pop" || Name == "push_all" ||
       Name == "pop_all")) {
    bool Pop = Name.starts_with("pop");
    VT O = expr(Obj, false);
    SmallVector<Expr *, 8> Args;
    for (const Expr *A : MC->arguments()) {
      bool F = isFloating(A->getType());
      VT X = expr(A, F);
      if (!X.V || !O.V)
        return {};
      Args.push_back(X.V);
      if (!F)
        continue;
      if (Pop && !X.T)
        return {fail(A, "value restored into memory without a tangent"),
                nullptr};
      Args.push_back(orZero(X.T, A->getType()));
    }
    return {B.memberCall(O.V, Pop ? "pop_all" : "push_all", Args, Arrow),
            nullptr};
  }
  if (Std && (elementMember(MC) || Name == "data")) {
    VT O = expr(Obj, true);
    SmallVector<Expr *, 1> Vs, Ts;
    for (const Expr *A : MC->arguments()) {
      VT X = expr(A, false);
      Vs.push_back(X.V);
      if (O.T)
        Ts.push_back(dup(X, A));
    }
    return {B.memberCall(O.V, Name, Vs, Arrow),
            O.T ? B.memberCall(O.T, Name, Ts, Arrow) : nullptr};
  }
  if (Std && isResizing(Name)) {
    VT O = expr(Obj, true);
    SmallVector<Expr *, 2> Vs, Ts;
    for (const Expr *A : MC->arguments()) {
      if (isa<CXXDefaultArgExpr>(A))
        break;
      bool F = isFloating(A->getType()) || hasFloatingData(A->getType());
      VT X = expr(A, F);
      if (!X.V)
        return {};
      Ts.push_back(F ? orZero(X.T, A->getType()) : dup(X, A));
      Vs.push_back(X.V);
    }
    if (O.T)
      emit(B.memberCall(O.T, Name, Ts, Arrow));
    else if (MC->getNumArgs() && NeedT)
      ;
    return {B.memberCall(O.V, Name, Vs, Arrow), nullptr};
  }
  // Other member functions: only const ones whose result carries no
  // derivative (v.size(), s.empty()) run as written.
  if (!MD->isConst() && !MD->isStatic() &&
      (floatingOrPointer(Obj->getType()) ||
       (Obj->getType()->isPointerType() &&
        floatingOrPointer(Obj->getType()->getPointeeType()))))
    return {fail(MC, "call to member function '" + Name.str() +
                         "' of a differentiated object"),
            nullptr};
  if (NeedT && floatingOrPointer(MC->getType()) &&
      (isFloating(MC->getType()) || MC->getType()->isPointerType()))
    return {fail(MC, "call to member function '" + Name.str() + "'"),
            nullptr};
  VT O = expr(Obj, false);
  SmallVector<Expr *, 2> Vs;
  for (const Expr *A : MC->arguments()) {
    if (isa<CXXDefaultArgExpr>(A))
      break;
    VT X = expr(A, false);
    if (!X.V)
      return {};
    Vs.push_back(X.V);
  }
  return {B.memberCall(O.V, Name, Vs, Arrow), nullptr};
}

/// The initialiser \p Init of an array, container or object of type \p T,
/// rebuilt in one pass as value (\p VOut) and tangent (\p TOut, null for
/// zero): the tangents of its elements, members or constructor arguments;
/// sizes and other integers are shared.
bool TangentBuilder::initPair(const Expr *Init, QualType T, Expr *&VOut,
                              Expr *&TOut) {
  VOut = TOut = nullptr;
  const Expr *K = Init->IgnoreImplicit()->IgnoreParens();
  auto List = [&](MutableArrayRef<Expr *> Elems) -> Expr * {
    ExprResult R = S.ActOnInitList(B.Loc, Elems, B.Loc);
    return R.isInvalid() ? nullptr : R.get();
  };
  // One element, member or argument \p A of type \p AT.
  auto Part = [&](const Expr *A, QualType AT, Expr *&V, Expr *&Tn) {
    if (isFloating(AT) || AT->isArrayType() || hasFloatingData(AT) ||
        isa<CXXStdInitializerListExpr>(A->IgnoreImplicit())) {
      if (!initPair(A, AT, V, Tn))
        return false;
      if (!Tn)
        Tn = zeroOf(AT);
      return V && Tn;
    }
    if (AT->isPointerType() && floatingOrPointer(AT)) {
      fail(A, "construction from a pointer range");
      return false;
    }
    VT X = expr(A, false);
    V = X.V;
    Tn = V ? dup(X, A) : nullptr;
    V = X.V; // (dup may have bound it to a temporary)
    return V && Tn;
  };
  if (const auto *IL = dyn_cast<InitListExpr>(K)) {
    if (IL->isSyntacticForm() && IL->getSemanticForm())
      IL = IL->getSemanticForm();
    SmallVector<Expr *, 8> Vs, Ts;
    for (const Expr *Ei : IL->inits()) {
      if (isa<ImplicitValueInitExpr>(Ei))
        break;
      Expr *V, *Tn;
      if (!Part(Ei, Ei->getType(), V, Tn))
        return false;
      Vs.push_back(V);
      Ts.push_back(Tn);
    }
    VOut = List(Vs);
    TOut = List(Ts);
    return VOut && TOut;
  }
  if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(K))
    return initPair(SIL->getSubExpr(), SIL->getSubExpr()->getType(), VOut,
                    TOut);
  if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(K))
    return initPair(MT->getSubExpr(), T, VOut, TOut);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(K);
      CE && CE->getConstructor()->isCopyOrMoveConstructor() &&
      CE->getNumArgs() >= 1)
    return initPair(CE->getArg(0), T, VOut, TOut);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(K)) {
    const CXXConstructorDecl *Ctor = CE->getConstructor();
    bool Std = Ctor->getParent()->isInStdNamespace();
    if (!Std && !Ctor->isTrivial() && CE->getNumArgs()) {
      fail(CE, "constructor call of '" +
                   T.getAsString(Ctx.getPrintingPolicy()) + "'");
      return false;
    }
    SmallVector<Expr *, 4> Vs, Ts;
    for (const Expr *A : CE->arguments()) {
      if (isa<CXXDefaultArgExpr>(A))
        break;
      Expr *V, *Tn;
      if (!Part(A, A->getType(), V, Tn))
        return false;
      Vs.push_back(V);
      Ts.push_back(Tn);
    }
    QualType CT = CE->getType();
    VOut = B.construct(CT, Vs, CE->isListInitialization());
    TOut = B.construct(CT, Ts, CE->isListInitialization());
    return VOut && TOut;
  }
  VT X = expr(Init, true);
  VOut = X.V;
  TOut = X.T;
  return VOut != nullptr;
}

Expr *TangentBuilder::headerExpr(const Expr *X) {
  if (!X)
    return nullptr;
  ++NoHoist;
  SmallVector<Expr *, 4> Saved;
  Saved.swap(Pending);
  const Expr *SavedDiscard = Discard;
  Discard = X->IgnoreParenImpCasts();
  VT R = expr(X, false);
  Discard = SavedDiscard;
  --NoHoist;
  Expr *Out = R.V;
  for (auto It = Pending.rbegin(); It != Pending.rend(); ++It)
    Out = Out ? B.binop(BO_Comma, *It, Out) : *It;
  Pending.swap(Saved);
  return Out;
}

Expr *TangentBuilder::condition(const Expr *C) {
  ++NoHoist;
  SmallVector<Expr *, 4> Saved;
  Saved.swap(Pending);
  VT R = expr(C, false);
  --NoHoist;
  Expr *Out = R.V ? B.condition(R.V) : nullptr;
  for (auto It = Pending.rbegin(); It != Pending.rend(); ++It)
    Out = Out ? B.binop(BO_Comma, *It, Out) : nullptr;
  Pending.swap(Saved);
  return Out;
}

VT TangentBuilder::expr(const Expr *X, bool NeedT) {
  if (!X)
    return {};
  const Expr *Orig = X;
  X = X->IgnoreImplicit()->IgnoreParens();
  if (Orig->IgnoreParenImpCasts() == Discard)
    Discard = X;
  if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(X))
    return expr(DA->getExpr(), NeedT);
  if (const auto *NT = dyn_cast<SubstNonTypeTemplateParmExpr>(X))
    return expr(NT->getReplacement(), NeedT);
  if (const auto *FE = dyn_cast<FullExpr>(X))
    return expr(FE->getSubExpr(), NeedT);
  if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(X))
    return expr(MT->getSubExpr(), NeedT);
  B.Loc = X->getExprLoc();
  if (const auto *FL = dyn_cast<FloatingLiteral>(X))
    return {FloatingLiteral::Create(Ctx, FL->getValue(), FL->isExact(),
                                    FL->getType(), B.Loc),
            nullptr};
  if (const auto *IL = dyn_cast<IntegerLiteral>(X))
    return {IntegerLiteral::Create(Ctx, IL->getValue(), IL->getType(), B.Loc),
            nullptr};
  if (isa<StringLiteral, CharacterLiteral, CXXBoolLiteralExpr,
          CXXNullPtrLiteralExpr, PredefinedExpr, UnaryExprOrTypeTraitExpr,
          GNUNullExpr>(X))
    // Leaves without variables: shared with the primal.
    return {const_cast<Expr *>(X), nullptr};
  if (const auto *DRE = dyn_cast<DeclRefExpr>(X))
    return declRef(DRE);
  if (const auto *UO = dyn_cast<UnaryOperator>(X))
    return unary(UO, NeedT);
  if (const auto *BO = dyn_cast<BinaryOperator>(X))
    return binary(BO, NeedT);
  if (const auto *CO = dyn_cast<ConditionalOperator>(X))
    return conditional(CO, NeedT);
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(X)) {
    VT Base = expr(AS->getBase(), true);
    VT Idx = expr(AS->getIdx(), false);
    if (!Base.V || !Idx.V)
      return {};
    Expr *I2 = Base.T ? dup(Idx, AS->getIdx()) : nullptr;
    return {B.subscript(Base.V, Idx.V),
            Base.T ? B.subscript(Base.T, I2) : nullptr};
  }
  if (const auto *ME = dyn_cast<MemberExpr>(X)) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD || !FD->getIdentifier())
      return {fail(ME, "member access"), nullptr};
    VT Base = expr(ME->getBase(), true);
    if (!Base.V)
      return {};
    return {B.member(Base.V, FD->getName(), ME->isArrow()),
            Base.T ? B.member(Base.T, FD->getName(), ME->isArrow())
                   : nullptr};
  }
  if (const auto *CE = dyn_cast<CallExpr>(X))
    return call(CE, NeedT);
  if (const auto *EC = dyn_cast<ExplicitCastExpr>(X)) {
    QualType T = EC->getTypeAsWritten();
    const Expr *Sub = EC->getSubExpr();
    if (isa<CXXFunctionalCastExpr>(EC) &&
        isa<InitListExpr, CXXConstructExpr>(Sub->IgnoreImplicit())) {
      if (hasFloatingData(EC->getType()))
        return objectTemporary(Sub, EC->getType());
      VT X2 = expr(Sub, false);
      return {X2.V, nullptr};
    }
    bool FloatCast = isFloating(T) && isFloating(Sub->getType());
    VT X2 = expr(Sub, NeedT && FloatCast);
    if (!X2.V)
      return {};
    if (T->isVoidType())
      return {B.staticCast(T, X2.V), nullptr};
    if (T->isPointerType() && X2.T)
      return {fail(EC, "cast of a pointer to differentiated memory"),
              nullptr};
    return {B.staticCast(T, X2.V),
            FloatCast && X2.T ? B.staticCast(T, X2.T) : nullptr};
  }
  if (const auto *TE = dyn_cast<CXXThrowExpr>(X)) {
    VT Sub = expr(TE->getSubExpr(), false);
    ExprResult R = S.BuildCXXThrow(B.Loc, Sub.V, false);
    return {R.isInvalid() ? nullptr : R.get(), nullptr};
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(X)) {
    // A copy (an argument passed by value): the object itself.
    if (CE->getConstructor()->isCopyOrMoveConstructor() &&
        CE->getNumArgs() >= 1)
      return expr(CE->getArg(0), NeedT);
    if (hasFloatingData(CE->getType()))
      return objectTemporary(CE, CE->getType());
    SmallVector<Expr *, 4> Args;
    for (const Expr *A : CE->arguments()) {
      if (isa<CXXDefaultArgExpr>(A))
        break;
      VT Ai = expr(A, false);
      if (!Ai.V)
        return {};
      Args.push_back(Ai.V);
    }
    if (CE->getNumArgs() == 1 && Args.size() == 1 &&
        !isa<CXXTemporaryObjectExpr>(CE) &&
        !CE->getConstructor()->isExplicit())
      return {Args[0], nullptr}; // a converting construction
    return {B.construct(CE->getType(), Args, CE->isListInitialization()),
            nullptr};
  }
  if (isa<CXXScalarValueInitExpr>(X) || isa<ImplicitValueInitExpr>(X))
    return {zeroOf(X->getType()), nullptr};
  if (isa<InitListExpr>(X) && hasFloatingData(X->getType()))
    return objectTemporary(X, X->getType());
  return {fail(X, constructName(X)), nullptr};
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

void TangentBuilder::declStmt(const DeclStmt *DS) {
  for (const Decl *Dl : DS->decls()) {
    const auto *VD = dyn_cast<VarDecl>(Dl);
    if (!VD) {
      if (isa<TypedefNameDecl>(Dl) || isa<UsingDecl>(Dl) ||
          isa<StaticAssertDecl>(Dl))
        continue;
      fail(DS, "local declaration");
      continue;
    }
    if (isa<DecompositionDecl>(VD)) {
      fail(DS, "structured binding");
      FailedVars.insert(VD);
      continue;
    }
    B.Loc = VD->getLocation();
    QualType T = VD->getType();
    bool Tracked = floatingOrPointer(T);
    if (VD->isStaticLocal() || VD->getTLSKind()) {
      if (Tracked && !T.isConstQualified() &&
          !(T->isArrayType() &&
            T->getAsArrayTypeUnsafe()->getElementType().isConstQualified())) {
        fail(DS, "'static' local '" + VD->getNameAsString() + "'");
        FailedVars.insert(VD);
        continue;
      }
      // A constant table: the original variable.
      continue;
    }
    const Expr *Init = VD->getInit();
    bool Before = Errors;
    StmtFailed = false;
    Errors = false;
    if (!Tracked) {
      VT X = Init ? expr(Init, false) : VT{};
      VarDecl *NV = B.var(Fn, VD->getName(), T, X.V);
      if (Errors || (Init && !X.V)) {
        FailedVars.insert(VD);
      } else {
        Vals[VD] = NV;
        emit(B.declStmt(NV));
      }
      Errors |= Before;
      continue;
    }
    std::string TName = "_t_" + VD->getNameAsString();
    Expr *TInit = nullptr;
    Expr *VInit = nullptr;
    bool IsRef = T->isReferenceType();
    QualType NR = T.getNonReferenceType();
    if (IsRef) {
      VT X = expr(Init, true);
      VInit = X.V;
      TInit = X.T;
      if (!TInit && !NR.isConstQualified() && VInit)
        fail(Init, "reference '" + VD->getNameAsString() +
                       "' to memory without a tangent");
    } else if (NR->isPointerType()) {
      VT X = Init ? expr(Init, true) : VT{};
      VInit = X.V;
      TInit = X.T;
      if (!TInit && Init && !isa<CXXNullPtrLiteralExpr>(
                                Init->IgnoreParenImpCasts()) &&
          !Init->isNullPointerConstant(Ctx, Expr::NPC_ValueDependentIsNull))
        ; // points to memory without tangents: no tangent pointer
      else if (!TInit)
        TInit = zeroOf(NR);
    } else if (isFloating(NR)) {
      VT X = Init ? expr(Init, true) : VT{};
      VInit = X.V;
      TInit = orZero(X.T, NR);
    } else {
      // Arrays, containers and objects: a tangent of the same shape.
      if (Init)
        initPair(Init, NR, VInit, TInit);
      if (!TInit && !Errors) {
        if (NR->isArrayType() || !isa<ClassTemplateSpecializationDecl>(
                                     NR->getAsCXXRecordDecl()) ||
            !Init)
          TInit = B.emptyInitList();
        else
          fail(Init, "initialiser of '" + VD->getNameAsString() +
                         "' without a tangent");
      }
    }
    if (Errors) {
      FailedVars.insert(VD);
      Errors = true;
      continue;
    }
    Errors = Before;
    if (TInit) {
      QualType TT = IsRef ? Ctx.getLValueReferenceType(
                                NR.isConstQualified() ? NR : NR)
                          : NR.getUnqualifiedType();
      if (IsRef && !TInit->isLValue()) {
        TT = NR.getUnqualifiedType();
      }
      VarDecl *TV = B.var(Fn, TName, TT, TInit);
      if (TV->isInvalidDecl()) {
        fail(DS, "declaration of '" + VD->getNameAsString() + "'");
        FailedVars.insert(VD);
        continue;
      }
      Tans[VD] = TV;
      emit(B.declStmt(TV));
    }
    VarDecl *NV;
    if (!VInit && Init) {
      FailedVars.insert(VD);
      continue;
    }
    NV = B.var(Fn, VD->getName(), T, VInit,
               VD->getInitStyle() == VarDecl::CallInit &&
                   !isa<ParenListExpr>(VInit ? VInit : Init));
    Vals[VD] = NV;
    emit(B.declStmt(NV));
  }
}

void TangentBuilder::block(const Stmt *St, SmallVectorImpl<Stmt *> &Out) {
  auto *Saved = Cur;
  Cur = &Out;
  if (const auto *CS = dyn_cast<CompoundStmt>(St))
    for (const Stmt *C : CS->body())
      stmt(C);
  else
    stmt(St);
  Cur = Saved;
}

void TangentBuilder::stmt(const Stmt *St) {
  if (!St)
    return;
  B.Loc = St->getBeginLoc();
  StmtFailed = false;
  if (const auto *CS = dyn_cast<CompoundStmt>(St)) {
    emit(blockOf(CS));
    return;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(St)) {
    declStmt(DS);
    return;
  }
  if (const auto *RS = dyn_cast<ReturnStmt>(St)) {
    const Expr *RV = RS->getRetValue();
    if (RetT.isNull() || !RV) {
      if (RV) {
        const Expr *SavedDiscard = Discard;
        Discard = RV->IgnoreParenImpCasts();
        VT X = expr(RV, false);
        Discard = SavedDiscard;
        if (X.V)
          emit(X.V);
      }
      StmtResult Ret = S.BuildReturnStmt(B.Loc, nullptr);
      emit(Ret.isInvalid() ? nullptr : Ret.get());
      return;
    }
    VT X = expr(RV, true);
    if (!X.V)
      return;
    QualType VTy = Def->getReturnType().getUnqualifiedType();
    Expr *Tan = orZero(X.T, VTy);
    auto As = [&](Expr *X) {
      return X && Ctx.hasSameUnqualifiedType(X->getType(), VTy)
                 ? X
                 : B.staticCast(VTy, X);
    };
    Expr *TC = As(Tan);
    ExprResult Inner = S.ActOnInitList(B.Loc, MultiExprArg(&TC, 1), B.Loc);
    if (Inner.isInvalid()) {
      Errors = true;
      return;
    }
    Expr *Ret = B.construct(RetT, {As(X.V), Inner.get()},
                            /*List=*/true);
    emit(B.returnStmt(Ret));
    return;
  }
  if (const auto *IS = dyn_cast<IfStmt>(St)) {
    if (IS->isConsteval())
      return (void)fail(IS, "'if consteval'");
    if (IS->getConditionVariable())
      return (void)fail(IS, "'if' with a condition variable");
    SmallVector<Stmt *, 4> Scope;
    auto *Saved = Cur;
    bool Scoped = IS->getInit() != nullptr;
    if (Scoped) {
      Cur = &Scope;
      stmt(IS->getInit());
      StmtFailed = false;
    }
    if (IS->isConstexpr()) {
      // The branch clang chose.
      std::optional<const Stmt *> Taken = IS->getNondiscardedCase(Ctx);
      if (Taken && *Taken)
        stmt(*Taken);
    } else {
      VT C = expr(IS->getCond(), false);
      Stmt *Then = blockOf(IS->getThen());
      Stmt *Else = IS->getElse() ? blockOf(IS->getElse()) : nullptr;
      if (C.V)
        emit(B.ifStmt(B.condition(C.V), Then, Else));
    }
    if (Scoped) {
      Cur = Saved;
      emit(B.block(Scope));
    }
    return;
  }
  if (const auto *FS = dyn_cast<ForStmt>(St)) {
    if (FS->getConditionVariable())
      return (void)fail(FS, "'for' with a condition variable");
    SmallVector<Stmt *, 4> Scope;
    auto *Saved = Cur;
    Cur = &Scope;
    stmt(FS->getInit());
    StmtFailed = false;
    Expr *Cond = FS->getCond() ? condition(FS->getCond()) : nullptr;
    StmtFailed = false;
    Expr *Inc = headerExpr(FS->getInc());
    Stmt *Body = blockOf(FS->getBody());
    Cur = Saved;
    if ((FS->getCond() && !Cond) || (FS->getInc() && !Inc)) {
      Errors = true;
      return;
    }
    Stmt *Init = nullptr;
    if (Scope.size() == 1) {
      Init = Scope[0];
      Scope.clear();
    }
    Scope.push_back(B.forStmt(Init, Cond, Inc, Body));
    if (Scope.size() == 1)
      emit(Scope[0]);
    else
      emit(B.block(Scope));
    return;
  }
  if (const auto *WS = dyn_cast<WhileStmt>(St)) {
    if (WS->getConditionVariable())
      return (void)fail(WS, "'while' with a condition variable");
    Expr *Cond = condition(WS->getCond());
    Stmt *Body = blockOf(WS->getBody());
    if (Cond)
      emit(B.whileStmt(Cond, Body));
    else
      Errors = true;
    return;
  }
  if (const auto *DoS = dyn_cast<DoStmt>(St)) {
    Stmt *Body = blockOf(DoS->getBody());
    Expr *Cond = condition(DoS->getCond());
    if (Cond)
      emit(B.doStmt(Body, Cond));
    else
      Errors = true;
    return;
  }
  if (isa<BreakStmt>(St)) {
    emit(B.breakStmt());
    return;
  }
  if (isa<ContinueStmt>(St)) {
    emit(B.continueStmt());
    return;
  }
  if (isa<NullStmt>(St))
    return;
  if (const auto *X = dyn_cast<Expr>(St)) {
    const Expr *SavedDiscard = Discard;
    Discard = X->IgnoreParenImpCasts();
    VT R = expr(X, false);
    Discard = SavedDiscard;
    if (R.V)
      emit(R.V);
    return;
  }
  // Jumps keep their meaning: the tangents run with the values.
  if (const auto *LS = dyn_cast<LabelStmt>(St)) {
    emit(B.labelStmt(labelFor(LS->getDecl()), nullptr));
    stmt(LS->getSubStmt());
    return;
  }
  if (const auto *GS = dyn_cast<GotoStmt>(St)) {
    emit(B.gotoStmt(labelFor(GS->getLabel())));
    return;
  }
  if (isa<SwitchStmt>(St))
    return (void)fail(St, "'switch'");
  if (isa<CXXForRangeStmt>(St))
    return (void)fail(St, "range-based 'for'");
  fail(St, constructName(St));
}

bool TangentBuilder::writes(const VarDecl *VD) const {
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *VD;
    bool Found = false;
    bool isVD(const Expr *E) const {
      const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      return DRE && DRE->getDecl() == VD;
    }
    bool VisitBinaryOperator(BinaryOperator *BO) {
      Found |= BO->isAssignmentOp() && isVD(BO->getLHS());
      return !Found;
    }
    bool VisitUnaryOperator(UnaryOperator *UO) {
      Found |= (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
               isVD(UO->getSubExpr());
      return !Found;
    }
  } F;
  F.VD = VD;
  F.TraverseStmt(const_cast<Stmt *>(Def->getBody()));
  if (F.Found)
    return true;
  // A non-const reference bound to it anywhere: assume written.
  struct RefFinder : RecursiveASTVisitor<RefFinder> {
    const VarDecl *VD;
    bool Found = false;
    bool VisitVarDecl(VarDecl *V) {
      if (V->getType()->isLValueReferenceType() &&
          !V->getType().getNonReferenceType().isConstQualified() &&
          V->getInit())
        if (const auto *DRE =
                dyn_cast<DeclRefExpr>(V->getInit()->IgnoreParenImpCasts()))
          Found |= DRE->getDecl() == VD;
      return true;
    }
    bool VisitCallExpr(CallExpr *CE) {
      const FunctionDecl *FD = CE->getDirectCallee();
      if (!FD)
        return true;
      for (unsigned I = 0; I < CE->getNumArgs() && I < FD->getNumParams(); ++I) {
        QualType PT = FD->getParamDecl(I)->getType();
        if (!PT->isLValueReferenceType() ||
            PT.getNonReferenceType().isConstQualified())
          continue;
        if (const auto *DRE =
                dyn_cast<DeclRefExpr>(CE->getArg(I)->IgnoreParenImpCasts()))
          Found |= DRE->getDecl() == VD;
      }
      return true;
    }
  } R;
  R.VD = VD;
  R.TraverseStmt(const_cast<Stmt *>(Def->getBody()));
  return R.Found;
}

void TangentBuilder::bindPushforward() {
  const PullbackSignature &Sig = PE->Sig;
  for (unsigned I = 0; I < Def->getNumParams(); ++I) {
    const ParmVarDecl *P = Def->getParamDecl(I);
    ParmVarDecl *NP = Fn->getParamDecl(I);
    Vals[P] = NP;
    int TI = Sig.AdjointIndex[I];
    QualType PT = P->getType();
    if (TI < 0) {
      // A floating scalar outside the wrt list that the body writes: a
      // zero tangent of its own, so that the writes are tracked.
      if (isFloating(PT) && !PT->isReferenceType() && writes(P)) {
        VarDecl *TV = B.var(Fn, "_t_" + NP->getNameAsString(),
                            PT.getUnqualifiedType(),
                            zeroOf(PT.getUnqualifiedType()));
        emit(B.declStmt(TV));
        Tans[P] = TV;
      }
      continue;
    }
    ParmVarDecl *TP = Fn->getParamDecl(TI);
    if (I < PE->Drop.size() && PE->Drop[I]) {
      Dropped.insert(P);
      Tans[P] = TP;
      continue;
    }
    ParamKind K = classifyParam(Ctx, PT).Kind;
    if (K == ParamKind::ScalarRef ||
        (K == ParamKind::Class && TP->getType()->isPointerType())) {
      TanByPointer.insert(P);
      Tans[P] = TP;
    } else if (K == ParamKind::Class && !PT->isReferenceType()) {
      // By value: the callee may write its copy, and so its tangent.
      VarDecl *TV = B.var(Fn, "_t_" + NP->getNameAsString(),
                          PT.getUnqualifiedType(), B.ref(TP));
      emit(B.declStmt(TV));
      Tans[P] = TV;
    } else {
      Tans[P] = TP;
    }
  }
}

bool TangentBuilder::bindHvp() {
  PullbackSignature PB;
  std::string Why;
  if (!computeSignature(Ctx, Primal, H->Wrt, Def->getName(), PB, Why) ||
      PB.ParamTypes.size() != Def->getNumParams()) {
    fail(nullptr, "the pullback's signature");
    return false;
  }
  unsigned N = Primal->getNumParams();
  for (unsigned I = 0; I < N; ++I) {
    const ParmVarDecl *P = Def->getParamDecl(I);
    Vals[P] = Fn->getParamDecl(I);
    if (int DI = H->Sig.AdjointIndex[I]; DI >= 0)
      Tans[P] = Fn->getParamDecl(DI);
    if (int AI = PB.AdjointIndex[I]; AI >= 0) {
      // The pullback's adjoint output: its value is discarded, its tangent
      // is the product H v, accumulated into the HVP's adjoint.
      const ParmVarDecl *A = Def->getParamDecl(AI);
      Dropped.insert(A);
      Tans[A] = Fn->getParamDecl(H->OutIndex[I]);
    }
  }
  if (PB.SeedIndex >= 0) {
    // The seed is 1, a constant.
    const ParmVarDecl *Seed = Def->getParamDecl(PB.SeedIndex);
    QualType T = Seed->getType().getUnqualifiedType();
    VarDecl *One = B.var(Fn, Seed->getName(), T, B.floatLit(1.0, T));
    emit(B.declStmt(One));
    Vals[Seed] = One;
  }
  return true;
}

bool TangentBuilder::build() {
  QualType R = Fn->getReturnType();
  if (!R->isVoidType())
    RetT = R;
  if (!Def->getBody() || isa<CXXTryStmt>(Def->getBody())) {
    fail(Def->getBody() ? Def->getBody() : nullptr, "function-try-block");
    return false;
  }
  Sema::SynthesizedFunctionScope Scope(S, Fn);
  SmallVector<Stmt *, 32> Body;
  Cur = &Body;
  if (PE)
    bindPushforward();
  else if (!bindHvp())
    return false;
  block(Def->getBody(), Body);
  if (Errors || B.Failed)
    return false;
  Fn->setBody(B.block(Body));
  return !B.Failed;
}

} // namespace

bool buildPushforward(Differentiator &D, PushforwardEntry &E,
                      const FunctionDecl *Def) {
  return TangentBuilder(D, E, Def).build();
}

bool buildHvp(Differentiator &D, HvpEntry &H, const FunctionDecl *Pullback) {
  return TangentBuilder(D, H, Pullback).build();
}

} // namespace grad
