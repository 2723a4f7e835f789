//===- Containers.cpp - Arrays and containers of floating data --*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Local arrays and containers initialised from differentiated values
/// (`double a[] = {x, y}`, `std::array<double, 2> a{x, y}`,
/// `std::vector<double> v{u, w}`, `v(n, x)`, `v(p, p + n)`): the forward
/// sweep declares them as written; when the reverse sweep reaches the
/// declaration, each initializer receives the adjoint of the element it
/// initialised (`x` the sum of all of them for `v(n, x)`), read from the
/// shadow before it is zeroed.
///
/// Mutations of a local std::vector keep its shadow the same size at every
/// point: the forward sweep mirrors them on the shadow (push_back(0),
/// resize), the reverse sweep undoes them (the pushed value receives the
/// last element's adjoint, pop_back), with the sizes recorded where the
/// reverse needs them.
///
//===----------------------------------------------------------------------===//

#include "Consumer.h"
#include "PullbackBuilder.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace grad {

static const Expr *strip(const Expr *E) { return stripExpr(E); }

static bool isStdClass(QualType T, StringRef Name) {
  const auto *RD = T->getAsCXXRecordDecl();
  return RD && RD->isInStdNamespace() && RD->getIdentifier() &&
         RD->getName() == Name;
}

Expr *PullbackBuilder::rebuildInitList(const InitListExpr *IL,
                                       SmallVector<unsigned, 2> Prefix,
                                       StorageInit &SI) {
  SmallVector<Expr *, 8> Elems;
  for (unsigned I = 0; I < IL->getNumInits(); ++I) {
    const Expr *E = IL->getInit(I);
    if (isa<ImplicitValueInitExpr>(E))
      break; // the rest is value-initialised again
    SmallVector<unsigned, 2> Path = Prefix;
    Path.push_back(I);
    if (const auto *Inner = dyn_cast<InitListExpr>(strip(E))) {
      Elems.push_back(rebuildInitList(Inner, Path, SI));
      continue;
    }
    if (Act.isActive(strip(E))) {
      SI.Elems.push_back({Path, E});
      Elems.push_back(fwd(E, false));
    } else {
      Elems.push_back(plain(E));
    }
  }
  ExprResult R = S.ActOnInitList(B.Loc, Elems, B.Loc);
  return R.isInvalid() ? nullptr : R.get();
}

bool PullbackBuilder::storageInit(const VarDecl *VD, const Expr *Init,
                                  StorageInit &SI) {
  QualType T = VD->getType();
  if (const auto *IL = dyn_cast<InitListExpr>(Init)) {
    // std::array<double, N> a = {x, y}: the braces of its member array
    // are implicit; its elements are a[i].
    if (isStdClass(T, "array") && IL->getNumInits() == 1)
      if (const auto *Inner = dyn_cast<InitListExpr>(strip(IL->getInit(0)))) {
        Expr *InnerList = rebuildInitList(Inner, {}, SI);
        ExprResult R = S.ActOnInitList(B.Loc, {InnerList}, B.Loc);
        SI.FwdInit = R.isInvalid() ? nullptr : R.get();
        return !Failed;
      }
    SI.FwdInit = rebuildInitList(IL, {}, SI);
    return !Failed;
  }
  const auto *CE = cast<CXXConstructExpr>(Init);
  // std::vector<double> v{u, w}: the elements of the initializer list.
  if (CE->getNumArgs() >= 1)
    if (const auto *SIL =
            dyn_cast<CXXStdInitializerListExpr>(strip(CE->getArg(0)))) {
      const auto *IL = dyn_cast<InitListExpr>(strip(SIL->getSubExpr()));
      if (!IL) {
        unsupported(CE, "initializer list");
        return false;
      }
      SI.FwdInit = rebuildInitList(IL, {}, SI);
      return !Failed;
    }
  SmallVector<Expr *, 4> Args;
  unsigned N = 0;
  for (const Expr *A : CE->arguments()) {
    if (isa<CXXDefaultArgExpr>(A))
      break;
    ++N;
  }
  for (unsigned I = 0; I < N; ++I) {
    const Expr *A = CE->getArg(I);
    QualType AT = A->getType();
    if (isFloating(AT) && Act.isActive(strip(A))) {
      // v(n, x): every element is x.
      if (N == 2 && I == 1 &&
          CE->getArg(0)->getType()->isIntegralOrEnumerationType()) {
        SI.Fill = A;
        Args.push_back(fwd(A, false));
        continue;
      }
      unsupported(A, "constructor argument '" + spelled(A) + "' of '" +
                         T.getAsString() + "'");
      return false;
    }
    if (!isFloating(AT) && memoryActive(A)) {
      // v(p, p + n): the elements come from memory that carries derivatives.
      if (N == 2 && I == 0 && AT->isPointerType() &&
          CE->getArg(1)->getType()->isPointerType()) {
        SI.RangeFrom = A;
        Args.push_back(rebuildBase(strip(A), /*NeedIdx=*/true));
        continue;
      }
      if (N == 2 && I == 1 && SI.RangeFrom) {
        Args.push_back(plain(A));
        continue;
      }
      unsupported(A, "'" + T.getAsString() + "' constructed from '" +
                         spelled(A) +
                         "' (copy the elements in a loop instead)");
      return false;
    }
    Args.push_back(plain(A));
  }
  if (!Args.empty()) {
    SI.FwdInit = S.ActOnParenListExpr(B.Loc, B.Loc, Args).get();
    SI.Direct = true;
  }
  return !Failed;
}

void PullbackBuilder::reverseStorageInit(const StorageInit &SI, VarDecl *A,
                                         Stmts &Out) {
  QualType SizeT = Ctx.getSizeType();
  for (auto It = SI.Elems.rbegin(); It != SI.Elems.rend(); ++It) {
    Expr *Elem = B.ref(A);
    for (unsigned I : It->first)
      Elem = B.subscript(Elem, B.intLit(I, SizeT));
    backprop(It->second, Elem, Out);
  }
  if (!SI.Fill && !SI.RangeFrom)
    return;
  // for (k < shadow.size()): the sum (v(n, x)) or each source element.
  VarDecl *Sum = nullptr;
  if (SI.Fill) {
    QualType ET = SI.Fill->getType().getNonReferenceType().getUnqualifiedType();
    Sum = B.var(PB, fresh("_s"), ET, B.zero(ET));
    Out.push_back(B.declStmt(Sum));
  }
  VarDecl *K = B.var(PB, fresh("_k"), SizeT, B.intLit(0, SizeT));
  Expr *Elem = B.subscript(B.ref(A), B.ref(K));
  Stmt *Body = SI.Fill
                   ? B.addAssign(B.ref(Sum), Elem)
                   : B.addAssign(
                         B.subscript(shadowPointer(*this, B,
                                                   strip(SI.RangeFrom)),
                                     B.ref(K)),
                         Elem);
  Out.push_back(B.forStmt(
      B.declStmt(K),
      B.binop(BO_LT, B.ref(K), B.memberCall(B.ref(A), "size", {})),
      B.unop(UO_PreInc, B.ref(K)), Body));
  if (SI.Fill)
    backprop(SI.Fill, B.ref(Sum), Out);
}

} // namespace grad
