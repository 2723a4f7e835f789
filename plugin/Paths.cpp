//===- Paths.cpp - Access paths and pointer expressions -------------------===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "Paths.h"
#include "PullbackBuilder.h"
#include "Records.h"
#include "Registry.h"
#include "Selectors.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
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

const Expr *accessorArg(const Expr *E) {
  const auto *CE = dyn_cast_or_null<CallExpr>(E);
  const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
  if (!FD || isa<CXXMethodDecl>(FD) || FD->isVariadic())
    return nullptr;
  QualType RT = FD->getReturnType();
  if (!(RT->isPointerType() || RT->isLValueReferenceType()) ||
      !hasFloatingData(RT->getPointeeType()))
    return nullptr;
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Def)
    return nullptr;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  if (!Body || Body->size() != 1)
    return nullptr;
  const auto *RS = dyn_cast<ReturnStmt>(Body->body_front());
  const Expr *V = RS ? RS->getRetValue() : nullptr;
  if (!V || V->HasSideEffects(Def->getASTContext(),
                              /*IncludePossibleEffects=*/false))
    return nullptr;
  bool IsThis;
  const auto *P = dyn_cast_or_null<ParmVarDecl>(pathRoot(V, IsThis));
  if (!P || P->getDeclContext() != Def)
    return nullptr;
  // The pointer (or the object) itself, never a copy of it.
  QualType PT = P->getType();
  if (!(PT->isPointerType() || PT->isReferenceType()))
    return nullptr;
  unsigned I = P->getFunctionScopeIndex();
  return I < CE->getNumArgs() ? CE->getArg(I) : nullptr;
}

namespace {
/// The parameters of one function body that a pointer value may point
/// into, through its local pointers and references; Unknown when anything
/// else may be its target.
struct PointedParams {
  const FunctionDecl *Def;
  unsigned Depth;
  llvm::DenseMap<const VarDecl *, SmallVector<unsigned, 2>> Locals;
  llvm::DenseSet<const VarDecl *> Unknown;
  bool Changed = false;
  /// A pointer variable may change in ways the walk does not follow (its
  /// address taken, a non-const reference bound to it, a lambda), or a
  /// pointer parameter is re-seated to other memory.
  bool Escaped = false;

  static bool pointerVar(const Expr *E) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    return VD && VD->getType()->isPointerType();
  }

  /// Adds the parameters \p E may point into to \p Out; false if unknown.
  bool of(const Expr *E, SmallVectorImpl<unsigned> &Out) {
    E = E->IgnoreParenImpCasts();
    auto Add = [&](unsigned I) {
      if (!llvm::is_contained(Out, I))
        Out.push_back(I);
      return true;
    };
    if (E->isNullPointerConstant(Def->getASTContext(),
                                 Expr::NPC_ValueDependentIsNotNull))
      return true;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (const auto *P = dyn_cast_or_null<ParmVarDecl>(VD)) {
        QualType T = P->getType();
        if (P->getDeclContext() != Def ||
            !(T->isPointerType() || T->isReferenceType()))
          return false;
        return Add(P->getFunctionScopeIndex());
      }
      if (!VD || !VD->isLocalVarDecl() || Unknown.count(VD))
        return false;
      auto It = Locals.find(VD);
      if (It == Locals.end())
        return false;
      for (unsigned I : It->second)
        Add(I);
      return true;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
      switch (UO->getOpcode()) {
      case UO_AddrOf:
      case UO_Deref:
      case UO_PreInc:
      case UO_PreDec:
      case UO_PostInc:
      case UO_PostDec:
        return of(UO->getSubExpr(), Out);
      default:
        return false;
      }
    }
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
      return of(ASE->getBase(), Out);
    if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->isAdditiveOp() || BO->isAssignmentOp())
        return of(BO->getLHS()->getType()->isPointerType() ||
                          BO->isAssignmentOp()
                      ? BO->getLHS()
                      : BO->getRHS(),
                  Out);
      if (BO->getOpcode() == BO_Comma)
        return of(BO->getRHS(), Out);
      return false;
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(E))
      return of(CO->getTrueExpr(), Out) && of(CO->getFalseExpr(), Out);
    // `v[k]`, `v.data() + k` on a container parameter: into its storage.
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      const CXXMethodDecl *MD = MC->getMethodDecl();
      bool Element = MD && MD->getIdentifier() && isStdAccessor(MD) &&
                     llvm::is_contained({"data", "front", "back", "at"},
                                        MD->getName());
      return Element && of(MC->getImplicitObjectArgument(), Out);
    }
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(E);
        OC && OC->getOperator() == OO_Subscript &&
        isStdAccessor(dyn_cast_or_null<CXXMethodDecl>(OC->getDirectCallee())))
      return of(OC->getArg(0), Out);
    if (const auto *CE = dyn_cast<CallExpr>(E)) {
      const Expr *A = accessorArg(CE);
      if (!A && Depth < 8) {
        int I = pointedParamImpl(CE->getDirectCallee(), Depth + 1);
        A = I >= 0 && unsigned(I) < CE->getNumArgs() ? CE->getArg(I)
                                                      : nullptr;
      }
      return A && of(A, Out);
    }
    return false;
  }

  void def(const VarDecl *VD, const Expr *E) {
    if (Unknown.count(VD))
      return;
    SmallVector<unsigned, 2> &L = Locals[VD];
    unsigned Before = L.size();
    SmallVector<unsigned, 2> New(L.begin(), L.end());
    if (!of(E, New)) {
      Unknown.insert(VD);
      Changed = true;
      return;
    }
    Locals[VD] = New;
    Changed |= New.size() != Before;
  }

  /// Local pointers (and references) and what they are assigned.
  void walk(const Stmt *S) {
    if (!S)
      return;
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D);
            VD && (VD->getType()->isPointerType() ||
                   VD->getType()->isReferenceType())) {
          Locals.try_emplace(VD);
          if (VD->getInit())
            def(VD, VD->getInit());
        }
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D);
            VD && VD->getType()->isReferenceType() &&
            VD->getType().getNonReferenceType()->isPointerType() &&
            !VD->getType().getNonReferenceType().isConstQualified())
          Escaped = true; // double *&r = p;
    } else if (const auto *BO = dyn_cast<BinaryOperator>(S);
               BO && BO->getOpcode() == BO_Assign &&
               BO->getType()->isPointerType()) {
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts())) {
        if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl())) {
          // `a = a + 1` keeps the parameter's memory; `a = b` does not.
          SmallVector<unsigned, 2> To;
          if (!of(BO->getRHS(), To) || To.size() != 1 ||
              To[0] != P->getFunctionScopeIndex())
            Escaped = true;
        } else if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
                   VD && VD->isLocalVarDecl()) {
          def(VD, BO->getRHS());
        }
      }
    } else if (const auto *UO = dyn_cast<UnaryOperator>(S);
               UO && UO->getOpcode() == UO_AddrOf &&
               pointerVar(UO->getSubExpr())) {
      Escaped = true;
    } else if (const auto *CE = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *FD = CE->getDirectCallee();
      // (`obj(a, b)` with a member operator(): the object comes first.)
      unsigned Shift = isa<CXXOperatorCallExpr>(CE) &&
                               isa_and_nonnull<CXXMethodDecl>(FD)
                           ? 1
                           : 0;
      for (unsigned I = Shift; I < CE->getNumArgs(); ++I) {
        if (!pointerVar(CE->getArg(I)))
          continue;
        QualType PT = FD && I - Shift < FD->getNumParams()
                          ? FD->getParamDecl(I - Shift)->getType()
                          : QualType();
        if (PT.isNull() || (PT->isReferenceType() &&
                            !PT.getNonReferenceType().isConstQualified()))
          Escaped = true;
      }
    } else if (isa<LambdaExpr>(S)) {
      Escaped = true;
      return;
    }
    for (const Stmt *C : S->children())
      walk(C);
  }

  static int pointedParamImpl(const FunctionDecl *FD, unsigned Depth);
  static int walkReturns(const FunctionDecl *Def, unsigned Depth);
};

int PointedParams::pointedParamImpl(const FunctionDecl *FD, unsigned Depth) {
  if (!FD || isa<CXXMethodDecl>(FD) || FD->isVariadic())
    return -1;
  QualType RT = FD->getReturnType();
  if (!(RT->isPointerType() || RT->isLValueReferenceType()) ||
      !(RT->getPointeeType()->isRealFloatingType() ||
        hasFloatingData(RT->getPointeeType())))
    return -1;
  const FunctionDecl *Def = nullptr;
  // A function template's specialization may not be instantiated yet.
  if (Sema *S = State::get(FD->getASTContext()).S; S && !FD->hasBody())
    instantiatedDefinition(*S, FD, FD->getLocation());
  if (!FD->hasBody(Def) || !Def || !Def->getBody())
    return -1;
  // Asked for every call the analyses reach: walk each helper once. The
  // entry is -1 while the helper is walked (a recursive helper points
  // nowhere known).
  auto [It, New] = State::get(FD->getASTContext())
                       .PointedParams.try_emplace(FD->getCanonicalDecl(), -1);
  if (!New)
    return It->second;
  int Found = walkReturns(Def, Depth);
  State::get(FD->getASTContext()).PointedParams[FD->getCanonicalDecl()] =
      Found;
  return Found;
}

int PointedParams::walkReturns(const FunctionDecl *Def, unsigned Depth) {
  PointedParams PP;
  PP.Def = Def;
  PP.Depth = Depth;
  // Definitions reach each other in any order: a few rounds settle them.
  for (unsigned Round = 0;; ++Round) {
    PP.Changed = false;
    PP.walk(Def->getBody());
    if (PP.Escaped || (PP.Changed && Round == 8))
      return -1;
    if (!PP.Changed)
      break;
  }
  SmallVector<unsigned, 2> Params;
  bool OK = true, Any = false;
  std::function<void(const Stmt *)> Returns = [&](const Stmt *S) {
    if (!S || isa<LambdaExpr>(S))
      return;
    if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
      Any = true;
      OK &= RS->getRetValue() && PP.of(RS->getRetValue(), Params);
    }
    for (const Stmt *C : S->children())
      Returns(C);
  };
  Returns(Def->getBody());
  if (!OK || !Any || Params.size() != 1)
    return -1;
  return Params[0];
}
} // namespace

int pointedParam(const FunctionDecl *FD) {
  return PointedParams::pointedParamImpl(FD, 0);
}

const Expr *pointedArg(const Expr *E) {
  const auto *CE = dyn_cast_or_null<CallExpr>(E);
  if (!CE || accessorArg(CE))
    return nullptr;
  // std::copy(first, last, out): the element loop that stands for it.
  if (const FunctionDecl *FD = CE->getDirectCallee())
    if (const CallExpr *PF = pointerForm(State::get(FD->getASTContext()), CE))
      CE = PF;
  int I = pointedParam(CE->getDirectCallee());
  return I >= 0 && unsigned(I) < CE->getNumArgs() ? CE->getArg(I) : nullptr;
}

static thread_local const llvm::DenseMap<const Expr *, const Expr *>
    *CurrentDerefForms = nullptr;

void setDerefForms(const llvm::DenseMap<const Expr *, const Expr *> *Forms) {
  CurrentDerefForms = Forms;
}

void clearDerefForms(
    const llvm::DenseMap<const Expr *, const Expr *> *Forms) {
  if (CurrentDerefForms == Forms)
    CurrentDerefForms = nullptr;
}

const Expr *derefFormOf(const Expr *E) {
  if (!E || !CurrentDerefForms || CurrentDerefForms->empty())
    return nullptr;
  auto It = CurrentDerefForms->find(E->IgnoreParenImpCasts());
  return It == CurrentDerefForms->end() ? nullptr : It->second;
}

const Expr *resultArg(const Expr *E) {
  const auto *CE =
      dyn_cast_or_null<CallExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  if (!CE || !CE->getType()->isPointerType())
    return nullptr;
  // (Also an accessor's: `row(A, n, i)[j]`.)
  const Expr *A = pointedArg(CE);
  if (!A)
    A = accessorArg(CE);
  if (!A || !A->getType()->isPointerType())
    return nullptr;
  auto Elem = [](const Expr *P) {
    return P->getType()->getPointeeType().getCanonicalType().getUnqualifiedType();
  };
  return Elem(A) == Elem(CE) ? A : nullptr;
}

const Expr *refResultArg(const Expr *E) {
  const auto *CE =
      dyn_cast_or_null<CallExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  if (!CE || !CE->isLValue() || !isFloating(CE->getType()))
    return nullptr;
  const Expr *A = accessorArg(CE);
  if (!A)
    A = pointedArg(CE);
  if (!A)
    return nullptr;
  QualType P;
  if (A->getType()->isPointerType()) {
    P = A->getType()->getPointeeType();
  } else if (const auto *TS = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
                 A->getType().getNonReferenceType()->getAsCXXRecordDecl());
             TS && TS->isInStdNamespace() && TS->getIdentifier() &&
             (TS->getName() == "vector" || TS->getName() == "array") &&
             TS->getTemplateArgs().size() >= 1 &&
             TS->getTemplateArgs()[0].getKind() == TemplateArgument::Type) {
    P = TS->getTemplateArgs()[0].getAsType(); // its elements: A.data()
  } else {
    return nullptr;
  }
  return P.getCanonicalType().getUnqualifiedType() ==
                 CE->getType().getCanonicalType().getUnqualifiedType()
             ? A
             : nullptr;
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

const CXXMemberCallExpr *elementMember(const Expr *E) {
  const auto *MC = dyn_cast_or_null<CXXMemberCallExpr>(E);
  const CXXMethodDecl *MD = MC ? MC->getMethodDecl() : nullptr;
  if (!MD || !MD->getIdentifier() || !MD->getParent()->isInStdNamespace() ||
      !MC->isLValue() ||
      !(isFloating(MC->getType()) || hasFloatingData(MC->getType())))
    return nullptr;
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
    if (CE && CE->getDirectCallee() && !accessorArg(CE) &&
        CE->getCallReturnType(VD->getASTContext())->isLValueReferenceType() &&
        llvm::all_of(CE->arguments(), [](const Expr *A) {
          const Expr *K = A->IgnoreImplicitAsWritten();
          return !K->isGLValue() || K->getType().isConstQualified() ||
                 !hasFloatingData(K->getType());
        }))
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

} // namespace grad
