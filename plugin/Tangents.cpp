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
  TangentBuilder(Differentiator &D, PushforwardEntry &E,
                 const FunctionDecl *Def)
      : D(D), S(D.sema()), Ctx(S.Context), E(E), Def(Def),
        Fn(E.Pushforward), B(S, Def->getLocation()) {}

  bool build();

private:
  Differentiator &D;
  Sema &S;
  ASTContext &Ctx;
  PushforwardEntry &E;
  const FunctionDecl *Def;
  FunctionDecl *Fn;
  SemaBuilder B;

  llvm::DenseMap<const VarDecl *, VarDecl *> Vals, Tans;
  /// Tangents held as a pointer to the tangent object (`double *t_x` for
  /// `double &x`).
  llvm::DenseSet<const VarDecl *> TanByPointer;
  /// Variables whose declaration failed (not reported again).
  llvm::DenseSet<const VarDecl *> FailedVars;
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
      report(S.Diags, Diag::UnsupportedForward, St->getBeginLoc())
          << What.str() << Def->getNameAsString();
      if (E.RequestLoc.isValid())
        report(S.Diags, Diag::GradSiteNote, E.RequestLoc)
            << E.Primal->getNameAsString();
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
  Expr *initTangent(const Expr *Init, QualType T);
  Expr *valueInit(const Expr *Init);
  Expr *condition(const Expr *C);
  Expr *headerExpr(const Expr *X);

  void stmt(const Stmt *St);
  void declStmt(const DeclStmt *DS);
  void block(const Stmt *St, SmallVectorImpl<Stmt *> &Out);
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
    if (It != Vals.end())
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
  bool Tracked = floatingOrPointer(LT);
  VT RV = expr(R, Tracked);
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
  if (CO->isGLValue() && (A.T || Bv.T))
    return {fail(CO, "'?:' used as an lvalue of differentiated memory"),
            nullptr};
  if (ThenS.empty() && ElseS.empty() && (!Active || (!A.T && !Bv.T)))
    return {B.cond(C.V, A.V, Bv.V), nullptr};
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
  PushforwardEntry *PE =
      D.calleePushforward(FD, CE->getExprLoc(), E, Why);
  if (!PE)
    return {fail(CE, "call to '" + FD->getNameAsString() + "' (" + Why + ")"),
            nullptr};
  const PullbackSignature &Sig = PE->Sig;
  SmallVector<Expr *, 8> Vs, Ts;
  unsigned NP = FD->getNumParams();
  SmallVector<VT, 8> Args;
  for (unsigned I = 0; I < NP; ++I) {
    const Expr *A = I < CE->getNumArgs() ? CE->getArg(I) : nullptr;
    if (!A)
      return {fail(CE, "call with too few arguments"), nullptr};
    Args.push_back(expr(A, Sig.AdjointIndex[I] >= 0));
    if (!Args.back().V)
      return {};
  }
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
  Expr *Call = B.call(B.funcRef(PE->Pushforward), Vs);
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
  VarDecl *Res = B.var(Fn, fresh("r"), PE->Pushforward->getReturnType(),
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
    // written when nothing differentiated flows through it.
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

/// The tangent initialiser of a variable of type \p T initialised by
/// \p Init: the tangents of its elements, members or constructor
/// arguments; null when it has none (zero).
Expr *TangentBuilder::initTangent(const Expr *Init, QualType T) {
  const Expr *K = Init->IgnoreImplicit()->IgnoreParens();
  if (const auto *IL = dyn_cast<InitListExpr>(K)) {
    if (IL->isSyntacticForm() && IL->getSemanticForm())
      IL = IL->getSemanticForm();
    SmallVector<Expr *, 8> Elems;
    for (const Expr *Ei : IL->inits()) {
      if (isa<ImplicitValueInitExpr>(Ei))
        break;
      QualType ET = Ei->getType();
      if (isFloating(ET) || ET->isArrayType() || hasFloatingData(ET)) {
        Expr *T2 = initTangent(Ei, ET);
        if (!T2 && Errors && StmtFailed)
          return nullptr;
        Elems.push_back(T2 ? T2 : zeroOf(ET));
      } else {
        // Integers and the like: their value, built again.
        if (Ei->HasSideEffects(Ctx))
          return fail(Ei, "initialiser with side effects");
        Elems.push_back(expr(Ei, false).V);
      }
    }
    ExprResult R = S.ActOnInitList(B.Loc, Elems, B.Loc);
    return R.isInvalid() ? nullptr : R.get();
  }
  if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(K))
    return initTangent(SIL->getSubExpr(), SIL->getSubExpr()->getType());
  if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(K))
    return initTangent(MT->getSubExpr(), T);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(K)) {
    const CXXConstructorDecl *Ctor = CE->getConstructor();
    if (Ctor->isCopyOrMoveConstructor() && CE->getNumArgs() >= 1)
      return initTangent(CE->getArg(0), T);
    bool Std = Ctor->getParent()->isInStdNamespace();
    if (!Std && !Ctor->isTrivial() && CE->getNumArgs())
      return fail(CE, "constructor call of '" +
                          T.getAsString(Ctx.getPrintingPolicy()) + "'");
    SmallVector<Expr *, 4> Args;
    for (const Expr *A : CE->arguments()) {
      if (isa<CXXDefaultArgExpr>(A))
        break;
      QualType AT = A->getType();
      if (isFloating(AT) || hasFloatingData(AT) ||
          isa<CXXStdInitializerListExpr>(A->IgnoreImplicit())) {
        Expr *T2 = initTangent(A, AT);
        Args.push_back(T2 ? T2 : zeroOf(AT));
      } else if (AT->isPointerType() && floatingOrPointer(AT)) {
        return fail(A, "construction from a pointer range");
      } else {
        if (A->HasSideEffects(Ctx))
          return fail(A, "initialiser with side effects");
        Args.push_back(expr(A, false).V);
      }
    }
    return B.construct(T, Args, CE->isListInitialization());
  }
  VT X = expr(Init, true);
  if (!X.V)
    return nullptr;
  return X.T;
}

/// The value initialiser of an array, container or object, rebuilt.
Expr *TangentBuilder::valueInit(const Expr *Init) {
  const Expr *K = Init->IgnoreImplicit()->IgnoreParens();
  if (const auto *IL = dyn_cast<InitListExpr>(K)) {
    if (IL->isSyntacticForm() && IL->getSemanticForm())
      IL = IL->getSemanticForm();
    SmallVector<Expr *, 8> Elems;
    for (const Expr *Ei : IL->inits()) {
      if (isa<ImplicitValueInitExpr>(Ei))
        break;
      Expr *V = valueInit(Ei);
      if (!V)
        return nullptr;
      Elems.push_back(V);
    }
    ExprResult R = S.ActOnInitList(B.Loc, Elems, B.Loc);
    return R.isInvalid() ? nullptr : R.get();
  }
  if (const auto *SIL = dyn_cast<CXXStdInitializerListExpr>(K))
    return valueInit(SIL->getSubExpr());
  if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(K))
    return valueInit(MT->getSubExpr());
  if (const auto *CE = dyn_cast<CXXConstructExpr>(K);
      CE && !CE->getConstructor()->isCopyOrMoveConstructor()) {
    SmallVector<Expr *, 4> Args;
    for (const Expr *A : CE->arguments()) {
      if (isa<CXXDefaultArgExpr>(A))
        break;
      Expr *V = valueInit(A);
      if (!V)
        return nullptr;
      Args.push_back(V);
    }
    return B.construct(CE->getType(), Args, CE->isListInitialization());
  }
  return expr(Init, false).V;
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
    if (isa<CXXFunctionalCastExpr>(EC) && isa<InitListExpr>(Sub->IgnoreImplicit()))
      return {fail(EC, constructName(EC)), nullptr};
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
    if (hasFloatingData(CE->getType()))
      return {fail(CE, constructName(CE)), nullptr};
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
        !isa<CXXTemporaryObjectExpr>(CE))
      return {Args[0], nullptr}; // a converting construction
    return {B.construct(CE->getType(), Args, CE->isListInitialization()),
            nullptr};
  }
  if (isa<CXXScalarValueInitExpr>(X) || isa<ImplicitValueInitExpr>(X))
    return {zeroOf(X->getType()), nullptr};
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
      if (Init) {
        const Expr *K = Init->IgnoreImplicit();
        bool Simple = isa<InitListExpr>(K) || isa<CXXConstructExpr>(K) ||
                      isa<CXXStdInitializerListExpr>(K);
        if (Simple) {
          TInit = initTangent(Init, NR);
          if (!Errors)
            VInit = valueInit(Init);
        } else {
          VT X = expr(Init, true);
          VInit = X.V;
          TInit = X.T;
        }
      }
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
  if (isa<SwitchStmt>(St))
    return (void)fail(St, "'switch'");
  if (isa<CXXForRangeStmt>(St))
    return (void)fail(St, "range-based 'for'");
  fail(St, constructName(St));
}

bool TangentBuilder::build() {
  const PullbackSignature &Sig = E.Sig;
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
  for (unsigned I = 0; I < Def->getNumParams(); ++I) {
    const ParmVarDecl *P = Def->getParamDecl(I);
    ParmVarDecl *NP = Fn->getParamDecl(I);
    Vals[P] = NP;
    int TI = Sig.AdjointIndex[I];
    QualType PT = P->getType();
    if (TI < 0) {
      // A floating scalar outside the wrt list: a zero tangent of its own,
      // so that writes to it are tracked.
      if (isFloating(PT) && !PT->isReferenceType()) {
        VarDecl *TV = B.var(Fn, "_t_" + NP->getNameAsString(),
                            PT.getUnqualifiedType(),
                            zeroOf(PT.getUnqualifiedType()));
        emit(B.declStmt(TV));
        Tans[P] = TV;
      }
      continue;
    }
    ParmVarDecl *TP = Fn->getParamDecl(TI);
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

} // namespace grad
