//===- VectorPullbacks.cpp - Linear mode of the tangent builder -----------===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Vector pullbacks (`[[grad("lanes=N")]]`): the tangent builder in linear
/// mode over a generated pullback, along its seed and adjoints
/// (design.md, "Forward mode and Hessian-vector products"): which of the
/// pullback's variables are adjoints, the placeholders of their values,
/// the lanes of shadow allocations, and the entry point.
///
//===----------------------------------------------------------------------===//

#include "forward/TangentBuilder.h"
#include "ast/Diagnostics.h"

namespace grad {
namespace tangent {

void TangentBuilder::bindVectorPullback() {
  // The scalar pullback's parameters, one for one: the primal's values,
  // then the seed and the adjoints, dropped (their lanes only).
  unsigned N = Primal->getNumParams();
  WrtMask Adj(Def->getNumParams(), false);
  for (unsigned I = 0; I < Def->getNumParams(); ++I) {
    const ParmVarDecl *P = Def->getParamDecl(I);
    if (I < N) {
      // (The scalar pullback's names: a re-seated pointer parameter's is
      // its stand-in's, the local keeping the primal's, EntryCopies.h.)
      if (P->getDeclName() != Fn->getParamDecl(I)->getDeclName())
        Fn->getParamDecl(I)->setDeclName(P->getDeclName());
      Vals[P] = Fn->getParamDecl(I);
      continue;
    }
    Adj[I] = true;
    Dropped.insert(P);
    Tans[P] = Fn->getParamDecl(I);
  }
  runLinearActivity(Adj);
}

void TangentBuilder::runLinearActivity(const WrtMask &Adj) {
  // A write through a pointer that may reach several variables (`*((c ?
  // &_d_a : &_d_b) + o) += e`, the adjoint of a pointer re-seated between
  // variables) makes each of them an adjoint when one is or the value is:
  // again until nothing changes.
  SmallVector<const VarDecl *, 4> Extra;
  for (;;) {
    LinAct = std::make_unique<Activity>(Facts::get(Ctx));
    LinAct->RootsDecide = true;
    LinAct->Seeds = Extra;
    LinAct->run(Def, Adj);
    bool Changed = false;
    std::function<void(const Stmt *)> Walk = [&](const Stmt *St) {
      if (!St)
        return;
      if (const auto *BO = dyn_cast<BinaryOperator>(St);
          BO && BO->isAssignmentOp()) {
        auto Reach = LinAct->mayReach(BO->getLHS());
        bool Any = LinAct->isActive(BO->getRHS()) ||
                   llvm::any_of(Reach, [&](const VarDecl *V) {
                     return LinAct->isActive(V);
                   });
        // (Through a pointer into storage it cannot name, such as the
        // shadow of scratch memory, `_d_tmp[i] += e`: the pointer.)
        bool IsThis = false;
        if (Reach.empty())
          if (const VarDecl *P = pathRoot(BO->getLHS(), IsThis);
              P && P->getType()->isPointerType())
            Reach.push_back(P);
        if (Any && (Reach.size() > 1 ||
                    (Reach.size() == 1 && !LinAct->isActive(Reach[0]) &&
                     Reach[0]->getType()->isPointerType())))
          for (const VarDecl *V : Reach)
            if (!LinAct->isActive(V) && !llvm::is_contained(Extra, V)) {
              Extra.push_back(V);
              Changed = true;
            }
      }
      // Likewise what a writable pointer argument of a call with adjoint
      // arguments may reach (the callee, a reverse half, accumulates
      // through it: `_grad_g_rev(..., (c ? &_d_x : d_out) + o, &_g0)`).
      if (const auto *CE = dyn_cast<CallExpr>(St)) {
        bool Any = llvm::any_of(CE->arguments(), [&](const Expr *A) {
          return LinAct->isActive(A) || LinAct->reachesActive(A);
        });
        for (const Expr *A : CE->arguments()) {
          QualType AT = A->getType();
          if (!Any || !AT->isPointerType() ||
              AT->getPointeeType().isConstQualified() ||
              !(isFloating(AT->getPointeeType()) ||
                hasFloatingData(AT->getPointeeType())))
            continue;
          auto Reach = LinAct->mayReach(A);
          for (const VarDecl *V : Reach)
            if (!LinAct->isActive(V) && !llvm::is_contained(Extra, V)) {
              Extra.push_back(V);
              Changed = true;
            }
        }
      }
      for (const Stmt *C : St->children())
        Walk(C);
    };
    Walk(Def->getBody());
    if (!Changed)
      return;
  }
}

std::string TangentBuilder::adjointName(StringRef N) {
  // The reverse builder names adjoints `_d_x` (or `_d_x_3` when that is
  // taken: PullbackBuilder::fresh) and its temporaries `_g0`.
  if (N.consume_front("_d_")) {
    if (StringRef Head = N.rtrim("0123456789");
        Head.size() < N.size() && Head.ends_with("_"))
      N = Head.drop_back();
    return "the adjoint of '" + N.str() + "'";
  }
  if (N.starts_with("_g"))
    return "the adjoint of a temporary";
  if (N.starts_with("d_"))
    return "the adjoint '" + N.str() + "'";
  return "local '" + N.str() + "'";
}

bool TangentBuilder::linearActive(const VarDecl *VD) const {
  if (!LinAct)
    return false;
  return LinAct->isActive(VD); // (RootsDecide)
}

VarDecl *TangentBuilder::poisonFor(const VarDecl *VD) {
  VarDecl *&P = Poison[VD];
  if (!P) {
    P = B.var(Fn, "_grad_value_of_" + VD->getNameAsString(),
              VD->getType().getNonReferenceType().getUnqualifiedType(),
              nullptr);
    PoisonVars.insert(P);
  }
  return P;
}

bool TangentBuilder::checkPoison(const Stmt *St) {
  if (!St)
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(St))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && PoisonVars.count(VD)) {
      fail(DRE, "use of " + adjointName(VD->getName().drop_front(15)) +
                    " as a value");
      return false;
    }
  for (const Stmt *C : St->children())
    if (!checkPoison(C))
      return false;
  return true;
}

std::string TangentBuilder::linearPrimalName() const {
  if (VP)
    return nameOf(Primal);
  // A callee's reverse half or pullback: the callee.
  for (const auto &E : D.entries())
    if (E->Rev == Def || E->Pullback == Def || E->Fwd == Def)
      return nameOf(E->Primal);
  return nameOf(Def);
}

VT TangentBuilder::linearShadowAlloc(const Expr *X) {
  // `static_cast<T *>(grad::detail::shadow_alloc(bytes))`: the shadow of
  // scratch memory; its lanes take Lanes times the bytes.
  const auto *C = dyn_cast<ExplicitCastExpr>(X);
  const auto *CE =
      C ? dyn_cast<CallExpr>(C->getSubExpr()->IgnoreParenImpCasts()) : nullptr;
  const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier() || FD->getName() != "shadow_alloc" ||
      CE->getNumArgs() != 1 || !C->getType()->isPointerType() ||
      !StringRef(FD->getQualifiedNameAsString()).starts_with("grad::detail::"))
    return {};
  VT Bytes = expr(CE->getArg(0), false);
  QualType TT = tanType(C->getType());
  if (!Bytes.V || TT.isNull())
    return {};
  Expr *N = B.binop(BO_Mul, B.paren(Bytes.V),
                    B.intLit(Lanes, CE->getArg(0)->getType()));
  Expr *Alloc = B.call(B.funcRef(const_cast<FunctionDecl *>(FD)), {N});
  // (The value side is never emitted: the pointer is an adjoint.)
  return {B.staticCast(C->getType(), B.call(B.funcRef(const_cast<FunctionDecl *>(FD)), {Bytes.V})),
          B.staticCast(TT, Alloc)};
}

} // namespace tangent

bool buildVectorPullback(DerivativeRequests &D, VectorPullbackEntry &V,
                         const clang::FunctionDecl *Pullback) {
  return tangent::TangentBuilder(D, V, Pullback).build();
}

} // namespace grad
