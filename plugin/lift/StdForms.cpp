//===- StdForms.cpp - Standard calls in forms the plugin follows -*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Builds the forms analysis/Selectors.h looks up: std::min / max / clamp
/// as `?:`, `(c ? a : b) op= e` as an if, algorithms over iterators of
/// contiguous containers as the same calls over pointers, and the
/// dereference of an algorithm's iterator result. Installed as the
/// analysis's FormBuilders when the plugin loads.
///
//===----------------------------------------------------------------------===//

#include "lift/StdForms.h"
#include "analysis/Facts.h"
#include "analysis/Paths.h"
#include "analysis/Selectors.h"
#include "ast/Records.h"
#include "ast/Rules.h"
#include "ast/SemaBuilder.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/Builtins.h"
#include "clang/Sema/Sema.h"
#include "clang/Sema/SemaInternal.h"

using namespace clang;

namespace grad {

namespace {
const ConditionalOperator *buildSelectorForm(const Facts &St,
                                             const CallExpr *CE) {
  bool Comp = false;
  Selector K = selectorKind(CE, Comp);
  if (K == Selector::None || !St.S)
    return nullptr;
  ASTContext &Ctx = St.S->getASTContext();
  unsigned Operands = K == Selector::Clamp ? 3 : 2;
  SmallVector<Expr *, 3> Ops;
  for (unsigned I = 0; I < Operands; ++I) {
    const Expr *A = CE->getArg(I);
    if (!reevaluable(A, Ctx))
      return nullptr;
    Ops.push_back(const_cast<Expr *>(A));
  }
  Expr *C = Comp ? comparatorObject(CE->getArg(Operands)) : nullptr;
  Sema &S = *St.S;
  Sema::SFINAETrap Trap(S);
  SemaBuilder B(S, CE->getBeginLoc());
  // less(a, b): a < b, or comp(a, b).
  auto Less = [&](Expr *L, Expr *R) -> Expr * {
    if (!C)
      return B.binop(BO_LT, L, R);
    Expr *Args[] = {L, R};
    ExprResult Call =
        S.BuildCallExpr(nullptr, C, CE->getBeginLoc(), Args, CE->getEndLoc());
    return Call.isInvalid() ? nullptr : Call.get();
  };
  Expr *Out = nullptr;
  switch (K) {
  case Selector::Min: // b < a ? b : a
    Out = B.cond(Less(Ops[1], Ops[0]), Ops[1], Ops[0]);
    break;
  case Selector::Max: // a < b ? b : a
    Out = B.cond(Less(Ops[0], Ops[1]), Ops[1], Ops[0]);
    break;
  case Selector::Clamp: { // v < lo ? lo : hi < v ? hi : v
    Expr *Inner = B.cond(Less(Ops[2], Ops[0]), Ops[2], Ops[0]);
    if (Inner)
      St.SelectorParts.insert(
          cast<ConditionalOperator>(Inner->IgnoreParens()));
    Out = Inner ? B.cond(Less(Ops[0], Ops[1]), Ops[1], Inner) : nullptr;
    break;
  }
  case Selector::None:
    break;
  }
  if (!Out || Trap.hasErrorOccurred() || B.Failed)
    return nullptr;
  const auto *CO = dyn_cast<ConditionalOperator>(Out->IgnoreParens());
  if (CO)
    St.SelectorParts.insert(CO);
  return CO;
}

const IfStmt *buildConditionalAssign(const Facts &St,
                                     const BinaryOperator *BO) {
  const auto *CO = cast<ConditionalOperator>(BO->getLHS()->IgnoreParens());
  Sema::SFINAETrap Trap(*St.S);
  SemaBuilder B(*St.S, BO->getBeginLoc());
  Expr *R = const_cast<Expr *>(BO->getRHS());
  Stmt *If = B.ifStmt(
      const_cast<Expr *>(CO->getCond()),
      B.binop(BO->getOpcode(), const_cast<Expr *>(CO->getTrueExpr()), R),
      B.binop(BO->getOpcode(), const_cast<Expr *>(CO->getFalseExpr()), R));
  return If && !B.Failed && !Trap.hasErrorOccurred() ? dyn_cast<IfStmt>(If)
                                                     : nullptr;
}
} // namespace

Expr *iteratorPointer(SemaBuilder &B, const Expr *E) {
  const Expr *K = E->IgnoreImplicit();
  if (const auto *CC = dyn_cast<CXXConstructExpr>(K))
    if (CC->getNumArgs() == 1 &&
        CC->getConstructor()->isCopyOrMoveConstructor())
      K = CC->getArg(0)->IgnoreImplicit();
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(K)) {
    const CXXMethodDecl *MD = MC->getMethodDecl();
    const Expr *Obj = MC->getImplicitObjectArgument();
    if (!MD || !MD->getIdentifier() || MC->getNumArgs() != 0 ||
        !Obj || !contiguousFloating(Obj->getType()))
      return nullptr;
    StringRef N = MD->getName();
    Expr *O = const_cast<Expr *>(Obj);
    if (N == "begin" || N == "cbegin")
      return B.memberCall(O, "data", {});
    if (N == "end" || N == "cend")
      return B.binop(BO_Add, B.memberCall(O, "data", {}),
                     B.memberCall(O, "size", {}));
    return nullptr;
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(K))
    if ((OC->getOperator() == OO_Plus || OC->getOperator() == OO_Minus) &&
        OC->getNumArgs() == 2 &&
        OC->getArg(1)->getType()->isIntegralOrEnumerationType())
      if (Expr *P = iteratorPointer(B, OC->getArg(0)))
        return B.binop(OC->getOperator() == OO_Plus ? BO_Add : BO_Sub, P,
                       const_cast<Expr *>(OC->getArg(1)));
  return nullptr;
}

/// \p A without the implicit conversion to `void *` of a memcpy argument:
/// the typed pointer it was (`a` decayed, `&x`, `v.data()`), or null.
static Expr *typedPointer(const Expr *A) {
  A = A->IgnoreParens();
  while (const auto *IC = dyn_cast<ImplicitCastExpr>(A)) {
    if (IC->getCastKind() != CK_BitCast && IC->getCastKind() != CK_NoOp)
      break;
    A = IC->getSubExpr()->IgnoreParens();
  }
  if (!A->getType()->isPointerType() ||
      !A->getType()->getPointeeType()->isRealFloatingType())
    return nullptr;
  return const_cast<Expr *>(A);
}

/// \p A as a pointer to floating elements: itself, or the pointer for an
/// iterator of a std::vector or std::array.
static Expr *elementPointer(SemaBuilder &B, const Expr *A) {
  if (A->getType()->isPointerType())
    return A->getType()->getPointeeType()->isRealFloatingType()
               ? const_cast<Expr *>(A)
               : nullptr;
  return iteratorPointer(B, A);
}

/// std::copy, std::copy_n over floating elements, and memcpy, memmove and
/// memset to zero of floating arrays: the runtime's element loops.
static Expr *elementCopyForm(SemaBuilder &B, const CallExpr *CE,
                             const FunctionDecl *FD, ASTContext &Ctx) {
  unsigned ID = FD->getBuiltinID();
  StringRef Name = FD->getName();
  bool Std = FD->isInStdNamespace() && FD->getPrimaryTemplate();
  if (Std && (Name == "copy" || Name == "copy_n") && CE->getNumArgs() == 3) {
    Expr *First = elementPointer(B, CE->getArg(0));
    Expr *Out = elementPointer(B, CE->getArg(2));
    if (!First || !Out)
      return nullptr;
    if (Name == "copy_n")
      return B.callRuntime("copy_n_elements", {},
                           {First, const_cast<Expr *>(CE->getArg(1)), Out});
    Expr *Last = elementPointer(B, CE->getArg(1));
    return Last ? B.callRuntime("copy_elements", {}, {First, Last, Out})
                : nullptr;
  }
  // std::sort(first, last[, comp]), std::stable_sort: the runtime's sort,
  // which swaps the elements into the order found on the values.
  if (Std && (Name == "sort" || Name == "stable_sort") &&
      (CE->getNumArgs() == 2 || CE->getNumArgs() == 3)) {
    Expr *First = elementPointer(B, CE->getArg(0));
    Expr *Last = First ? elementPointer(B, CE->getArg(1)) : nullptr;
    if (!Last)
      return nullptr;
    SmallVector<Expr *, 3> Args{First, Last};
    if (CE->getNumArgs() == 3)
      Args.push_back(const_cast<Expr *>(CE->getArg(2)));
    return B.callRuntime("sort_elements", {}, Args);
  }
  bool Copy = ID == Builtin::BImemcpy || ID == Builtin::BI__builtin_memcpy ||
              ID == Builtin::BImemmove || ID == Builtin::BI__builtin_memmove;
  bool Set = ID == Builtin::BImemset || ID == Builtin::BI__builtin_memset;
  if ((!Copy && !Set) || CE->getNumArgs() != 3)
    return nullptr;
  Expr *Dst = typedPointer(CE->getArg(0));
  if (!Dst)
    return nullptr;
  Expr *Bytes = const_cast<Expr *>(CE->getArg(2));
  if (Set) {
    // Only zero bytes make a floating value (0.0) of each element.
    Expr::EvalResult R;
    if (!CE->getArg(1)->EvaluateAsInt(R, Ctx) || R.Val.getInt() != 0)
      return nullptr;
    return B.callRuntime("zero_elements", {}, {Dst, Bytes});
  }
  Expr *Src = typedPointer(CE->getArg(1));
  if (!Src || !Ctx.hasSameUnqualifiedType(Src->getType()->getPointeeType(),
                                          Dst->getType()->getPointeeType()))
    return nullptr;
  return B.callRuntime("move_elements", {}, {Dst, Src, Bytes});
}

/// `std::min({a, b, c})` / `std::max({a, b, c})` of numbers: the same value
/// as `std::min(std::min(a, b), c)` (libstdc++ returns the first smallest,
/// or the first largest, element; nested two-argument calls keep the first
/// of equal ones too), whose derivative rules are known.
static Expr *minMaxListForm(SemaBuilder &B, const CallExpr *CE,
                            const FunctionDecl *FD) {
  if (!FD->isInStdNamespace() || isa<CXXMethodDecl>(FD) ||
      (FD->getName() != "min" && FD->getName() != "max") ||
      CE->getNumArgs() != 1 || !CE->getType()->isArithmeticType())
    return nullptr;
  const auto *IL = dyn_cast<CXXStdInitializerListExpr>(
      CE->getArg(0)->IgnoreImplicit());
  const auto *Elems =
      IL ? dyn_cast<InitListExpr>(IL->getSubExpr()->IgnoreImplicit())
         : nullptr;
  if (!Elems || Elems->getNumInits() < 2)
    return nullptr;
  Expr *R = const_cast<Expr *>(Elems->getInit(0));
  for (unsigned I = 1; I < Elems->getNumInits() && R; ++I)
    R = B.callStd(FD->getName(), {R, const_cast<Expr *>(Elems->getInit(I))});
  return R;
}

/// v.assign(first, last), v.insert(pos, first, last) over iterators of
/// contiguous containers: the same over pointers (null if an iterator is
/// not contiguous).
static Expr *iteratorRangeMemberForm(SemaBuilder &B,
                                     const CXXMemberCallExpr *MC,
                                     const FunctionDecl *FD) {
  unsigned N = MC->getNumArgs();
  Expr *First = iteratorPointer(B, MC->getArg(N - 2));
  Expr *Last = First ? iteratorPointer(B, MC->getArg(N - 1)) : nullptr;
  if (!Last)
    return nullptr;
  SmallVector<Expr *, 3> Args;
  if (N == 3)
    Args.push_back(const_cast<Expr *>(MC->getArg(0)));
  Args.push_back(First);
  Args.push_back(Last);
  return B.memberCall(const_cast<Expr *>(MC->getImplicitObjectArgument()),
                      FD->getName(), Args);
}

/// std::array::fill(x): std::fill over the array's data (null for any
/// other member call).
static Expr *arrayFillForm(SemaBuilder &B, const CXXMemberCallExpr *MC,
                           const FunctionDecl *FD) {
  const Expr *Obj = MC->getImplicitObjectArgument();
  if (FD->getName() != "fill" || MC->getNumArgs() != 1 || !Obj ||
      !contiguousFloating(Obj->getType()) ||
      Obj->getType().getNonReferenceType()->getAsCXXRecordDecl()->getName() !=
          "array")
    return nullptr;
  Expr *O = const_cast<Expr *>(Obj);
  return B.callStd("fill", {B.memberCall(O, "data", {}),
                            B.binop(BO_Add, B.memberCall(O, "data", {}),
                                    B.memberCall(O, "size", {})),
                            const_cast<Expr *>(MC->getArg(0))});
}

/// A std algorithm returning void or a number (or anything, where its
/// value is unused: \p Discarded), called with its iterators as pointers
/// (null if it takes none, or is no such algorithm).
static Expr *iteratorArgumentsForm(SemaBuilder &B, const CallExpr *CE,
                                   const FunctionDecl *FD, bool Discarded) {
  QualType RT = CE->getType();
  if (!FD->isInStdNamespace() || !FD->getPrimaryTemplate() ||
      isa<CXXMethodDecl>(FD) ||
      !(RT->isVoidType() || RT->isArithmeticType() || Discarded))
    return nullptr;
  SmallVector<Expr *, 4> Args;
  bool Any = false;
  for (const Expr *A : CE->arguments()) {
    if (isa<CXXDefaultArgExpr>(A))
      break;
    if (Expr *P = iteratorPointer(B, A)) {
      Args.push_back(P);
      Any = true;
    } else {
      Args.push_back(const_cast<Expr *>(A));
    }
  }
  if (!Any)
    return nullptr;
  return B.callStd(FD->getName(), Args);
}

static const CallExpr *buildPointerForm(const Facts &St, const CallExpr *CE) {
  const FunctionDecl *FD = CE->getDirectCallee();
  const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE);
  // v = {x, y} on a std::vector: v.assign({x, y}).
  bool BracedAssign = OC && OC->getOperator() == OO_Equal &&
                      OC->getNumArgs() == 2 && contiguousFloating(OC->getArg(0)->getType()) &&
                      bracedElements(OC->getArg(1));
  if (!FD || (!FD->getIdentifier() && !BracedAssign) || !St.S)
    return nullptr;
  Sema::SFINAETrap Trap(*St.S);
  SemaBuilder B(*St.S, CE->getBeginLoc());
  Expr *R = nullptr;
  if (BracedAssign) {
    R = B.memberCall(const_cast<Expr *>(OC->getArg(0)), "assign",
                     {const_cast<Expr *>(OC->getArg(1))});
  } else if (FD->isInStdNamespace() && FD->getName() == "swap" &&
             !isa<CXXMethodDecl>(FD) && CE->getNumArgs() == 2 &&
             floatingVector(CE->getArg(0)->getType()) &&
             floatingVector(CE->getArg(1)->getType())) {
    // std::swap(v, w) of two vectors: v.swap(w).
    R = B.memberCall(const_cast<Expr *>(CE->getArg(0)), "swap",
                     {const_cast<Expr *>(CE->getArg(1))});
  } else if (Expr *Chain = minMaxListForm(B, CE, FD)) {
    R = Chain;
  } else if (Expr *Copy = elementCopyForm(B, CE, FD, St.S->Context)) {
    R = Copy;
  } else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE);
      MC && (FD->getName() == "assign" || FD->getName() == "insert") &&
      MC->getNumArgs() >= 2 && contiguousFloating(MC->getObjectType())) {
    R = iteratorRangeMemberForm(B, MC, FD);
  } else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
    R = arrayFillForm(B, MC, FD);
  } else {
    R = iteratorArgumentsForm(B, CE, FD, St.StatementCalls.count(CE));
  }
  if (!R || B.Failed || Trap.hasErrorOccurred())
    return nullptr;
  const auto *Call = dyn_cast<CallExpr>(R->IgnoreImplicit());
  if (!Call)
    return nullptr;
  // (A copy into an iterator returns a pointer instead, memcpy nothing:
  // only where their value is not used.)
  if (!St.S->Context.hasSameUnqualifiedType(Call->getType(), CE->getType()) &&
      !((Call->getType()->isVoidType() ||
         (Call->getType()->isPointerType() && CE->getType()->isRecordType())) &&
        St.StatementCalls.count(CE)))
    return nullptr;
  return Call;
}

static const Expr *buildDerefForm(const Facts &St,
                                  const CXXOperatorCallExpr *OC) {
  // *it, or it - v.begin() (the index of the element found).
  bool Deref = OC->getOperator() == OO_Star && OC->getNumArgs() == 1;
  bool Index = OC->getOperator() == OO_Minus && OC->getNumArgs() == 2;
  if ((!Deref && !Index) || !St.S)
    return nullptr;
  const auto *CE = dyn_cast<CallExpr>(OC->getArg(0)->IgnoreImplicit());
  const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
  if (!FD || !FD->isInStdNamespace() || !FD->getPrimaryTemplate() ||
      isa<CXXMethodDecl>(FD) || !FD->getIdentifier())
    return nullptr;
  // The arguments of the result's iterator type become pointers.
  QualType RT = CE->getType().getCanonicalType().getUnqualifiedType();
  Sema::SFINAETrap Trap(*St.S);
  SemaBuilder B(*St.S, CE->getBeginLoc());
  SmallVector<Expr *, 4> Args;
  bool Any = false;
  for (const Expr *A : CE->arguments()) {
    if (isa<CXXDefaultArgExpr>(A))
      break;
    QualType AT = A->getType().getCanonicalType().getUnqualifiedType();
    if (AT != RT) {
      Args.push_back(const_cast<Expr *>(A));
      continue;
    }
    Expr *P = iteratorPointer(B, A);
    if (!P)
      return nullptr;
    Args.push_back(P);
    Any = true;
  }
  if (!Any)
    return nullptr;
  Expr *R = B.callStd(FD->getName(), Args);
  if (!R || B.Failed || Trap.hasErrorOccurred() ||
      !R->getType()->isPointerType() ||
      !R->getType()->getPointeeType()->isRealFloatingType())
    return nullptr;
  Expr *D;
  if (Deref) {
    D = B.deref(R);
  } else {
    Expr *From = iteratorPointer(B, OC->getArg(1));
    D = From ? B.binop(BO_Sub, R, From) : nullptr;
  }
  return D && !B.Failed && !Trap.hasErrorOccurred() ? D : nullptr;
}

/// The operator a function object of `<functional>` applies
/// (`std::multiplies<double>()(a, b)` is `a * b`, `std::negate<>{}(a)` is
/// `-a`), built over the call's own operands when they are arithmetic and
/// the object has no side effects; null otherwise.
static const Expr *buildFunctionalForm(const Facts &St,
                                       const CXXOperatorCallExpr *OC) {
  if (OC->getOperator() != OO_Call || !St.S)
    return nullptr;
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(OC->getDirectCallee());
  const CXXRecordDecl *RD = MD ? MD->getParent() : nullptr;
  if (!RD || !RD->isInStdNamespace() || !RD->getIdentifier() ||
      OC->getArg(0)->HasSideEffects(St.S->Context) ||
      !OC->getType()->isArithmeticType())
    return nullptr;
  for (unsigned I = 1; I < OC->getNumArgs(); ++I)
    if (!OC->getArg(I)->getType().getNonReferenceType()->isArithmeticType())
      return nullptr;
  static const std::pair<StringRef, BinaryOperatorKind> Binary[] = {
      {"plus", BO_Add},         {"minus", BO_Sub},
      {"multiplies", BO_Mul},   {"divides", BO_Div},
      {"less", BO_LT},          {"greater", BO_GT},
      {"less_equal", BO_LE},    {"greater_equal", BO_GE},
      {"equal_to", BO_EQ},      {"not_equal_to", BO_NE}};
  StringRef Name = RD->getName();
  Sema::SFINAETrap Trap(*St.S);
  SemaBuilder B(*St.S, OC->getBeginLoc());
  Expr *F = nullptr;
  if (Name == "negate" && OC->getNumArgs() == 2)
    F = B.unop(UO_Minus, const_cast<Expr *>(OC->getArg(1)));
  for (auto [N, Op] : Binary)
    if (Name == N && OC->getNumArgs() == 3)
      F = B.binop(Op, const_cast<Expr *>(OC->getArg(1)),
                  const_cast<Expr *>(OC->getArg(2)));
  if (!F || B.Failed || Trap.hasErrorOccurred())
    return nullptr;
  // (`std::plus<>` of an int and a double: the call's type, as the object
  // would return it.)
  if (!St.S->Context.hasSameUnqualifiedType(F->getType(), OC->getType()))
    F = B.staticCast(OC->getType().getUnqualifiedType(), F);
  return F && !B.Failed && !Trap.hasErrorOccurred() ? F : nullptr;
}

static const bool Installed = [] {
  StdFormBuilders.Selector = &buildSelectorForm;
  StdFormBuilders.ConditionalAssign = &buildConditionalAssign;
  StdFormBuilders.Pointer = &buildPointerForm;
  StdFormBuilders.Deref = &buildDerefForm;
  StdFormBuilders.Functional = &buildFunctionalForm;
  return true;
}();

} // namespace grad
