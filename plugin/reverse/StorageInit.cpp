//===- StorageInit.cpp - Arrays and containers from values ------*- C++ -*-===//
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
//===----------------------------------------------------------------------===//

#include "analysis/Jumps.h"
#include "reverse/PullbackBuilder.h"
#include "ast/Records.h"
#include "analysis/Selectors.h"
#include "lift/StdForms.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace grad {

static const Expr *strip(const Expr *E) { return stripExpr(E); }


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
      // A std::array element: the braces of its member array are implicit
      // (its elements are e[i], as at the top, storageInit).
      if (isStdClass(Inner->getType(), "array") && Inner->getNumInits() == 1)
        if (const auto *Member =
                dyn_cast<InitListExpr>(strip(Inner->getInit(0)))) {
          Expr *L = rebuildInitList(Member, Path, SI);
          Elems.push_back(L ? B.initList({L}) : nullptr);
          continue;
        }
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
  Expr *R = B.initList(Elems);
  if (!R)
    Failed = true;
  return R;
}

bool PullbackBuilder::storageInit(const VarDecl *VD, const Expr *Init,
                                  StorageInit &SI) {
  QualType T = VD->getType();
  if (auto Els = tupleElements(Init); Els.size() == 2 && !isTuple(T))
    return pairStorageInit(T, Els, SI);
  if (const auto *IL = dyn_cast<InitListExpr>(Init)) {
    // std::array<double, N> a = {x, y}: the braces of its member array
    // are implicit; its elements are a[i].
    if (isStdClass(T, "array") && IL->getNumInits() == 1)
      if (const auto *Inner = dyn_cast<InitListExpr>(strip(IL->getInit(0)))) {
        Expr *InnerList = rebuildInitList(Inner, {}, SI);
        SI.FwdInit = InnerList ? B.initList({InnerList}) : nullptr;
        return !Failed && SI.FwdInit;
      }
    SI.FwdInit = rebuildInitList(IL, {}, SI);
    return !Failed;
  }
  const auto *CE = cast<CXXConstructExpr>(Init);
  SmallVector<std::pair<const FieldDecl *, const Expr *>, 4> MW;
  if (memberwiseInit(CE, MW))
    return memberwiseStorageInit(T, CE, MW, SI);
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
  return constructorStorageInit(T, CE, SI);
}

bool PullbackBuilder::pairStorageInit(QualType T, ArrayRef<const Expr *> Els,
                                      StorageInit &SI) {
  // std::pair<double, double> p(x, y), std::make_pair(x, y): braces.
  unsigned NB = T->getAsCXXRecordDecl()->getNumBases();
  SmallVector<Expr *, 2> Fwd;
  for (unsigned I = 0; I < 2; ++I) {
    if (Act.isActive(strip(Els[I]))) {
      SI.Elems.push_back({{NB + I}, Els[I]});
      Fwd.push_back(fwd(Els[I], false));
    } else {
      Fwd.push_back(plain(Els[I]));
    }
  }
  if (Failed)
    return false;
  ExprResult R = S.ActOnInitList(B.Loc, Fwd, B.Loc);
  SI.FwdInit = R.isInvalid() ? nullptr : R.get();
  return !Failed;
}

bool PullbackBuilder::memberwiseStorageInit(
    QualType T, const CXXConstructExpr *CE,
    ArrayRef<std::pair<const FieldDecl *, const Expr *>> MW, StorageInit &SI) {
  // Vec3 v(x, y, z) through a constructor that copies its parameters
  // into members: each argument receives its member's adjoint.
  unsigned NB = T->getAsCXXRecordDecl()->getNumBases();
  for (auto &[F, Arg] : MW)
    if (Act.isActive(strip(Arg)))
      SI.Elems.push_back({{NB + F->getFieldIndex()}, Arg});
  SmallVector<Expr *, 4> Args;
  for (const Expr *A : CE->arguments()) {
    if (isa<CXXDefaultArgExpr>(A))
      break;
    Args.push_back(Act.isActive(strip(A)) ? fwd(A, false) : plain(A));
  }
  if (Failed)
    return false;
  if (CE->isListInitialization()) {
    ExprResult R = S.ActOnInitList(B.Loc, Args, B.Loc);
    SI.FwdInit = R.isInvalid() ? nullptr : R.get();
  } else {
    SI.FwdInit = S.ActOnParenListExpr(B.Loc, B.Loc, Args).get();
  }
  SI.Direct = true;
  return !Failed;
}

bool PullbackBuilder::constructorStorageInit(QualType T,
                                             const CXXConstructExpr *CE,
                                             StorageInit &SI) {
  SmallVector<Expr *, 4> Args;
  unsigned N = 0;
  for (const Expr *A : CE->arguments()) {
    if (isa<CXXDefaultArgExpr>(A))
      break;
    ++N;
  }
  // v(w.begin(), w.end()): the same over pointers (w.data(), ...).
  const Expr *Range[2] = {nullptr, nullptr};
  if (N == 2 && !CE->getArg(0)->getType()->isPointerType())
    if ((Range[0] = iteratorPointer(B, CE->getArg(0))))
      Range[1] = iteratorPointer(B, CE->getArg(1));
  for (unsigned I = 0; I < N; ++I) {
    const Expr *A = Range[1] ? Range[I] : CE->getArg(I);
    QualType AT = A->getType();
    if (isFloating(AT) && Act.isActive(strip(A))) {
      if (!fillStorageArg(T, CE, N, I, A, SI))
        return false;
      Args.push_back(fwd(A, false));
      continue;
    }
    // A count or an index is a value, whatever memory it was read from.
    if (!isFloating(AT) && !AT->isIntegralOrEnumerationType() &&
        memoryActive(A)) {
      // v(p, p + n): the elements come from memory that carries derivatives.
      const Expr *Second =
          N != 2 ? nullptr : Range[1] ? Range[1] : CE->getArg(1);
      if (Second && I == 0 && AT->isPointerType() &&
          Second->getType()->isPointerType()) {
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

bool PullbackBuilder::fillStorageArg(QualType T, const CXXConstructExpr *CE,
                                     unsigned N, unsigned I, const Expr *A,
                                     StorageInit &SI) {
  // v(n, x), tensor(shape, x): every element is x.
  bool Tensor = isGradTensor(T);
  if (N == 2 && I == 1 &&
      (CE->getArg(0)->getType()->isIntegralOrEnumerationType() ||
       (Tensor && CE->getArg(0)->getType()->isRecordType()))) {
    SI.Fill = A;
    return true;
  }
  if (isPlainStruct(T))
    unsupported(A, "argument '" + spelled(A) + "' of a constructor of '" +
                       T.getAsString() +
                       "' that does more than copy its parameters into "
                       "members" +
                       (T->getAsCXXRecordDecl() &&
                                T->getAsCXXRecordDecl()->isInStdNamespace()
                            // (Its members are private: a random
                            // distribution's parameters, say.)
                            ? " (construct it from values without "
                              "derivatives, then scale or shift what it "
                              "gives)"
                            : " (write the members from braces or "
                              "assignments)"));
  else
    unsupported(A, "constructor argument '" + spelled(A) + "' of '" +
                       T.getAsString() + "'");
  return false;
}

void PullbackBuilder::reverseStorageInit(const StorageInit &SI, VarDecl *A,
                                         Stmts &Out) {
  QualType SizeT = Ctx.getSizeType();
  for (auto It = SI.Elems.rbegin(); It != SI.Elems.rend(); ++It) {
    Expr *Elem = B.ref(A);
    QualType ET = A->getType();
    for (unsigned I : It->first) {
      // Braces of a struct initialise its bases, then its members, in order.
      const auto *RD = ET->getAsCXXRecordDecl();
      if (RD && isPlainStruct(ET)) {
        if (I < RD->getNumBases()) {
          ET = (RD->bases_begin() + I)->getType();
          Elem = B.staticCast(Ctx.getLValueReferenceType(ET), Elem);
          continue;
        }
        unsigned F = I - RD->getNumBases();
        auto FI = RD->field_begin();
        std::advance(FI, F);
        ET = FI->getType();
        Elem = B.member(Elem, FI->getName());
        continue;
      }
      Elem = B.subscript(Elem, B.intLit(I, SizeT));
      if (const auto *AT = ET->getAsArrayTypeUnsafe())
        ET = AT->getElementType();
      else if (const auto *Spec =
                   dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD))
        ET = Spec->getTemplateArgs()[0].getAsType(); // std::array<T, N>
    }
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
