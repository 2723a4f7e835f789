//===- CallResults.cpp - Results that point into call arguments -----------===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Calls whose result points or refers into one of their arguments:
/// accessors, helpers returning a pointer or a reference into a pointer or
/// container argument (found by walking the helper's returns), and the
/// deref forms that stand for algorithm results over iterators.
///
//===----------------------------------------------------------------------===//

#include "analysis/Paths.h"
#include "ast/Records.h"
#include "analysis/Facts.h"
#include "analysis/Selectors.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Sema/Sema.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <functional>

using namespace clang;

namespace grad {

static const Expr *asObject(const Expr *A, QualType RT);

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
  // Only computing an address: a call in it must write nothing
  // (`return std::inclusive_scan(f, l, out, plus<>());` returns a pointer
  // into `out` after writing through it).
  std::function<bool(const Stmt *)> Writes = [&](const Stmt *S) {
    if (!S)
      return false;
    if (const auto *C = dyn_cast<CallExpr>(S))
      if (!writesNothing(C->getDirectCallee()))
        return true;
    return llvm::any_of(S->children(), Writes);
  };
  if (Writes(V))
    return nullptr;
  bool IsThis = false;
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
  if (Sema *S = Facts::get(FD->getASTContext()).S; S && !FD->hasBody())
    instantiatedDefinition(*S, FD, FD->getLocation());
  if (!FD->hasBody(Def) || !Def || !Def->getBody())
    return -1;
  // Asked for every call the analyses reach: walk each helper once. The
  // entry is -1 while the helper is walked (a recursive helper points
  // nowhere known).
  auto [It, New] = Facts::get(FD->getASTContext())
                       .PointedParams.try_emplace(FD->getCanonicalDecl(), -1);
  if (!New)
    return It->second;
  int Found = walkReturns(Def, Depth);
  Facts::get(FD->getASTContext()).PointedParams[FD->getCanonicalDecl()] =
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
    if (const CallExpr *PF = pointerForm(Facts::get(FD->getASTContext()), CE))
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
  if (const Expr *Obj = objectArg(CE))
    return Obj; // m.row(i)
  // (Also an accessor's: `row(A, n, i)[j]`.)
  const Expr *A = pointedArg(CE);
  if (!A)
    A = accessorArg(CE);
  if (const Expr *Obj = asObject(A, CE->getType()))
    return Obj; // row(m, i), into an object
  if (!A || !A->getType()->isPointerType())
    return nullptr;
  auto Elem = [](const Expr *P) {
    return P->getType()->getPointeeType().getCanonicalType().getUnqualifiedType();
  };
  return Elem(A) == Elem(CE) ? A : nullptr;
}

/// Floating data only: a floating scalar, an array of them, a struct of
/// them (the parts of an object whose shadow holds adjoints).
static bool onlyFloating(QualType T, unsigned Depth = 0) {
  T = T.getCanonicalType();
  if (isFloating(T))
    return true;
  if (const auto *AT = T->getAsArrayTypeUnsafe())
    return onlyFloating(AT->getElementType(), Depth + 1);
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || Depth > 8 || RD->getNumBases())
    return false;
  for (const FieldDecl *F : RD->fields())
    if (!onlyFloating(F->getType(), Depth + 1))
      return false;
  return true;
}

/// What objectArg needs to know of a member function body: bit 0 if every
/// return points into the object itself, bit 1 if the body reads something
/// of its object but floating members (`cols` in `data[i * cols + j]`,
/// another member function, `*this`). One walk per definition.
static unsigned objectAccess(const FunctionDecl *Def) {
  auto &Memos = Facts::get(Def->getASTContext()).ObjectAccessors;
  if (auto It = Memos.find(Def); It != Memos.end())
    return It->second;
  // (Known before the walk, which may ask again through a call returned:
  // a body returning its own call is not an accessor.)
  Memos[Def] = 0;
  unsigned Uses = 0, FloatingUses = 0;
  bool IntoThis = true, AnyReturn = false;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *St) {
    if (!St)
      return;
    if (isa<CXXThisExpr>(St))
      ++Uses;
    if (const auto *ME = dyn_cast<MemberExpr>(St)) {
      const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
      if (const auto *UO = dyn_cast<UnaryOperator>(Base);
          UO && UO->getOpcode() == UO_Deref)
        Base = UO->getSubExpr()->IgnoreParenImpCasts();
      const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
      if (isa<CXXThisExpr>(Base) && F && onlyFloating(F->getType()))
        ++FloatingUses;
    }
    if (const auto *RS = dyn_cast<ReturnStmt>(St)) {
      bool IsThis = false;
      const Expr *V = RS->getRetValue();
      IntoThis &= V && !pathRoot(V, IsThis, false) && IsThis;
      AnyReturn = true;
    }
    if (isa<LambdaExpr>(St))
      return; // (its returns are its own)
    for (const Stmt *C : St->children())
      Walk(C);
  };
  Walk(Def->getBody());
  unsigned R = (IntoThis && AnyReturn ? 1 : 0) | (Uses != FloatingUses ? 2 : 0);
  Memos[Def] = R; // (a fresh lookup: the walk may have added entries)
  return R;
}

/// True if the class of \p MD is a user class (not a standard container
/// or a grad tensor, whose shadows have their shapes).
static bool userClass(const CXXRecordDecl *RD) {
  const auto *ND = dyn_cast<NamespaceDecl>(RD->getEnclosingNamespaceContext());
  return !RD->isInStdNamespace() &&
         !(ND && ND->getIdentifier() && ND->getName() == "grad");
}

/// True if every floating member of \p T (at any depth) has type \p Elem:
/// offsets into the object count elements of that type.
static bool sameFloating(QualType T, QualType Elem, unsigned Depth = 0) {
  T = T.getCanonicalType().getUnqualifiedType();
  if (isFloating(T))
    return T == Elem.getCanonicalType().getUnqualifiedType();
  if (const auto *AT = T->getAsArrayTypeUnsafe())
    return sameFloating(AT->getElementType(), Elem, Depth + 1);
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD || Depth > 8)
    return true;
  for (const CXXBaseSpecifier &Base : RD->bases())
    if (!sameFloating(Base.getType(), Elem, Depth + 1))
      return false;
  for (const FieldDecl *F : RD->fields())
    if (!sameFloating(F->getType(), Elem, Depth + 1))
      return false;
  return true;
}

/// \p A as the object a call of result type \p RT points into, or null.
static const Expr *asObject(const Expr *A, QualType RT) {
  QualType Elem = RT->isPointerType() ? RT->getPointeeType() : RT;
  return intoObject(A) && sameFloating(A->getType().getNonReferenceType(), Elem)
             ? A
             : nullptr;
}

bool intoObject(const Expr *A) {
  if (!A || A->getType()->isPointerType())
    return false;
  QualType T = A->getType().getNonReferenceType();
  const auto *RD = T->getAsCXXRecordDecl();
  return RD && userClass(RD) && isPlainRecord(T) && !isComplex(T);
}

const Expr *objectArg(const Expr *E) {
  const auto *CE =
      dyn_cast_or_null<CallExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  if (!CE)
    return nullptr;
  QualType RT = CE->getType();
  bool Ref = CE->isLValue() && isFloating(RT);
  bool Ptr = RT->isPointerType() && isFloating(RT->getPointeeType());
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(CE->getDirectCallee());
  if (!(Ref || Ptr) || !MD || MD->isStatic())
    return nullptr;
  const Expr *Obj = nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
    Obj = MC->getImplicitObjectArgument();
  else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE);
           OC && OC->getNumArgs() >= 1)
    Obj = OC->getArg(0);
  // (Through a pointer, `p->at(i)`, the object is `*p`: not taken here.)
  if (!Obj || !Obj->isGLValue() || !intoObject(Obj))
    return nullptr;
  const FunctionDecl *Def = nullptr;
  if (!MD->hasBody(Def) || !Def || !Def->getBody())
    return nullptr;
  // Every return into the object itself; a reference found from the
  // arguments alone (`a[k]`) is the same call on the shadow.
  unsigned Access = objectAccess(Def);
  if (!(Access & 1) || (Ref && !(Access & 2)))
    return nullptr;
  return asObject(Obj, RT);
}

bool returnsIntoObject(const CXXMethodDecl *MD) {
  const FunctionDecl *Def = nullptr;
  return MD->hasBody(Def) && Def && Def->getBody() &&
         (objectAccess(Def) & 1);
}

const Expr *refResultArg(const Expr *E) {
  const auto *CE =
      dyn_cast_or_null<CallExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  if (!CE || !CE->isLValue() || !isFloating(CE->getType()))
    return nullptr;
  if (const Expr *Obj = objectArg(CE))
    return Obj;
  const Expr *A = accessorArg(CE);
  if (!A)
    A = pointedArg(CE);
  if (!A)
    return nullptr;
  if (const Expr *Obj = asObject(A, CE->getType()))
    return Obj; // at(m, i, j), into an object
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
  } else if (A->isLValue() && isFloating(A->getType())) {
    // `double &twice(double &v) { v *= 2; return v; }`: the scalar itself.
    P = A->getType();
  } else {
    return nullptr;
  }
  return P.getCanonicalType().getUnqualifiedType() ==
                 CE->getType().getCanonicalType().getUnqualifiedType()
             ? A
             : nullptr;
}

} // namespace grad
