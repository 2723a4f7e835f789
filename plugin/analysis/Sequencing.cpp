//===- Sequencing.cpp - What a write through an alias may change ----------===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// C++17 evaluates the right operand of an assignment before the left one:
/// `(*w op= a) op= b` is refused when b may read what the inner write
/// changes. A local pointer or reference to a known local, never re-seated,
/// conflicts only with reads of that local and of what may refer to memory.
///
//===----------------------------------------------------------------------===//

#include "analysis/Paths.h"
#include "analysis/Facts.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace grad {

/// The object a local pointer or reference \p Via denotes memory of, when
/// its initialiser says which (`&z`, `a + k`, `&a[i]`, `cell(&x, 0)` of an
/// accessor) and it is never re-seated (nor its address taken); null
/// otherwise.
static const VarDecl *knownTarget(const VarDecl *Via) {
  if (isa<ParmVarDecl>(Via) || !Via->getInit())
    return nullptr;
  const auto *FD = dyn_cast<FunctionDecl>(Via->getDeclContext());
  if (!FD || !FD->getBody())
    return nullptr;
  const Expr *Init = Via->getInit()->IgnoreParenImpCasts();
  for (;;) {
    if (const Expr *A = accessorArg(Init)) {
      Init = A->IgnoreParenImpCasts();
      continue;
    }
    if (const auto *UO = dyn_cast<UnaryOperator>(Init);
        UO && UO->getOpcode() == UO_AddrOf) {
      Init = UO->getSubExpr()->IgnoreParenImpCasts();
      continue;
    }
    break;
  }
  bool IsThis = false;
  const VarDecl *T = pathRoot(Init, IsThis);
  if (!T || T == Via || T->getType()->isReferenceType() ||
      T->getType()->isPointerType())
    return nullptr;
  if (Via->getType()->isPointerType()) {
    // Never re-seated: no assignment, increment or address of Via.
    struct Seat : RecursiveASTVisitor<Seat> {
      const VarDecl *V;
      bool Moved = false;
      bool is(const Expr *E) {
        const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
        return D && D->getDecl() == V;
      }
      bool VisitBinaryOperator(BinaryOperator *BO) {
        Moved |= BO->isAssignmentOp() && is(BO->getLHS());
        return !Moved;
      }
      bool VisitUnaryOperator(UnaryOperator *UO) {
        Moved |= (UO->isIncrementDecrementOp() ||
                  UO->getOpcode() == UO_AddrOf) &&
                 is(UO->getSubExpr());
        return !Moved;
      }
      bool VisitVarDecl(VarDecl *VD) {
        // Bound to a non-const reference: may be re-seated through it.
        if (VD->getType()->isLValueReferenceType() &&
            !VD->getType().getNonReferenceType().isConstQualified() &&
            VD->getInit() && is(VD->getInit()))
          Moved = true;
        return !Moved;
      }
      bool VisitCallExpr(CallExpr *CE) {
        // Passed to a non-const reference parameter.
        const FunctionDecl *F = CE->getDirectCallee();
        for (unsigned I = 0; I < CE->getNumArgs(); ++I)
          if (is(CE->getArg(I)) &&
              (!F || I >= F->getNumParams() ||
               (F->getParamDecl(I)->getType()->isLValueReferenceType() &&
                !F->getParamDecl(I)
                     ->getType()
                     .getNonReferenceType()
                     .isConstQualified())))
            Moved = true;
        return !Moved;
      }
    } Sc;
    Sc.V = Via;
    Sc.TraverseStmt(FD->getBody());
    if (Sc.Moved)
      return nullptr;
  }
  return T;
}

/// True if a value of type \p T holds no pointer, reference or closure
/// (numbers, arrays of them, structs of those), or owns the memory it
/// points to (a std::vector or std::array of those: no other variable's
/// storage is its elements): it cannot reach other variables' memory.
static bool plainData(QualType T, unsigned Depth = 0) {
  T = T.getCanonicalType();
  if (T->isArithmeticType() || T->isEnumeralType())
    return true;
  if (const auto *AT = dyn_cast<ArrayType>(T.getTypePtr()))
    return plainData(AT->getElementType(), Depth);
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD || Depth > 8 || RD->isLambda() || !RD->hasDefinition())
    return false;
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD);
      Spec && RD->isInStdNamespace() && RD->getIdentifier() &&
      (RD->getName() == "vector" || RD->getName() == "array")) {
    const TemplateArgumentList &Args = Spec->getTemplateArgs();
    return Args.size() > 0 && Args[0].getKind() == TemplateArgument::Type &&
           plainData(Args[0].getAsType(), Depth + 1);
  }
  for (const FieldDecl *F : RD->fields())
    if (!plainData(F->getType(), Depth + 1))
      return false;
  for (const CXXBaseSpecifier &Base : RD->bases())
    if (!plainData(Base.getType(), Depth + 1))
      return false;
  return true;
}

/// True if \p E reads floating memory that a write through \p Via (a
/// pointer or reference) may change: for a parameter, memory reached through
/// pointer or reference parameters (the caller's); for a local, any
/// floating variable or memory.
bool readsAliasable(const Expr *E, const VarDecl *Via) {
  // A local pointer or reference to a known object: only reads of that
  // object, or of anything that may point or refer to memory (pointers,
  // references, iterators, closures, structs holding them), may see the
  // change.
  if (const VarDecl *T = knownTarget(Via)) {
    struct Reads : RecursiveASTVisitor<Reads> {
      const VarDecl *T;
      bool Found = false;
      bool VisitDeclRefExpr(DeclRefExpr *DRE) {
        const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        Found |= VD && (VD == T || VD->getType()->isReferenceType() ||
                        !plainData(VD->getType()));
        return !Found;
      }
      bool VisitCXXThisExpr(CXXThisExpr *) {
        Found = true;
        return false;
      }
    } R;
    R.T = T;
    R.TraverseStmt(const_cast<Expr *>(E));
    return R.Found;
  }
  struct Finder : RecursiveASTVisitor<Finder> {
    bool OnlyParams = false;
    bool Found = false;
    bool VisitDeclRefExpr(DeclRefExpr *DRE) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD)
        return true;
      if (OnlyParams)
        Found |= isa<ParmVarDecl>(VD) && mayAlias(VD);
      else
        Found |= isFloating(VD->getType().getNonReferenceType()) ||
                 mayAlias(VD) ||
                 hasFloatingData(VD->getType().getNonReferenceType());
      return !Found;
    }
    bool VisitUnaryOperator(UnaryOperator *UO) {
      Found |= !OnlyParams && UO->getOpcode() == UO_Deref;
      return !Found;
    }
  } F;
  F.OnlyParams = isa<ParmVarDecl>(Via);
  F.TraverseStmt(const_cast<Expr *>(E));
  return F.Found;
}

} // namespace grad
