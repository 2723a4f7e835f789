//===- Backprop.cpp - Adjoint propagation through expressions ---*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// backprop(E, Adj): accumulates the adjoint of expression E into its
/// inputs, one rule per node kind; calls go to the derivative rules, the
/// runtime primitives, or the callee's (or method's) pullback.
///
//===----------------------------------------------------------------------===//

#include "ast/Diagnostics.h"
#include "reverse/PullbackBuilder.h"
#include "ast/Records.h"
#include "analysis/Selectors.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace grad {

static const Expr *strip(const Expr *E) { return stripExpr(E); }

//===----------------------------------------------------------------------===//
// Adjoint propagation
//===----------------------------------------------------------------------===//

ValueDecl *PullbackBuilder::bindRef(Expr *E, QualType T, bool Const,
                                    Stmts &Out) {
  if (auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    if (isa<VarDecl>(DRE->getDecl()))
      return DRE->getDecl();
  QualType RT = Ctx.getLValueReferenceType(Const ? T.withConst() : T);
  VarDecl *V = B.var(PB, fresh(Const ? "_r" : "_a"), RT, E);
  Out.push_back(B.declStmt(V));
  return V;
}

void PullbackBuilder::backpropBraces(const InitListExpr *IL,
                                     llvm::function_ref<Expr *()> Adj,
                                     Stmts &Out) {
  QualType T = IL->getType();
  const auto *RD = T->getAsCXXRecordDecl();
  if (RD && RD->isUnion()) {
    unsupported(IL, constructName(IL));
    return;
  }
  unsigned NB = RD ? RD->getNumBases() : 0;
  bool StdArray = RD && isStdClass(T, "array");
  for (unsigned I = 0; I < IL->getNumInits(); ++I) {
    const Expr *E = IL->getInit(I);
    if (isa<ImplicitValueInitExpr>(E))
      break;
    const Expr *K = strip(E);
    if (!Act.isActive(K))
      continue;
    auto Elem = [&, I]() -> Expr * {
      if (StdArray) // std::array<T, N>{...}: its one member array
        return Adj();
      if (!RD)
        return B.subscript(Adj(), B.intLit(I, Ctx.getSizeType()));
      if (I < NB)
        return B.staticCast(
            Ctx.getLValueReferenceType(
                (RD->bases_begin() + I)->getType().withConst()),
            Adj());
      auto FI = RD->field_begin();
      std::advance(FI, I - NB);
      return B.member(Adj(), FI->getName());
    };
    if (const auto *Inner = dyn_cast<InitListExpr>(K))
      backpropBraces(Inner, Elem, Out);
    else
      backprop(E, Elem(), Out);
  }
}

void PullbackBuilder::accumulateObject(Expr *Dst, Expr *Adj, QualType T,
                                       Stmts &Out) {
  if (isComplex(T)) {
    Out.push_back(B.addAssign(Dst, Adj));
    return;
  }
  if (isElementOwner(T)) {
    // Member by member (nested owners too), through references bound once.
    ValueDecl *D = bindRef(Dst, T, false, Out);
    ValueDecl *A = bindRef(Adj, T, true, Out);
    accumulateOwner(B, T, [&] { return B.ref(D); }, [&] { return B.ref(A); },
                    Out);
    return;
  }
  QualType ET = elementTypeOf(Ctx, T);
  if (!isPlainStruct(T) && (ET.isNull() || !isPlainStruct(ET))) {
    // Containers and std::array: element by element in the runtime.
    Out.push_back(B.callRuntime("accumulate", {}, {Dst, Adj}));
    return;
  }
  // Member by member, through references bound once ((*d_p).m needs none).
  ValueDecl *P = nullptr;
  if (const auto *UO = dyn_cast<UnaryOperator>(Dst->IgnoreParens());
      UO && UO->getOpcode() == UO_Deref)
    if (const auto *DRE =
            dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParenImpCasts()))
      P = const_cast<ValueDecl *>(DRE->getDecl());
  ValueDecl *D = P ? nullptr : bindRef(Dst, T, false, Out);
  ValueDecl *A = bindRef(Adj, T, true, Out);
  accumulateRecord(
      B, T,
      [&] { return P ? B.paren(B.deref(B.ref(P))) : B.ref(D); },
      [&] { return B.ref(A); }, Out);
}

void PullbackBuilder::backpropTemporaryMember(const Expr *K, const Expr *Temp,
                                              Expr *Adj, QualType T,
                                              Stmts &Out) {
  // A member of a temporary: a zero object with that member's adjoint,
  // sent to what built the temporary.
  QualType BT = Temp->getType().getNonReferenceType().getUnqualifiedType();
  VarDecl *G = B.var(PB, fresh("_g"), BT, B.zero(BT));
  Out.push_back(B.declStmt(G));
  Expr *M = onTemporaryPath(B, K, B.ref(G));
  if (!M) {
    unsupported(K, constructName(K));
    return;
  }
  if (T->isRecordType())
    accumulateObject(M, Adj, T, Out);
  else
    Out.push_back(B.addAssign(M, Adj));
  backprop(Temp, B.ref(G), Out);
}

bool PullbackBuilder::backpropAggregate(const Expr *K, Expr *Adj, QualType T,
                                        Stmts &Out) {
  if (const CXXConstructExpr *CC = complexConstruction(K)) {
    backpropComplexConstruction(CC, Adj, Out);
    return true;
  }
  SmallVector<std::pair<const FieldDecl *, const Expr *>, 4> MW;
  if (memberwiseInit(K, MW)) {
    ValueDecl *A = bindRef(Adj, T, true, Out);
    for (auto It = MW.rbegin(); It != MW.rend(); ++It)
      backprop(It->second, B.member(B.ref(A), It->first->getName()), Out);
    return true;
  }
  if (const CXXConstructExpr *UC = userConstruction(K)) {
    backpropUserConstruction(UC, Adj, Out);
    return true;
  }
  if (auto Els = tupleElements(K); !Els.empty()) {
    // Element I's adjoint: .first / .second, or std::get<I>.
    ValueDecl *A = bindRef(Adj, T, true, Out);
    for (unsigned I = Els.size(); I-- > 0;)
      backprop(Els[I],
               isTuple(T)
                   ? B.callStd("get", {B.ref(A)},
                               {B.exprArg(B.intLit(I, Ctx.getSizeType()))})
                   : B.member(B.ref(A), I == 0 ? "first" : "second"),
               Out);
    return true;
  }
  if (const InitListExpr *IL = bracedVector(K)) {
    // std::vector<double>{a, b}: element I gets the adjoint's element I.
    ValueDecl *A = bindRef(Adj, T, true, Out);
    backpropBraces(IL, [&] { return B.ref(A); }, Out);
    return true;
  }
  if (const auto *IL = dyn_cast<InitListExpr>(K)) {
    ValueDecl *A = T->isRecordType() ? bindRef(Adj, T, true, Out) : nullptr;
    backpropBraces(IL, [&] { return A ? B.ref(A) : Adj; }, Out);
    return true;
  }
  return false;
}

void PullbackBuilder::backpropBinary(const BinaryOperator *BO, Expr *Adj,
                                     QualType T, Stmts &Out) {
  const Expr *L = BO->getLHS(), *R = BO->getRHS();
  bool LA = Act.isActive(strip(L)), RA = Act.isActive(strip(R));
  auto Share = [&]() -> std::function<Expr *()> {
    if (LA && RA) {
      VarDecl *V = bind(Adj, T, Out);
      return [this, V] { return B.ref(V); };
    }
    return [Adj] { return Adj; };
  }();
  // Operands in reverse evaluation order: the forward sweep evaluated
  // L before R, so calls in R are reversed first (their frames are on
  // top of the stack, and their writes happened last).
  switch (BO->getOpcode()) {
  case BO_Add:
    backprop(R, Share(), Out);
    backprop(L, Share(), Out);
    return;
  case BO_Sub:
    if (RA)
      backprop(R, B.unop(UO_Minus, Share()), Out);
    backprop(L, Share(), Out);
    return;
  case BO_Mul:
    if (RA)
      backprop(R, B.binop(BO_Mul, val(L), Share()), Out);
    if (LA)
      backprop(L, B.binop(BO_Mul, Share(), val(R)), Out);
    return;
  case BO_Div:
    if (RA)
      backprop(R,
               B.unop(UO_Minus,
                      B.binop(BO_Div, B.binop(BO_Mul, Share(), val(L)),
                              B.binop(BO_Mul, val(R), val(R)))),
               Out);
    if (LA)
      backprop(L, B.binop(BO_Div, Share(), val(R)), Out);
    return;
  case BO_Comma:
    backprop(R, Adj, Out);
    return;
  default:
    unsupported(BO, "'" + BO->getOpcodeStr().str() + "' operator");
    return;
  }
}

void PullbackBuilder::backpropConditional(const ConditionalOperator *CO,
                                          Expr *Adj, QualType T, Stmts &Out) {
  auto It = Values.find(strip(CO->getCond()));
  if (It == Values.end()) {
    unsupported(CO, "conditional operator (internal error)");
    return;
  }
  VarDecl *V = bind(Adj, T, Out);
  Stmts TB, FB;
  backprop(CO->getTrueExpr(), B.ref(V), TB);
  backprop(CO->getFalseExpr(), B.ref(V), FB);
  if (!TB.empty() || !FB.empty())
    Out.push_back(B.ifStmt(B.ref(It->second), B.block(TB),
                           FB.empty() ? nullptr : B.block(FB)));
}

void PullbackBuilder::backprop(const Expr *E, Expr *Adj, Stmts &Out) {
  if (Failed || !Adj)
    return;
  const Expr *K = strip(E);
  modelled(E);
  modelled(K);
  if (!Act.isActive(K))
    return;
  QualType T = K->getType().getNonReferenceType().getUnqualifiedType();
  if (isElementAccess(K)) {
    // An element of class type (a row of a std::vector of std::array)
    // accumulates element by element.
    if (T->isRecordType())
      accumulateObject(adjointElement(K), Adj, T, Out);
    else
      Out.push_back(B.addAssign(adjointElement(K), Adj));
    return;
  }
  if (const Expr *Temp = temporaryRoot(Ctx, K)) {
    backpropTemporaryMember(K, Temp, Adj, T, Out);
    return;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(K)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return;
    if (VD->getType().getNonReferenceType()->isRecordType()) {
      accumulateObject(adjointStorage(VD), Adj, T, Out);
      return;
    }
    Out.push_back(B.addAssign(B.ref(adjointOf(VD)), Adj));
    return;
  }
  if (backpropAggregate(K, Adj, T, Out))
    return;
  // A side effect hoisted out of this expression: its value is its target.
  if (HoistedEffects.count(K)) {
    if (const auto *BO = dyn_cast<BinaryOperator>(K))
      backprop(BO->getLHS(), Adj, Out);
    else
      backprop(cast<UnaryOperator>(K)->getSubExpr(), Adj, Out);
    return;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(K)) {
    if (UO->getOpcode() == UO_Minus)
      backprop(UO->getSubExpr(), B.unop(UO_Minus, Adj), Out);
    else if (UO->getOpcode() == UO_Plus)
      backprop(UO->getSubExpr(), Adj, Out);
    else
      unsupported(UO, constructName(UO));
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(K)) {
    backpropBinary(BO, Adj, T, Out);
    return;
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(K)) {
    backpropConditional(CO, Adj, T, Out);
    return;
  }
  if (const auto *CE = dyn_cast<CallExpr>(K)) {
    backpropCall(CE, Adj, Out);
    return;
  }
  if (const auto *EC = dyn_cast<ExplicitCastExpr>(K)) {
    backprop(EC->getSubExpr(), Adj, Out);
    return;
  }
  unsupported(K, constructName(K));
}

void PullbackBuilder::backpropCall(const CallExpr *CE, Expr *Adj,
                                   Stmts &Out) {
  if (const CallExpr *LC = lambdaCall(CE); LC != CE) {
    backprop(LC, Adj, Out); // a local lambda: its lifted function
    return;
  }
  if (hasComparator(Facts::get(Ctx), CE)) {
    backprop(selectorForm(Facts::get(Ctx), CE), Adj, Out);
    return;
  }
  if (const CallExpr *PF = pointerForm(Facts::get(Ctx), CE)) {
    backprop(PF, Adj, Out); // std::accumulate(v.begin(), v.end(), 0.0)
    return;
  }
  const FunctionDecl *FD = CE->getDirectCallee();
  QualType T = CE->getType().getNonReferenceType().getUnqualifiedType();
  StringRef RName = runtimeName(CE);
  if (!RName.empty()) {
    backpropRuntime(CE, RName, Adj, Out);
    return;
  }
  if (ComplexCall CC; complexCall(CE, CC)) {
    backpropComplexCall(CE, CC, Adj, Out);
    return;
  }
  if (auto It = Plans.find(strip(CE));
      It != Plans.end() && It->second.Hoisted) {
    // A call that writes memory was reversed as a side effect of its
    // statement; its value's adjoint is its seed.
    if (VarDecl *Seed = It->second.Seed) {
      QualType ST = Seed->getType().getNonReferenceType();
      if (ST->isRecordType())
        accumulateObject(B.ref(Seed), Adj, ST, Out);
      else
        Out.push_back(B.addAssign(B.ref(Seed), Adj));
    } else if (CE->isLValue() && isFloating(T)) {
      // A reference into an argument (`r += twice(x)`): the value read is
      // that memory after the call, whose shadow takes the adjoint.
      Expr *Sh = refResultArg(CE) ? shadowLValue(*this, B, CE) : nullptr;
      if (!Sh) {
        unsupported(CE, "value of '" + spelled(CE) +
                            "', a reference the plugin cannot follow");
        return;
      }
      Out.push_back(B.addAssign(Sh, Adj));
    } else {
      unsupported(CE, "value of '" + spelled(CE) + "' (internal error: no "
                      "adjoint for a call that writes memory)");
    }
    return;
  }
  if (isa<CXXMethodDecl>(FD) && !cast<CXXMethodDecl>(FD)->isStatic()) {
    backpropMethodCall(CE, Adj, Out);
    return;
  }
  if (const Rule *Ru = findRule(FD)) {
    VarDecl *V = bind(Adj, T, Out);
    unsigned N = std::min<unsigned>(CE->getNumArgs(), Ru->Arity);
    for (unsigned I = N; I-- > 0;) {
      const Expr *Arg = CE->getArg(I);
      if (!Act.isActive(strip(Arg)))
        continue;
      SmallVector<Expr *, 3> Vals;
      if (!sinCosKey(CE, *Ru))
        for (unsigned J = 0; J < N; ++J)
          Vals.push_back((Ru->Uses[I] >> J) & 1 ? val(CE->getArg(J))
                                                : nullptr);
      Expr *Y = (Ru->Uses[I] & UsesResult) ? val(CE) : nullptr;
      Expr *Partial = sinCosKey(CE, *Ru) ? sinCosPartial(CE, *Ru)
                                          : buildPartial(B, *Ru, I, Vals, Y, T);
      if (!Partial) {
        Failed = true;
        return;
      }
      backprop(Arg, B.binop(BO_Mul, B.ref(V), Partial), Out);
    }
    return;
  }
  backpropUserCall(CE, Adj, Out);
}

} // namespace grad
