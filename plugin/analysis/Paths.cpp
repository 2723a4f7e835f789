//===- Paths.cpp - Access paths and pointer expressions -------------------===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "analysis/Paths.h"
#include "ast/Diagnostics.h"
#include "ast/Records.h"
#include "analysis/Facts.h"
#include "analysis/Selectors.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Sema/Sema.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <functional>

using namespace clang;

namespace grad {

const CallExpr *stdGet(const Expr *E) {
  const auto *CE = dyn_cast_or_null<CallExpr>(E ? E->IgnoreParenImpCasts()
                                                : nullptr);
  // (An xvalue: the hidden object of `auto [a, b] = make();` is read
  // through std::get<I>(std::move(e)).)
  if (!CE || isa<CXXOperatorCallExpr>(CE) || isa<CXXMemberCallExpr>(CE) ||
      CE->getNumArgs() != 1 || !CE->isGLValue())
    return nullptr;
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD || !FD->isInStdNamespace() || !FD->getIdentifier() ||
      FD->getName() != "get" || !FD->getTemplateSpecializationArgs() ||
      !CE->getArg(0)->isGLValue())
    return nullptr;
  return CE;
}

const Expr *bindingPart(const BindingDecl *BD) {
  if (const VarDecl *H = BD->getHoldingVar())
    return H->getInit() ? H->getInit()->IgnoreImplicit() : nullptr;
  return BD->getBinding();
}

const Expr *loadedPointer(const Expr *E) {
  if (!E)
    return nullptr;
  const Expr *K = E->IgnoreParenImpCasts();
  // Offsets from a loaded pointer point into the same memory: `*pp + 2`,
  // `&(*pp)[2]`, `&*pp[i]`.
  for (;;) {
    bool Negate = false;
    if (pointerOffset(K, Negate)) {
      K = pointerBase(K)->IgnoreParenImpCasts();
      continue;
    }
    const auto *UO = dyn_cast<UnaryOperator>(K);
    if (!UO || UO->getOpcode() != UO_AddrOf)
      break;
    const Expr *Sub = UO->getSubExpr()->IgnoreParens();
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Sub))
      K = AS->getBase()->IgnoreParenImpCasts();
    else if (const auto *D = dyn_cast<UnaryOperator>(Sub);
             D && D->getOpcode() == UO_Deref)
      K = D->getSubExpr()->IgnoreParenImpCasts();
    else
      break;
  }
  if (K->getType()->isPointerType() && K->isLValue() && !isa<DeclRefExpr>(K) &&
      pathBase(K) != nullptr)
    return K;
  return nullptr;
}

bool loadsPointer(const Expr *E) { return loadedPointer(E) != nullptr; }

std::string bitCopyMessage(const ASTContext &Ctx, const CallExpr *CE) {
  QualType To;
  const Expr *Src = bitCopySource(CE, To);
  // (`memcpy(&u, &v, 8)`: the bits of 'v'; through a pointer p, of '*p'.)
  std::string From = "?";
  if (Src && Src->getType()->isPointerType()) {
    const auto *UO = dyn_cast<UnaryOperator>(Src->IgnoreParenImpCasts());
    From = UO && UO->getOpcode() == UO_AddrOf
               ? spelledExpr(Ctx, UO->getSubExpr())
               : "*" + spelledExpr(Ctx, Src);
  } else if (Src) {
    From = spelledExpr(Ctx, Src);
  }
  return "copy of the bits of the differentiated value '" + From + "' into '" +
         To.getUnqualifiedType().getAsString(Ctx.getPrintingPolicy()) +
         "' ('" + spelledExpr(Ctx, CE) +
         "'): the derivative cannot follow the bits (compute with the "
         "floating value itself)";
}

const Expr *bitCopySource(const CallExpr *CE, QualType &To) {
  const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier())
    return nullptr;
  StringRef N = FD->getName();
  const DeclContext *DC = FD->getDeclContext()->getRedeclContext();
  bool Std = FD->isInStdNamespace() || DC->isTranslationUnit() ||
             DC->isExternCContext();
  auto Floats = [](QualType T) {
    return !T.isNull() && hasFloatingData(T.getNonReferenceType());
  };
  // std::bit_cast<To>(from).
  if (N == "bit_cast" && FD->isInStdNamespace() && CE->getNumArgs() == 1) {
    To = CE->getType();
    return Floats(CE->getArg(0)->getType()) && !Floats(To) ? CE->getArg(0)
                                                           : nullptr;
  }
  // memcpy(&u, &x, n), memmove: from floating data into other data.
  bool Copy = N == "memcpy" || N == "memmove" || N == "__builtin_memcpy" ||
              N == "__builtin_memmove";
  if (!Copy || !Std || CE->getNumArgs() != 3)
    return nullptr;
  QualType Dst = CE->getArg(0)->IgnoreParenImpCasts()->getType();
  QualType Src = CE->getArg(1)->IgnoreParenImpCasts()->getType();
  if (!Dst->isPointerType() || !Src->isPointerType())
    return nullptr;
  To = Dst->getPointeeType();
  if (To->isVoidType() || Floats(To) || !Floats(Src->getPointeeType()))
    return nullptr;
  return CE->getArg(1)->IgnoreParenImpCasts();
}

/// True if the body of the const member function \p MD may write one of
/// its object's `mutable` members: every use of such a member (or of
/// `this` other than to name a member) must be a read, a load of its value
/// or the object of a const call that itself writes nothing; anything else
/// is taken for a write (default deny). Without a visible body: a write.
static bool writesMutable(const CXXMethodDecl *MD, unsigned Depth) {
  const FunctionDecl *Def = nullptr;
  if (Depth > 4 || !MD->hasBody(Def) || !Def->getBody())
    return true;
  struct Finder : RecursiveASTVisitor<Finder> {
    unsigned Depth;
    bool Writes = false;
    llvm::DenseSet<const Expr *> Read;
    explicit Finder(unsigned Depth) : Depth(Depth) {}
    // The member path under \p E (`this->m.x[i]`) is read.
    void markRead(const Expr *E) {
      while (E) {
        E = E->IgnoreParenImpCasts();
        Read.insert(E);
        if (const auto *ME = dyn_cast<MemberExpr>(E))
          E = ME->getBase();
        else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
          E = AS->getBase();
        else
          break;
      }
    }
    bool VisitImplicitCastExpr(ImplicitCastExpr *IC) {
      if (IC->getCastKind() == CK_LValueToRValue)
        markRead(IC->getSubExpr());
      return true;
    }
    bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) {
      const CXXMethodDecl *M = MC->getMethodDecl();
      if (!M || !M->isConst())
        return true;
      return constCall(M, MC->getImplicitObjectArgument());
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
      const auto *M = dyn_cast_or_null<CXXMethodDecl>(OC->getDirectCallee());
      if (!M || !M->isConst() || !OC->getNumArgs())
        return true;
      return constCall(M, OC->getArg(0));
    }
    // A const member function called on \p Obj: a read of it, or (when it
    // writes mutable members itself, on whatever object) a write.
    bool constCall(const CXXMethodDecl *M, const Expr *Obj) {
      if (!M->getParent()->isInStdNamespace() && writesMutable(M, Depth + 1))
        Writes = true;
      else if (Obj)
        markRead(Obj);
      return !Writes;
    }
    bool VisitMemberExpr(MemberExpr *ME) {
      const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
      if (F && F->isMutable() && !Read.count(ME))
        Writes = true;
      return !Writes;
    }
    bool VisitCXXThisExpr(CXXThisExpr *TE) {
      if (!Read.count(TE) && !Bases.count(TE))
        Writes = true;
      return !Writes;
    }
    // (`this` as the base of a member access: judged by the member.)
    llvm::DenseSet<const Expr *> Bases;
    bool TraverseMemberExpr(MemberExpr *ME) {
      Bases.insert(ME->getBase()->IgnoreParenImpCasts());
      return RecursiveASTVisitor::TraverseMemberExpr(ME);
    }
  } F(Depth);
  F.TraverseStmt(Def->getBody());
  return F.Writes;
}

bool writesObject(const CXXMethodDecl *MD) {
  if (!MD || MD->isStatic())
    return false;
  if (!MD->isConst())
    return true;
  std::function<bool(const CXXRecordDecl *, unsigned)> Mutable =
      [&](const CXXRecordDecl *RD, unsigned Depth) {
        if (!RD || !RD->hasDefinition() || Depth > 4)
          return false;
        for (const FieldDecl *F : RD->fields())
          if (F->isMutable() ||
              Mutable(F->getType()->getAsCXXRecordDecl(), Depth + 1))
            return true;
        for (const CXXBaseSpecifier &Base : RD->bases())
          if (Mutable(Base.getType()->getAsCXXRecordDecl(), Depth + 1))
            return true;
        return false;
      };
  // (The standard library's classes keep no user-visible caches.)
  if (MD->getParent()->isInStdNamespace() || !Mutable(MD->getParent(), 0))
    return false;
  return writesMutable(MD, 0);
}

bool writableParam(QualType T) {
  QualType Obj;
  if (T->isReferenceType()) {
    Obj = T.getNonReferenceType();
    if (!Obj.isConstQualified())
      return true;
  } else if (T->isPointerType()) {
    Obj = T->getPointeeType();
    if (!Obj.isConstQualified())
      return true;
  } else {
    Obj = T;
  }
  // Iterators, spans and structs holding pointers, however they are passed.
  return Obj->isRecordType() && holdsWritablePointer(Obj);
}

bool holdsWritablePointer(QualType T, unsigned Depth) {
  if (Depth == 0)
    T = T.getNonReferenceType();
  else if (T->isReferenceType())
    return false; // (captures and views by reference: not iterators)
  if (T->isPointerType()) {
    QualType P = T->getPointeeType();
    return !P.isConstQualified() &&
           (P->isRealFloatingType() || hasFloatingData(P));
  }
  const auto *RD = T->getAsCXXRecordDecl();
  // Values that own their data (containers, tensors, structs of doubles)
  // are copied with it; closures are lambdas, handled as such.
  if (!RD || !RD->hasDefinition() || RD->isLambda() || Depth > 4)
    return false;
  if (Depth == 0 && hasFloatingData(T) &&
      !(RD->getIdentifier() && RD->getName().contains("iterator")))
    return false;
  for (const FieldDecl *F : RD->fields())
    if (holdsWritablePointer(F->getType(), Depth + 1))
      return true;
  for (const CXXBaseSpecifier &B : RD->bases())
    if (holdsWritablePointer(B.getType(), Depth + 1))
      return true;
  return false;
}

static bool holdsFloatingPointerImpl(QualType T, unsigned Depth) {
  if (T->isPointerType() || T->isReferenceType()) {
    QualType P = T->getPointeeType();
    return P->isRealFloatingType() || hasFloatingData(P);
  }
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || RD->isLambda() || Depth > 4)
    return false;
  for (const FieldDecl *F : RD->fields())
    if (holdsFloatingPointerImpl(F->getType(), Depth + 1))
      return true;
  for (const CXXBaseSpecifier &B : RD->bases())
    if (holdsFloatingPointerImpl(B.getType(), Depth + 1))
      return true;
  return false;
}

bool holdsFloatingPointer(QualType T) {
  T = T.getNonReferenceType();
  return T->isRecordType() && !hasFloatingData(T) &&
         holdsFloatingPointerImpl(T, 0);
}

/// `double *`, `Vec3 *`, `double **`.
static bool pointerToFloating(QualType T, unsigned Depth = 0) {
  if (!T->isPointerType() || Depth > 4)
    return false;
  QualType P = T->getPointeeType();
  return P->isRealFloatingType() || hasFloatingData(P) ||
         pointerToFloating(P, Depth + 1);
}

bool storesFloatingPointers(QualType T) {
  T = T.getNonReferenceType();
  if (const ArrayType *AT = T->getAsArrayTypeUnsafe())
    return pointerToFloating(AT->getElementType()) ||
           storesFloatingPointers(AT->getElementType());
  if (holdsFloatingPointer(T))
    return true;
  const auto *TS =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl());
  if (!TS || !TS->isInStdNamespace() || hasFloatingData(T))
    return false;
  for (const TemplateArgument &A : TS->getTemplateArgs().asArray())
    if (A.getKind() == TemplateArgument::Type &&
        (pointerToFloating(A.getAsType()) ||
         storesFloatingPointers(A.getAsType())))
      return true;
  return false;
}

bool isFloatingIterator(QualType T) {
  const auto *RD = T.getNonReferenceType()->getAsCXXRecordDecl();
  return RD && RD->getIdentifier() &&
         RD->getName().contains_insensitive("iterator") &&
         holdsFloatingPointerImpl(T.getNonReferenceType(), 0);
}

std::string iteratorLocalWhy(const VarDecl *VD) {
  return "iterator '" + VD->getNameAsString() +
         "' (index the container, use a range-based for loop, or walk a "
         "pointer such as 'v.data()')";
}

bool basedOn(const Expr *E, const VarDecl *VD) {
  if (!E)
    return false;
  E = E->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return DRE->getDecl() == VD;
  if (const Expr *A = accessorArg(E))
    return basedOn(A, VD);
  if (const Expr *A = pointedArg(E))
    return basedOn(A, VD);
  if (const Expr *B = pointerBase(E))
    return basedOn(B, VD);
  return false;
}

const Expr *movedArg(const Expr *E) {
  const auto *CE = dyn_cast_or_null<CallExpr>(E);
  const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
  if (!FD || CE->getNumArgs() != 1 || !FD->isInStdNamespace() ||
      !FD->getIdentifier() ||
      (FD->getName() != "move" && FD->getName() != "forward"))
    return nullptr;
  return CE->getArg(0);
}

const Expr *copiedObject(const Expr *E) {
  const Expr *K = stripExpr(E);
  const auto *CC = dyn_cast_or_null<CXXConstructExpr>(K);
  if (!CC || CC->getNumArgs() != 1 ||
      !CC->getConstructor()->isCopyOrMoveConstructor())
    return K;
  const Expr *A = stripExpr(CC->getArg(0));
  const ASTContext &Ctx = CC->getConstructor()->getASTContext();
  return A && Ctx.hasSameUnqualifiedType(A->getType().getNonReferenceType(),
                                         CC->getType())
             ? A
             : K;
}

const CXXMemberCallExpr *elementMember(const Expr *E) {
  const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(E);
  const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
  if (!MD || !MD->getIdentifier() || !MC->isLValue() ||
      !(isFloating(MC->getType()) || hasFloatingData(MC->getType())))
    return nullptr;
  if (!MD->getParent()->isInStdNamespace()) {
    // `m.at(i, j)` of a class keeping its elements in a container member
    // (a reference into them found from its sizes): the same member of the
    // shadow, which is a copy of the object.
    if (!isFloating(MC->getType()) ||
        !isElementOwner(QualType(MD->getParent()->getTypeForDecl(), 0)) ||
        !returnsIntoObject(MD))
      return nullptr;
    for (const Expr *A : MC->arguments())
      if (!A->getType()->isIntegralOrEnumerationType())
        return nullptr;
    return MC;
  }
  StringRef N = MD->getName();
  if (N == "back" || N == "front" || (N == "at" && MC->getNumArgs() == 1))
    return MC;
  return nullptr;
}

/// `double operator[](int) const` of a user class: a member call, not an
/// element (a proxy such as std::vector<bool>'s reference stays one).
static bool valueSubscript(const CXXOperatorCallExpr *OC) {
  return OC->isPRValue() && isFloating(OC->getType());
}

const Expr *pathBase(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  // v.back(), v.front(), v.at(i): elements.
  if (const CXXMemberCallExpr *MC = elementMember(E))
    return MC->getImplicitObjectArgument();
  // std::get<I>(t) on a tuple, pair or array: an element like t[I].
  if (const CallExpr *Get = stdGet(E))
    return Get->getArg(0);
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return AS->getBase();
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_Deref)
      return UO->getSubExpr();
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E)) {
    // c[i] is an element when operator[] returns a reference; a value
    // (`double operator[](int) const`) is a member call like any other.
    if (OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2 &&
        !valueSubscript(OC))
      return OC->getArg(0);
    // t(i, j, ...): a multi-index element of a container of floating data.
    if (OC->getOperator() == OO_Call && OC->getNumArgs() >= 2 &&
        OC->isLValue() && isFloating(OC->getType())) {
      bool Ints = true;
      for (unsigned I = 1; I < OC->getNumArgs(); ++I)
        Ints &= OC->getArg(I)->getType()->isIntegralOrEnumerationType();
      QualType OT = OC->getArg(0)->getType().getNonReferenceType();
      if (Ints && OT->isRecordType() && hasFloatingData(OT))
        return OC->getArg(0);
    }
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    if (isa<FieldDecl>(ME->getMemberDecl()))
      return ME->getBase();
  return nullptr;
}

const Expr *pathIndex(const Expr *E) {
  E = E ? E->IgnoreParenImpCasts() : nullptr;
  if (const CXXMemberCallExpr *MC = elementMember(E))
    return MC->getNumArgs() == 1 ? MC->getArg(0) : nullptr;
  if (const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(E))
    return AS->getIdx();
  if (const auto *OC = dyn_cast_or_null<CXXOperatorCallExpr>(E))
    if (OC->getOperator() == OO_Subscript && OC->getNumArgs() == 2 &&
        !valueSubscript(OC))
      return OC->getArg(1);
  return nullptr;
}

static bool isPointerArith(const BinaryOperator *BO) {
  return (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub) &&
         BO->getType()->isPointerType();
}

const Expr *pointerBase(const Expr *P) {
  if (!P)
    return nullptr;
  P = P->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(P))
    if (isPointerArith(BO))
      return BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                       : BO->getRHS();
  if (const auto *UO = dyn_cast<UnaryOperator>(P)) {
    if (UO->getOpcode() == UO_AddrOf)
      return UO->getSubExpr();
    if (UO->isIncrementDecrementOp() && UO->getType()->isPointerType())
      return UO->getSubExpr();
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(P))
    if (const auto *MD = MC->getMethodDecl())
      if (MD->getIdentifier() &&
          (MD->getName() == "data" ||
           // std::array's begin() is a pointer: its data().
           (isStdAccessor(MD) &&
            (MD->getName() == "begin" || MD->getName() == "cbegin"))) &&
          MC->getNumArgs() == 0 && P->getType()->isPointerType())
        return MC->getImplicitObjectArgument();
  return nullptr;
}

const Expr *pointerOffset(const Expr *P, bool &Negate) {
  Negate = false;
  P = P ? P->IgnoreParenImpCasts() : nullptr;
  const auto *BO = dyn_cast_or_null<BinaryOperator>(P);
  if (!BO || !isPointerArith(BO))
    return nullptr;
  Negate = BO->getOpcode() == BO_Sub;
  return BO->getLHS()->getType()->isPointerType() ? BO->getRHS()
                                                   : BO->getLHS();
}

const VarDecl *refVar(const Expr *E) {
  const auto *DRE = E ? dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts())
                      : nullptr;
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

const VarDecl *pathRoot(const Expr *E, bool &IsThis, bool Strict) {
  IsThis = false;
  if (!E)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (isa<CXXThisExpr>(E)) {
    IsThis = !Strict;
    return nullptr;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return Strict ? nullptr : dyn_cast<VarDecl>(DRE->getDecl());
  // `elem(A, n, i, j)`: an element of what A points into.
  if (const Expr *A = refResultArg(E))
    return pathRoot(A, IsThis, false);
  if (const Expr *Base = pathBase(E))
    return pathRoot(Base, IsThis, false);
  if (!Strict) {
    if (const Expr *Base = pointerBase(E))
      return pathRoot(Base, IsThis, false);
    // `*argmax(a, n)`: into the argument the helper's result points into.
    if (const Expr *A = resultArg(E))
      return pathRoot(A, IsThis, false);
  }
  return nullptr;
}

Allocation allocation(const Expr *E) {
  Allocation A;
  if (!E)
    return A;
  E = E->IgnoreParenCasts();
  if (const auto *NE = dyn_cast<CXXNewExpr>(E)) {
    if (NE->getNumPlacementArgs() || !hasFloatingData(NE->getAllocatedType()))
      return A;
    if (NE->isArray()) {
      if (!NE->getArraySize())
        return A;
      A.K = Allocation::NewArray;
      A.Size = *NE->getArraySize();
    } else {
      A.K = Allocation::NewObject;
      A.Init = NE->getInitializer();
    }
    return A;
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD || !FD->getIdentifier())
      return A;
    StringRef N = FD->getName();
    const DeclContext *DC = FD->getDeclContext()->getRedeclContext();
    if (!DC->isTranslationUnit() && !FD->isInStdNamespace())
      return A;
    if (N == "malloc" && CE->getNumArgs() == 1) {
      A.K = Allocation::Malloc;
      A.Size = CE->getArg(0);
    } else if (N == "calloc" && CE->getNumArgs() == 2) {
      A.K = Allocation::Calloc;
      A.Size = CE->getArg(0);
      A.Size2 = CE->getArg(1);
    }
  }
  return A;
}

const Expr *newObjectInit(const CXXNewExpr *NE) {
  if (!NE || NE->isArray() || NE->getNumPlacementArgs())
    return nullptr;
  const Expr *I = NE->getInitializer();
  if (!I)
    return nullptr;
  // `new double{x}`: the one value in the braces.
  if (const auto *IL = dyn_cast<InitListExpr>(I->IgnoreImplicit());
      IL && !IL->getType()->isRecordType() && !IL->getType()->isArrayType())
    return IL->getNumInits() == 1 ? IL->getInit(0) : nullptr;
  return I;
}

Expr *allocationBytes(SemaBuilder &B, const Allocation &A, QualType Elem,
                      llvm::function_ref<Expr *(const Expr *)> Val) {
  ASTContext &Ctx = B.S.Context;
  QualType SizeT = Ctx.getSizeType();
  auto Size = [&](const Expr *E) { return B.staticCast(SizeT, Val(E)); };
  Expr *ElemSize =
      B.intLit(Ctx.getTypeSizeInChars(Elem).getQuantity(), SizeT);
  switch (A.K) {
  case Allocation::NewArray:
    return B.binop(BO_Mul, Size(A.Size), ElemSize);
  case Allocation::NewObject:
    return ElemSize;
  case Allocation::Malloc:
    return Size(A.Size);
  case Allocation::Calloc:
    return B.binop(BO_Mul, Size(A.Size), Size(A.Size2));
  case Allocation::None:
    break;
  }
  return nullptr;
}

bool mayAlias(const VarDecl *VD) {
  QualType T = VD->getType().getNonReferenceType();
  if (!(VD->getType()->isReferenceType() || T->isPointerType()) ||
      !hasFloatingData(T->isPointerType() ? T->getPointeeType() : T))
    return false;
  // A const reference bound to a temporary (const double &r = x * y) is a
  // value, not an alias.
  // (IgnoreImplicitAsWritten looks through the materialisation: what is
  // left is the prvalue.)
  if (VD->getType()->isReferenceType() && VD->getInit() &&
      !VD->getInit()->IgnoreImplicitAsWritten()->isGLValue())
    return false;
  // Nor is one bound to what a function returns by const reference
  // (`const double &m = std::max(a[i], a[j])`) when every argument it may
  // refer to is a temporary or const: the referent cannot change while the
  // reference lives (an accessor's result is an alias).
  if (VD->getType()->isLValueReferenceType() && T.isConstQualified() &&
      T->isArithmeticType() && VD->getInit()) {
    const auto *CE =
        dyn_cast<CallExpr>(VD->getInit()->IgnoreImplicitAsWritten());
    auto Fixed = [](const Expr *A) {
      const Expr *K = A->IgnoreImplicitAsWritten();
      return !K->isGLValue() || K->getType().isConstQualified() ||
             !hasFloatingData(K->getType());
    };
    // (The object of a member call counts as an argument:
    // `const double &r = m.at(0, 0)` refers into m, which may change.)
    const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(CE);
    const Expr *Obj = MC ? MC->getImplicitObjectArgument() : nullptr;
    bool ObjFixed = !Obj || (Obj->getType()->isPointerType()
                                 ? Obj->getType()->getPointeeType().isConstQualified() ||
                                       !hasFloatingData(Obj->getType()->getPointeeType())
                                 : Fixed(Obj));
    if (CE && CE->getDirectCallee() && !accessorArg(CE) &&
        CE->getCallReturnType(VD->getASTContext())->isLValueReferenceType() &&
        ObjFixed && llvm::all_of(CE->arguments(), Fixed))
      return false;
  }
  return true;
}

bool isDeallocation(const FunctionDecl *FD) {
  return FD && FD->getIdentifier() && FD->getName() == "free" &&
         (FD->isInStdNamespace() ||
          FD->getDeclContext()->getRedeclContext()->isTranslationUnit());
}

bool isStdAccessor(const CXXMethodDecl *MD) {
  if (!MD || !MD->getParent()->isInStdNamespace())
    return false;
  if (MD->getOverloadedOperator() == OO_Subscript)
    return true;
  if (!MD->getIdentifier())
    return false;
  StringRef N = MD->getName();
  return N == "data" || N == "begin" || N == "end" || N == "rbegin" ||
         N == "rend" || N == "front" || N == "back" || N == "at";
}

/// Strips the nodes Sema re-creates when an expression is rebuilt.
const Expr *stripExpr(const Expr *E) {
  while (E) {
    const Expr *Next = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(Next))
      Next = DA->getExpr();
    if (const auto *NT = dyn_cast<SubstNonTypeTemplateParmExpr>(Next))
      Next = NT->getReplacement();
    if (const Expr *F = derefFormOf(Next))
      Next = F;
    // std::move(x), std::forward<T>(x): x itself (the derivative of a
    // move is that of a copy).
    if (const Expr *A = movedArg(Next))
      Next = A;
    // A copy of a struct of floating members (`return r;`, `Vec3 q = p;`):
    // the object copied.
    if (const auto *CC = dyn_cast<CXXConstructExpr>(Next))
      if (CC->getNumArgs() == 1 &&
          CC->getConstructor()->isCopyOrMoveConstructor() &&
          isPlainStruct(CC->getType()))
        Next = CC->getArg(0);
    // Meter(5 * x): the construction.
    if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(Next))
      if (FC->getCastKind() == CK_ConstructorConversion)
        Next = FC->getSubExpr();
    // A structured binding (of values without derivatives): the part of
    // the decomposed object it names.
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Next))
      if (const auto *BD = dyn_cast<BindingDecl>(DRE->getDecl())) {
        // (For a tuple-like object, a variable holding std::get's result.)
        const Expr *Bound = bindingPart(BD);
        if (Bound)
          Next = Bound;
      }
    // Vec3{x, y, z}: the braces (rebuilt with their type).
    if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(Next))
      if (const auto *IL =
              dyn_cast<InitListExpr>(FC->getSubExpr()->IgnoreImplicit()))
        if (IL->getType()->isRecordType())
          Next = IL;
    if (Next == E)
      return E;
    E = Next;
  }
  return E;
}

const Expr *firstShapeWrite(const Stmt *Body) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const Expr *Found = nullptr;
    void check(const Expr *L) {
      const auto *ME = dyn_cast<MemberExpr>(L->IgnoreParenImpCasts());
      if (Found || !ME || hasFloatingData(ME->getType()))
        return;
      QualType BT = ME->getBase()->getType();
      if (ME->isArrow())
        BT = BT->getPointeeType();
      if (isElementOwner(BT))
        Found = L;
    }
    bool VisitBinaryOperator(BinaryOperator *BO) {
      if (BO->isAssignmentOp())
        check(BO->getLHS());
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *UO) {
      if (UO->isIncrementDecrementOp())
        check(UO->getSubExpr());
      return true;
    }
    /// A std::vector in a local whose shadow is a copy (`m` or `m[i]` of a
    /// vector of vectors, a vector member of an element owner).
    static bool copiedVector(const Expr *E) {
      const auto *RD =
          E->getType().getNonReferenceType()->getAsCXXRecordDecl();
      if (!RD || !RD->isInStdNamespace() || !RD->getIdentifier() ||
          RD->getName() != "vector")
        return false;
      bool IsThis = false;
      const VarDecl *R = pathRoot(E, IsThis);
      return R && R->isLocalVarDecl() && shadowIsCopy(R->getType());
    }
    bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) {
      const CXXMethodDecl *MD = MC->getMethodDecl();
      if (Found || !MD || MD->isConst() || !MD->getIdentifier() ||
          llvm::is_contained({"at", "front", "back", "data", "begin", "end"},
                             MD->getName()))
        return true;
      if (copiedVector(MC->getImplicitObjectArgument()))
        Found = MC;
      return true;
    }
    bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
      // (`a = b;` of the whole variable makes a new shadow.)
      if (!Found && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 &&
          !isa<DeclRefExpr>(OC->getArg(0)->IgnoreParenImpCasts()) &&
          copiedVector(OC->getArg(0)))
        Found = OC;
      return true;
    }
    bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  } F;
  F.TraverseStmt(const_cast<Stmt *>(Body));
  return F.Found;
}

} // namespace grad
