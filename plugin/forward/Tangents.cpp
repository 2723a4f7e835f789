//===- Tangents.cpp - Value and tangent of expressions ----------------------===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Expressions of a pushforward: each is rebuilt as a value and a tangent
/// (TangentBuilder.h).
///
//===----------------------------------------------------------------------===//

#include "analysis/Positions.h"
#include "forward/TangentBuilder.h"
#include "ast/Replay.h"

namespace grad {
namespace tangent {

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
    if (Dropped.count(VD) && Linear) {
      // Never computed: a placeholder, refused if it is ever emitted.
      R.V = B.ref(poisonFor(VD));
    } else if (Dropped.count(VD)) {
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
    // (Parenthesised: `t = -u` built with adjacent locations would be
    // -Wnot-compound-assign's `=-`.)
    return {B.unop(Op, X.V), X.T ? B.paren(B.unop(Op, X.T)) : nullptr};
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
    if (Linear)
      return {fail(UO, "increment of the adjoint pointer '" + spelled(Sub) +
                           "'"),
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

/// True if the lvalue \p E may be evaluated again: a path of members,
/// elements (also `v[i]` of a std::vector, std::array or std::span, whose
/// operator[] only computes an address) and dereferences with indices free
/// of side effects.
static bool pureAccess(const Expr *E, const ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E)) {
    const auto *RD = OC->getNumArgs() == 2 ? OC->getArg(0)
                                                 ->getType()
                                                 .getNonReferenceType()
                                                 ->getAsCXXRecordDecl()
                                           : nullptr;
    return OC->getOperator() == OO_Subscript && RD &&
           RD->isInStdNamespace() && RD->getIdentifier() &&
           (RD->getName() == "vector" || RD->getName() == "array" ||
            RD->getName() == "span") &&
           pureAccess(OC->getArg(0), Ctx) &&
           !OC->getArg(1)->HasSideEffects(Ctx);
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
    return pureAccess(ASE->getBase(), Ctx) &&
           !ASE->getIdx()->HasSideEffects(Ctx);
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return pureAccess(ME->getBase(), Ctx);
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_Deref)
    return pureAccess(UO->getSubExpr(), Ctx);
  return !E->HasSideEffects(Ctx);
}

VT TangentBuilder::droppedAssignment(const Assign &A, const VarDecl *Root) {
  BinaryOperatorKind Op = A.Op;
  // d_x[i] += e in a pullback: only the tangent is kept. (Linear mode:
  // also d_x *= c and d_x /= c, scaled by a value without derivatives.)
  bool Scale = Linear && (Op == BO_MulAssign || Op == BO_DivAssign);
  if (!A.Discarded ||
      (Op != BO_AddAssign && Op != BO_SubAssign && Op != BO_Assign && !Scale))
    return {fail(A.Whole, "use of the adjoint '" + Root->getNameAsString() +
                              "' other than accumulating into it"),
            nullptr};
  VT RV = expr(A.R, true);
  AllowDropped = true;
  VT LV = expr(A.L, true);
  AllowDropped = false;
  if (!RV.V || !LV.T)
    return {};
  if (Scale) {
    if (RV.T)
      return {fail(A.Whole, "product of two adjoints"), nullptr};
    emit(B.binop(Op, LV.T, rhs(RV.V)));
    return {};
  }
  if (RV.T || Op == BO_Assign)
    emit(B.binop(Op, LV.T, rhs(orZero(RV.T, A.LT))));
  return {};
}

bool TangentBuilder::innerAssignments(Assign &A, VT &RV, bool Tracked) {
  // `(t *= x) *= y`, `++t += y`: the inner write happens first (the right
  // side is sequenced before the left), then the outer one writes t.
  for (;;) {
    const Expr *LK = A.L->IgnoreParens();
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
      return true;
    if (Inner->HasSideEffects(Ctx))
      return failed(A.L, "assignment to an assignment with side effects in "
                         "its left side");
    // The right side was evaluated first: its value and tangent are taken
    // now, before the inner write changes what they read.
    if (NoHoist)
      return failed(A.L, "assignment to an assignment in a loop condition "
                         "or increment");
    if (!isa<FloatingLiteral, IntegerLiteral>(RV.V->IgnoreParenImpCasts()))
      RV.V = hoist(RV.V, A.R->getType(), A.R);
    if (RV.T)
      RV.T = hoist(RV.T, RV.T->getType(), nullptr);
    VT X = expr(LK, Tracked);
    if (isa<UnaryOperator>(LK) && X.V)
      emit(X.V);
    A.L = Inner;
  }
}

bool TangentBuilder::hoistAssignedAddress(Assign &A) {
  VT X = expr(A.L, true);
  if (!X.V)
    return false;
  if (!X.T)
    return true;
  Expr *HV = hoist(B.addrOf(X.V), Ctx.getPointerType(X.V->getType()), nullptr);
  Expr *HT =
      HV ? hoist(B.addrOf(X.T), Ctx.getPointerType(X.T->getType()), nullptr)
         : nullptr;
  if (!HT)
    return false;
  A.AddrV = cast<DeclRefExpr>(HV)->getDecl();
  A.AddrT = cast<DeclRefExpr>(HT)->getDecl();
  return true;
}

VT TangentBuilder::assignedLValue(const Assign &A, bool NeedT) {
  if (!A.AddrV)
    return expr(A.L, NeedT);
  return {B.deref(B.ref(A.AddrV)), NeedT ? B.deref(B.ref(A.AddrT)) : nullptr};
}

VT TangentBuilder::linearAssignment(const Assign &A, const VT &LV,
                                    const VT &RV) {
  // Only adjoint memory has tangents here (through a pointer that
  // chooses between adjoints, `*((c ? &_d_a : &_d_b) + o) += e`): its
  // lanes only, as for a dropped variable.
  if (!A.Discarded)
    return {fail(A.Whole, "assignment to an adjoint used as a value"), nullptr};
  switch (A.Op) {
  case BO_Assign:
    emit(B.binop(A.Op, LV.T, rhs(orZero(RV.T, A.LT))));
    break;
  case BO_AddAssign:
  case BO_SubAssign:
    if (RV.T)
      emit(B.binop(A.Op, LV.T, rhs(RV.T)));
    break;
  case BO_MulAssign:
  case BO_DivAssign:
    if (RV.T)
      return {fail(A.Whole, "product of two adjoints"), nullptr};
    emit(B.binop(A.Op, LV.T, rhs(RV.V)));
    break;
  default:
    return {fail(A.Whole, constructName(A.Whole)), nullptr};
  }
  return {};
}

bool TangentBuilder::assignedTangent(const Assign &A, VT &RV, Expr *Old,
                                     Expr *&NewT, bool &Skip) {
  const Expr *R = A.R;
  switch (A.Op) {
  case BO_Assign:
    NewT = orZero(RV.T, A.LT);
    break;
  case BO_AddAssign:
  case BO_SubAssign:
    if (!RV.T) {
      // p += k on a pointer moves its tangent pointer too.
      if (A.LT->isPointerType())
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
    NewT = add(mul(assignedLValue(A, true).T, Rv),
               RV.T ? mul(Old, RV.T) : nullptr);
    break;
  }
  case BO_DivAssign: {
    // t' = (t' - l / r * r') / r
    Expr *Rv = dup(RV, R);
    Expr *Num = assignedLValue(A, true).T;
    if (RV.T)
      Num = B.binop(BO_Sub, Num,
                    mul(B.binop(BO_Div, Old, dup(RV, R)), RV.T));
    NewT = B.binop(BO_Div, B.paren(Num), Rv);
    break;
  }
  default:
    return failed(A.Whole, constructName(A.Whole));
  }
  return true;
}

VT TangentBuilder::trackedAssignment(const Assign &A, VT &LV, VT &RV) {
  const Expr *L = A.L;
  if (LV.T->getType().isConstQualified())
    return {fail(L, "write to '" + spelled(L) +
                        "', whose tangent is read-only (a 'T[]' parameter "
                        "gets a 'const T *' tangent: declare it 'T *')"),
            nullptr};
  bool Pure = A.AddrV || pureAccess(L, Ctx);
  // The value of the left side before the write, when the tangent needs
  // it (x *= e, x /= e).
  Expr *Old = nullptr;
  if (A.Op == BO_MulAssign || A.Op == BO_DivAssign) {
    if (!Pure)
      return {fail(L, "compound assignment to an expression with side "
                      "effects"),
              nullptr};
    Old = assignedLValue(A, false).V;
  }
  Expr *TL = LV.T;
  Expr *NewT = nullptr;
  bool Skip = false;
  if (!assignedTangent(A, RV, Old, NewT, Skip))
    return {};
  if (!Skip) {
    BinaryOperatorKind TOp =
        A.Op == BO_AddAssign || A.Op == BO_SubAssign ? A.Op : BO_Assign;
    emit(B.binop(TOp, TL, rhs(NewT)));
  }
  Expr *Asg = B.binop(A.Op, LV.V, rhs(RV.V));
  if (A.Discarded)
    return {Asg, nullptr};
  if (!Pure)
    return {fail(A.Whole, "assignment with side effects in its left side, "
                          "used as a value"),
            nullptr};
  emit(Asg);
  return assignedLValue(A, true);
}

VT TangentBuilder::assignment(const Expr *Whole, BinaryOperatorKind Op,
                              const Expr *L, const Expr *R) {
  modelled(Whole);
  bool Discarded = Whole == Discard;
  if (const Expr *F = derefFormOf(L))
    L = F; // *std::max_element(v.begin(), v.end()) *= x
  Assign A{Whole, Op, L, R, L->getType(), Discarded};
  if (isa<ConditionalOperator>(L->IgnoreParens()) && floatingOrPointer(A.LT))
    return {fail(L, "assignment to a '?:' of differentiated memory"), nullptr};
  bool Tracked = floatingOrPointer(A.LT);
  bool IsThisRoot = false;
  const VarDecl *Root = pathRoot(L, IsThisRoot, /*Strict=*/true);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(L->IgnoreParenImpCasts());
      !Root && DRE)
    Root = dyn_cast<VarDecl>(DRE->getDecl()); // (a dropped scalar local)
  if (Root && Dropped.count(Root))
    return droppedAssignment(A, Root);
  VT RV = expr(R, Tracked);
  if (!innerAssignments(A, RV, Tracked))
    return {};
  // `*++r = y * *r`: the right side's tangent is taken before the left
  // side's effects (on the tangent pointer too) run.
  if (RV.T && !NoHoist && !pureAccess(A.L, Ctx))
    RV.T = hoist(RV.T, RV.T->getType(), nullptr);
  // `*argmax(a, n) *= e`, `largest(a, n) /= e`, `row(A, n, i)[j] *= e`:
  // the address and its tangent's are computed once.
  if ((Op == BO_MulAssign || Op == BO_DivAssign) && Tracked &&
      A.L->isLValue() && !pureAccess(A.L, Ctx) && !hoistAssignedAddress(A))
    return {};
  VT LV = assignedLValue(A, Tracked);
  if (!LV.V || !RV.V)
    return {};
  if (!Tracked) {
    Expr *Asg = B.binop(Op, LV.V, rhs(RV.V));
    return {Asg, nullptr};
  }
  if (!LV.T) {
    // (Linear mode: the pullback's own values have no tangents.)
    if (!RV.T && ((Op != BO_MulAssign && Op != BO_DivAssign) || Linear))
      return {B.binop(Op, LV.V, rhs(RV.V)), nullptr};
    return {fail(A.L, "write of a differentiated value to '" + spelled(A.L) +
                          "', which has no tangent (memory outside the "
                          "function's differentiated parameters)"),
            nullptr};
  }
  if (Linear)
    return linearAssignment(A, LV, RV);
  return trackedAssignment(A, LV, RV);
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
                : B.paren(B.unop(UO_Minus, Y.T))};
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
    Num = Num ? B.binop(BO_Sub, Num, Sub) : B.paren(B.unop(UO_Minus, Sub));
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
  // (Linear mode: a pointer to an adjoint or to memory without one would
  // have a null tangent on one side.)
  if (Linear && Active && T->isPointerType() && (!A.T != !Bv.T))
    return {fail(CO, "pointer choosing between an adjoint and memory "
                     "without one"),
            nullptr};
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
    QualType TTy = tanTypeOr(VTy, CO, "'?:'");
    if (TTy.isNull())
      return {};
    Tan = B.var(Fn, fresh("t"), TTy, zeroOf(VTy));
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

VT TangentBuilder::arraySubscript(const ArraySubscriptExpr *AS) {
  VT Base = expr(AS->getBase(), true);
  VT Idx = expr(AS->getIdx(), false);
  if (!Base.V || !Idx.V)
    return {};
  Expr *I2 = Base.T ? dup(Idx, AS->getIdx()) : nullptr;
  return {B.subscript(Base.V, Idx.V),
          Base.T ? B.subscript(Base.T, I2) : nullptr};
}

VT TangentBuilder::memberAccess(const MemberExpr *ME) {
  const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!FD || !FD->getIdentifier())
    return {fail(ME, "member access"), nullptr};
  VT Base = expr(ME->getBase(), true);
  if (!Base.V)
    return {};
  // A member without floating data (`int n`) has no tangent: the tangent
  // object holds the value there (`S{x, 3}` -> `S{t_x, 3}`).
  QualType FT = FD->getType();
  bool Carries = isFloating(FT) || hasFloatingData(FT) || FT->isPointerType() ||
                 FT->isReferenceType();
  return {B.member(Base.V, FD->getName(), ME->isArrow()),
          Base.T && Carries ? B.member(Base.T, FD->getName(), ME->isArrow())
                            : nullptr};
}

VT TangentBuilder::explicitCast(const ExplicitCastExpr *EC, bool NeedT) {
  QualType T = EC->getTypeAsWritten();
  const Expr *Sub = EC->getSubExpr();
  if (isa<CXXFunctionalCastExpr>(EC) &&
      isa<InitListExpr, CXXConstructExpr>(Sub->IgnoreImplicit())) {
    if (hasFloatingData(EC->getType()))
      return objectTemporary(Sub, EC->getType());
    VT X2 = expr(Sub, false);
    return {X2.V, nullptr};
  }
  // `static_cast<double &&>(t)` (std::move as a pullback spells it): t,
  // moved, with its own tangent.
  if (T->isRValueReferenceType() &&
      Ctx.hasSameUnqualifiedType(T.getNonReferenceType(), Sub->getType())) {
    VT X2 = expr(Sub, NeedT);
    return {X2.V ? B.staticCast(T, X2.V) : nullptr, X2.T};
  }
  bool FloatCast = isFloating(T) && isFloating(Sub->getType());
  VT X2 = expr(Sub, NeedT && FloatCast);
  if (!X2.V)
    return {};
  if (T->isVoidType())
    return {B.staticCast(T, X2.V), nullptr};
  if (T->isPointerType() && X2.T)
    return {fail(EC, "cast of a pointer to differentiated memory"), nullptr};
  // (A pullback's byte offsets: `reinterpret_cast<const char *>(p)`.)
  if (isa<CXXReinterpretCastExpr>(EC))
    return {B.reinterpretCast(T, X2.V), nullptr};
  if (isa<CXXConstCastExpr>(EC))
    return {B.constCast(T, X2.V), nullptr};
  return {B.staticCast(T, X2.V),
          FloatCast && X2.T ? B.staticCast(tanType(T), X2.T) : nullptr};
}

VT TangentBuilder::throwExpr(const CXXThrowExpr *TE) {
  VT Sub = expr(TE->getSubExpr(), false);
  ExprResult R = S.BuildCXXThrow(B.Loc, Sub.V, false);
  return {R.isInvalid() ? nullptr : R.get(), nullptr};
}

VT TangentBuilder::constructExpr(const CXXConstructExpr *CE, bool NeedT) {
  // A copy (an argument passed by value): the object itself.
  if (CE->getConstructor()->isCopyOrMoveConstructor() && CE->getNumArgs() >= 1)
    return expr(CE->getArg(0), NeedT);
  // (Linear mode: an object without adjoints is built as written; from
  // braces, `std::vector<double> v = {a, b}`, replayed.)
  bool Own = pullbackOwn(CE);
  if (hasFloatingData(CE->getType()) && !Own)
    return objectTemporary(CE, CE->getType());
  if (Own && llvm::any_of(CE->arguments(), [](const Expr *A) {
        return isa<CXXStdInitializerListExpr>(A->IgnoreImplicit());
      }))
    if (Expr *R = replayed(CE))
      return {R, nullptr};
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
      !isa<CXXTemporaryObjectExpr>(CE) && !CE->getConstructor()->isExplicit())
    return {Args[0], nullptr}; // a converting construction
  return {B.construct(CE->getType(), Args, CE->isListInitialization()),
          nullptr};
}

Expr *TangentBuilder::replayedScratch(const Expr *X) {
  const Expr *Freed = nullptr;
  if (const auto *DE = dyn_cast<CXXDeleteExpr>(X))
    Freed = DE->getArgument()->IgnoreImpCasts();
  // (Heap memory with a tangent: the tangent memory goes with it.)
  Expr *FreeT = Freed ? freedTangent(Freed) : nullptr;
  if (FreeT)
    emit(FreeT);
  const auto *NE = dyn_cast<CXXNewExpr>(X);
  // (Linear mode: the pullback's own scratch memory, `new double[n]` of
  // the primal, has no tangent; the adjoint's shadow is shadow_alloc's.)
  bool Own = Linear && (NE || Freed) && !LinAct->reachesActive(X);
  if (Own ||
      (NE && !hasFloatingData(NE->getAllocatedType()) &&
       !NE->getAllocatedType()->isPointerType()) ||
      FreeT ||
      (Freed && Freed->getType()->isPointerType() &&
       !hasFloatingData(Freed->getType()->getPointeeType()) &&
       !Freed->getType()->getPointeeType()->isPointerType()))
    return replayed(X);
  return nullptr;
}

bool TangentBuilder::bracesWithoutTangents(const InitListExpr *IL, VT &Out) {
  SmallVector<Expr *, 4> Elems;
  for (const Expr *E : IL->inits()) {
    VT Ei = expr(E, false);
    Out = {};
    if (!Ei.V)
      return true;
    if (Ei.T) {
      Out = {fail(E, "pointer '" + spelled(E) +
                         "' into differentiated memory in the " +
                         constructName(IL) + " (pass the pointer itself)"),
             nullptr};
      return true;
    }
    Elems.push_back(Ei.V);
  }
  ExprResult R = S.ActOnInitList(B.Loc, Elems, B.Loc);
  if (R.isInvalid())
    return false;
  Out = {R.get(), nullptr};
  return true;
}

VT TangentBuilder::expr(const Expr *X, bool NeedT) {
  if (!X)
    return {};
  const Expr *Orig = X;
  X = X->IgnoreImplicit()->IgnoreParens();
  if (NeedT) {
    modelled(Orig);
    modelled(X);
  }
  if (Orig->IgnoreParenImpCasts() == Discard)
    Discard = X;
  // Linear mode: what does not depend on the adjoints has no tangent
  // (the pullback's own values, objects such as sin_cos's pair).
  if (NeedT && pullbackOwn(X)) {
    if (VT Shadow = linearShadowAlloc(X); Shadow.V)
      return Shadow;
    NeedT = false;
  }
  if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(X))
    return expr(DA->getExpr(), NeedT);
  if (const auto *NT = dyn_cast<SubstNonTypeTemplateParmExpr>(X))
    return expr(NT->getReplacement(), NeedT);
  if (const auto *FE = dyn_cast<FullExpr>(X))
    return expr(FE->getSubExpr(), NeedT);
  if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(X))
    return expr(MT->getSubExpr(), NeedT);
  if (const auto *RW = dyn_cast<CXXRewrittenBinaryOperator>(X))
    return rewrittenOnPosition(RW) ? VT{replayed(RW), nullptr}
                                   : expr(RW->getSemanticForm(), NeedT);
  if (const Expr *F = derefFormOf(X))
    return expr(F, NeedT);
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
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(X))
    return arraySubscript(AS);
  if (const auto *ME = dyn_cast<MemberExpr>(X))
    return memberAccess(ME);
  if (const auto *CE = dyn_cast<CallExpr>(X))
    return call(CE, NeedT);
  if (const auto *EC = dyn_cast<ExplicitCastExpr>(X))
    return explicitCast(EC, NeedT);
  if (const auto *TE = dyn_cast<CXXThrowExpr>(X))
    return throwExpr(TE);
  if (const auto *CE = dyn_cast<CXXConstructExpr>(X))
    return constructExpr(CE, NeedT);
  if (isa<CXXScalarValueInitExpr>(X) || isa<ImplicitValueInitExpr>(X))
    return {valueZero(X->getType()), nullptr};
  if (isa<InitListExpr>(X) && hasFloatingData(X->getType()))
    return objectTemporary(X, X->getType());
  return asWrittenOrRefused(X);
}

VT TangentBuilder::asWrittenOrRefused(const Expr *X) {
  // Scratch memory without floating data (`new int[n]`, `delete[] idx`):
  // replayed as written (floating scratch gets tangent memory where it is
  // declared, TangentStmts.cpp heapTangent).
  if (Expr *Out = replayedScratch(X))
    return {Out, nullptr};
  // Braces of values without tangents (`const double *rows[2] = {t0, t1}`
  // over constant tables): as written; a pointer into differentiated
  // memory in them would be untracked.
  if (const auto *IL = dyn_cast<InitListExpr>(X))
    if (VT Out; bracesWithoutTangents(IL, Out))
      return Out;
  // A lambda that captures nothing (a predicate given to std::count_if):
  // declared as written, its variable named here.
  if (isa<LambdaExpr>(X))
    if (Expr *Out = replayed(X))
      return {Out, nullptr};
  return {fail(X, constructName(X)), nullptr};
}

} // namespace tangent
} // namespace grad
