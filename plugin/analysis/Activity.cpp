//===- Activity.cpp - Activity and write analysis ---------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "analysis/Activity.h"
#include "analysis/Positions.h"
#include "ast/NodePolicy.h"
#include "analysis/Callables.h"
#include "analysis/Paths.h"
#include "ast/Records.h"
#include "analysis/Selectors.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace grad {

const VarDecl *Activity::rootOf(const Expr *E, bool &IsThis) const {
  IsThis = false;
  if (!E)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (isa<CXXThisExpr>(E)) {
    IsThis = true;
    return nullptr;
  }
  if (const Expr *A = movedArg(E))
    return rootOf(A, IsThis);
  if (const Expr *A = accessorArg(E))
    return rootOf(A, IsThis);
  if (const Expr *A = objectArg(E)) // m.row(i), m(i, j)
    return rootOf(A, IsThis);
  // A helper that computes a pointer into one of its arguments.
  if (const Expr *A = pointedArg(E))
    return rootOf(A, IsThis);
  // A copy of an iterator (passed by value): what it points into.
  if (const auto *CC = dyn_cast<CXXConstructExpr>(E->IgnoreImplicit()))
    if (CC->getNumArgs() == 1 &&
        CC->getConstructor()->isCopyOrMoveConstructor() &&
        holdsWritablePointer(CC->getType()))
      return rootOf(CC->getArg(0)->IgnoreImplicit(), IsThis);
  // v.begin(), v.end(), v.rbegin(): iterators into v.
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E->IgnoreImplicit()))
    if (isStdAccessor(MC->getMethodDecl()) && !MC->getType()->isReferenceType())
      return rootOf(MC->getImplicitObjectArgument(), IsThis);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *BD = dyn_cast<BindingDecl>(DRE->getDecl()))
      return bindingPart(BD) ? rootOf(bindingPart(BD), IsThis) : nullptr;
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    return VD ? storageOf(VD) : nullptr;
  }
  if (const Expr *B = pathBase(E))
    return rootOf(B, IsThis);
  if (const Expr *B = pointerBase(E))
    return rootOf(B, IsThis);
  // std::max(a, b) and friends: a reference to one of their operands.
  if (const ConditionalOperator *SF = selectorForm(St, E))
    return rootOf(SF, IsThis);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    bool T1, T2;
    const VarDecl *A = rootOf(CO->getTrueExpr(), T1);
    const VarDecl *B = rootOf(CO->getFalseExpr(), T2);
    if (A == B && T1 == T2) {
      IsThis = T1;
      return A;
    }
    return nullptr;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAssignmentOp())
      return rootOf(BO->getLHS(), IsThis);
    if (BO->getOpcode() == BO_Comma)
      return rootOf(BO->getRHS(), IsThis);
  }
  return nullptr;
}

SmallVector<const VarDecl *, 2> Activity::mayReach(const Expr *E) const {
  SmallVector<const VarDecl *, 2> Out;
  if (!E)
    return Out;
  bool IsThis = false;
  if (const VarDecl *R = rootOf(E, IsThis)) {
    Out.push_back(R);
    return Out;
  }
  const Expr *K = E->IgnoreParenImpCasts();
  while (true) {
    if (const auto *UO = dyn_cast<UnaryOperator>(K);
        UO && (UO->getOpcode() == UO_AddrOf || UO->getOpcode() == UO_Deref)) {
      K = UO->getSubExpr()->IgnoreParenImpCasts();
      continue;
    }
    if (const Expr *B = pathBase(K)) {
      K = B->IgnoreParenImpCasts();
      continue;
    }
    if (const Expr *B = pointerBase(K)) {
      K = B->IgnoreParenImpCasts();
      continue;
    }
    break;
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(K)) {
    for (const Expr *Arm : {CO->getTrueExpr(), CO->getFalseExpr()})
      for (const VarDecl *R : mayReach(Arm))
        if (!llvm::is_contained(Out, R))
          Out.push_back(R);
    return Out;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(K))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      Out.append(rootsOf(VD).begin(), rootsOf(VD).end());
  return Out;
}

bool Activity::capturesActive(const CallExpr *CE) const {
  // A call of a local lambda also reads what the lambda captures.
  const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE);
  if (!OC || OC->getOperator() != OO_Call || OC->getNumArgs() == 0)
    return false;
  if (const LambdaExpr *L = findLambda(OC->getArg(0)))
    for (const LambdaCapture &C : L->captures()) {
      if (C.capturesThis() && ThisActive)
        return true;
      if (C.capturesVariable())
        if (const auto *VD = dyn_cast<VarDecl>(C.getCapturedVar()))
          if (isActive(VD))
            return true;
    }
  return false;
}

bool Activity::reachesActive(const Expr *E) const {
  if (!E)
    return false;
  QualType T = E->getType();
  if (T->isPointerType() || T->isArrayType()) {
    bool IsThis = false;
    const VarDecl *R = rootOf(E, IsThis);
    if ((R && isActive(R)) || (IsThis && ThisActive))
      return true;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (VD->isLocalVarDecl() && holdsFloatingPointer(VD->getType()) &&
          VD->hasInit() && VD->getInit() != E)
        return reachesActive(VD->getInit());
  for (const Stmt *C : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(C))
      if (reachesActive(CE))
        return true;
  return false;
}

bool Activity::pathIsActive(const Expr *E) const {
  // Through a pointer of unknown origin: it may be differentiated.
  bool IsThis = false;
  const VarDecl *R = rootOf(E, IsThis);
  if (!R && !IsThis && RootsDecide) {
    // (Through a pointer into several known storages: one of them.)
    auto Rs = mayReach(E);
    if (!Rs.empty())
      return llvm::any_of(Rs, [&](const VarDecl *V) { return isActive(V); });
  }
  return IsThis ? ThisActive : (!R || isActive(R));
}

bool Activity::argumentIsActive(const Expr *A) const {
  if (compute(A))
    return true;
  // An object holding a pointer into active memory (`View{a, n}`): the
  // callee reads derivatives through it (the builder refuses it).
  if (holdsFloatingPointer(A->getType()) && reachesActive(A))
    return true;
  // Pointers to (and containers of) active data.
  QualType AT = A->getType();
  if (AT->isPointerType() || A->isGLValue()) {
    bool IsThis = false;
    const VarDecl *R = rootOf(A, IsThis);
    if ((R && isActive(R)) || (IsThis && ThisActive))
      return true;
    // A local pointer into several storages, or into one it cannot
    // name: it may point into differentiated memory.
    if (!R && !IsThis &&
        hasFloatingData(AT->isPointerType() ? AT->getPointeeType()
                                            : AT.getNonReferenceType()))
      if (const VarDecl *P = pathRoot(A, IsThis))
        if (isAlias(P) && !storageOf(P) &&
            (!RootsDecide || rootsOf(P).empty() || isActive(P)))
          return true;
  }
  return false;
}

bool Activity::callIsActive(const CallExpr *CE) const {
  if (const FunctionDecl *FD = CE->getDirectCallee())
    if (St.isNodiff(FD))
      return false;
  if (capturesActive(CE))
    return true;
  for (const Expr *A : CE->arguments())
    if (argumentIsActive(A))
      return true;
  // obj.method(...) on an object that carries derivatives.
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
    const Expr *Obj = MC->getImplicitObjectArgument();
    bool IsThis = false;
    const VarDecl *Root = Obj ? rootOf(Obj, IsThis) : nullptr;
    if ((Root && isActive(Root)) || (IsThis && ThisActive))
      return true;
    // A temporary object built from active values (Vec3(x, y, z).norm()).
    if (Obj && !Root && !IsThis && compute(Obj))
      return true;
  }
  return false;
}

bool Activity::constructionIsActive(const CXXConstructExpr *CE) const {
  for (const Expr *A : CE->arguments()) {
    if (compute(A))
      return true;
    if (A->getType()->isPointerType()) {
      bool IsThis = false;
      const VarDecl *R = rootOf(A, IsThis);
      if ((R && isActive(R)) || (IsThis && ThisActive))
        return true;
    }
  }
  return false;
}

bool Activity::compute(const Expr *E) const {
  if (!E)
    return false;
  E = E->IgnoreParens();
  // (A full expression is what it wraps: `new T{.., std::negate<>{}(x)}`
  // is one with cleanups.)
  if (const auto *FE = dyn_cast<FullExpr>(E))
    return compute(FE->getSubExpr());
  if (const Expr *F = derefFormOf(E))
    return compute(F);
  // `new double(x)`, `new T{x, y}`: the object starts with active values.
  if (const auto *NE = dyn_cast<CXXNewExpr>(E))
    return !NE->isArray() && NE->getInitializer() &&
           hasFloatingData(NE->getAllocatedType()) &&
           compute(NE->getInitializer());
  QualType T = E->getType().getNonReferenceType();
  // Floating values, and arrays and objects that hold them.
  if (!isFloating(T) && !hasFloatingData(T))
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    // A structured binding: the part of the decomposed object it names.
    if (const auto *BD = dyn_cast<BindingDecl>(DRE->getDecl()))
      return bindingPart(BD) && compute(bindingPart(BD));
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    return VD && isActive(VD);
  }
  if (const VarDecl *VD = elementVar(E))
    return isActive(VD);
  if (isThisPath(E))
    return ThisActive;
  if (pathBase(E))
    return pathIsActive(E);
  if (const auto *CE = dyn_cast<CallExpr>(E))
    return callIsActive(CE);
  // What a default member initializer or an opaque value stands for.
  if (const auto *DI = dyn_cast<CXXDefaultInitExpr>(E))
    return compute(DI->getExpr());
  if (const auto *OV = dyn_cast<OpaqueValueExpr>(E))
    return compute(OV->getSourceExpr());
  // Default deny (NodePolicy.def): a construct that is not modelled and
  // may carry a derivative by its type is active, so that the builders
  // report it; only a registered class proves itself inactive.
  switch (nodePolicy(E->getStmtClass())) {
  case NodePolicy::Inert:
    return false;
  case NodePolicy::Refused:
  case NodePolicy::Foreign:
  case NodePolicy::Unregistered:
    return true;
  case NodePolicy::Modeled:
  case NodePolicy::Operands:
    break;
  }
  // Containers built from pointers into active memory (v(p, p + n)).
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E))
    if (constructionIsActive(CE))
      return true;
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      if (compute(CE))
        return true;
  return false;
}

bool Activity::isActive(const Expr *E) {
  if (!Done)
    return compute(E);
  auto It = Cache.find(E);
  if (It != Cache.end())
    return It->second;
  bool R = compute(E);
  Cache[E] = R;
  return R;
}

namespace {
/// A variable that can carry derivatives: floating, a differentiable
/// parameter kind, or an array of floating data.
bool isEligible(const VarDecl *VD) {
  if (positionOnly(VD))
    return false; // an index in disguise
  return isFloating(VD->getType().getNonReferenceType()) ||
         classifyParam(const_cast<ASTContext &>(VD->getASTContext()),
                       VD->getType())
                 .Kind != ParamKind::None ||
         (VD->getType()->isArrayType() && hasFloatingData(VD->getType()));
}
} // namespace

void Activity::seedActive(const FunctionDecl *FD, const WrtMask &Wrt) {
  ThisActive = hasThisAdjoint(FD) && Wrt.size() > FD->getNumParams() &&
               Wrt.back();
  for (unsigned I = 0; I < FD->getNumParams(); ++I)
    if (I < Wrt.size() && Wrt[I]) {
      Active.insert(FD->getParamDecl(I));
      Order.push_back(FD->getParamDecl(I));
    }
  for (const VarDecl *V : Seeds)
    if (Active.insert(V).second)
      Order.push_back(V);
}

void Activity::activate(const VarDecl *VD) {
  Active.insert(VD);
  Order.push_back(VD);
}

bool Activity::effectHasActiveInput(const CallExpr *CE) const {
  bool In = false;
  for (const Expr *A : CE->arguments()) {
    bool IsThis = false;
    const VarDecl *R = (A->getType()->isPointerType() || A->isGLValue())
                           ? rootOf(A, IsThis)
                           : nullptr;
    In |= compute(A) || (R && isActive(R)) || (IsThis && ThisActive);
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
    bool IsThis = false;
    const VarDecl *R = rootOf(MC->getImplicitObjectArgument(), IsThis);
    In |= (R && isActive(R)) || (IsThis && ThisActive);
  }
  return In || capturesActive(CE);
}

void Activity::propagateActivity(const Writes &C) {
  // Fixed point: a variable is active if any definition of it is active,
  // or a call that may write it has an active input. Each round adds at
  // least one variable, so this is linear in the number of variables times
  // the number of definitions in the worst case and one or two rounds in
  // practice.
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (auto &[V, Range] : C.Ranges)
      if (!Active.count(V) && (Range ? isActive(Range) : ThisActive)) {
        activate(V);
        Changed = true;
      }
    for (auto &[VD, Init] : C.Defs) {
      // (RootsDecide: a pointer into storage it cannot name is active when
      // a definition reaches active memory.)
      if (RootsDecide && isAlias(VD) && !storageOf(VD) && !Roots.count(VD) &&
          !Active.count(VD) && reachesActive(Init)) {
        activate(VD);
        Changed = true;
        continue;
      }
      if (C.RangeVars.count(VD) || Active.count(VD) ||
          (isAlias(VD) && !isOwner(VD)) || !isEligible(VD))
        continue;
      if (compute(Init)) {
        activate(VD);
        Changed = true;
      }
    }
    for (auto &[VD, CE] : C.Effects) {
      if (Active.count(VD) || !isEligible(VD))
        continue;
      if (effectHasActiveInput(CE)) {
        activate(VD);
        Changed = true;
      }
    }
  }
}

void Activity::collectLost(const Writes &C) {
  // Active values stored into memory that only a variable carrying no
  // derivatives reaches: an object (or a pointer to one) holding pointers
  // to floating data and no floating data of its own.
  // (Also through pointers to, arrays and containers of such objects.)
  auto Opaque = [&](const VarDecl *VD) {
    const ASTContext &Ctx = VD->getASTContext();
    QualType T = VD->getType().getNonReferenceType();
    for (unsigned Depth = 0; Depth < 4; ++Depth) {
      if (T->isPointerType())
        T = T->getPointeeType();
      else if (const ArrayType *AT = Ctx.getAsArrayType(T))
        T = AT->getElementType();
      else if (QualType ET = elementTypeOf(Ctx, T); !ET.isNull())
        T = ET;
      else
        break;
    }
    return !isEligible(VD) && !C.RangeVars.count(VD) && holdsFloatingPointer(T);
  };
  for (auto &[VD, Init] : C.Defs)
    if (Init && Opaque(VD) && compute(Init))
      Lost.push_back({VD, Init});
  for (auto &[VD, CE] : C.Effects)
    if (Opaque(VD) && effectHasActiveInput(CE))
      Lost.push_back({VD, CE});
}

void Activity::collectBitCopies(const Stmt *S) {
  if (!S)
    return;
  if (const auto *CE = dyn_cast<CallExpr>(S)) {
    QualType To;
    if (const Expr *Src = bitCopySource(CE, To)) {
      bool IsThis = false;
      const VarDecl *R =
          Src->getType()->isPointerType() ? rootOf(Src, IsThis) : nullptr;
      if (compute(Src) || (R && isActive(R)) || (IsThis && ThisActive) ||
          (Src->getType()->isPointerType() && !R && !IsThis))
        BitCopies.push_back(CE);
    }
  }
  for (const Stmt *C : S->children())
    collectBitCopies(C);
}

void Activity::run(const FunctionDecl *FD, const WrtMask &Wrt) {
  seedActive(FD, Wrt);
  computeAliases(FD->getBody());
  Body = FD->getBody();
  Writes C;
  collectWrites(FD->getBody(), C);
  // A constructor's member initialisers write the object.
  if (isa<CXXConstructorDecl>(FD))
    ThisWritten = true;
  propagateActivity(C);
  collectLost(C);
  collectBitCopies(Body);
  Done = true;
}

std::string Activity::print() const {
  std::string S = "active:";
  for (const VarDecl *VD : Order)
    S += " " + VD->getNameAsString();
  S += "; written:";
  SmallVector<std::string, 8> W;
  for (const VarDecl *VD : Written)
    W.push_back(VD->getNameAsString());
  llvm::sort(W);
  for (const std::string &N : W)
    S += " " + N;
  if (!Alias.empty()) {
    SmallVector<std::string, 4> A;
    for (auto &[VD, R] : Alias)
      A.push_back(VD->getNameAsString() + " -> " +
                  (R ? R->getNameAsString() : std::string("?")));
    llvm::sort(A);
    S += "; aliases:";
    for (const std::string &N : A)
      S += " " + N;
  }
  return S;
}

} // namespace grad
