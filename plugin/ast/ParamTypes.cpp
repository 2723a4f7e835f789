//===- ParamTypes.cpp - Which types carry derivatives -----------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Floating types, types holding floating data, and how a parameter of a
/// given type is passed to a pullback (Abi.h classifyParam).
///
//===----------------------------------------------------------------------===//

#include "ast/Abi.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace grad {

bool isFloating(QualType T) {
  if (T.isNull())
    return false;
  return T.getCanonicalType()->isRealFloatingType();
}

static bool hasFloatingDataImpl(QualType T, unsigned Depth) {
  if (T.isNull() || Depth > 8)
    return false;
  T = T.getCanonicalType().getNonReferenceType();
  if (isFloating(T))
    return true;
  if (const auto *AT = T->getAsArrayTypeUnsafe())
    return hasFloatingDataImpl(AT->getElementType(), Depth + 1);
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return false;
  // A library class template (std::vector<double>, std::tuple<...>, an
  // iterator of the standard library, in a system header) owns
  // what its type arguments name; a user's template is judged by its
  // members like any class (View<double> { double *p; } is a view, not
  // data), unless it has no definition.
  if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD);
      Spec && (RD->isInStdNamespace() || !RD->hasDefinition() ||
               RD->getASTContext().getSourceManager().isInSystemHeader(
                   RD->getLocation()))) {
    for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray())
      // A pack (std::tuple<A, B, C>) counts by its elements.
      for (const TemplateArgument &A :
           Arg.getKind() == TemplateArgument::Pack ? Arg.pack_elements()
                                                   : ArrayRef(Arg))
        if (A.getKind() == TemplateArgument::Type &&
            hasFloatingDataImpl(A.getAsType(), Depth + 1))
          return true;
  }
  if (!RD->hasDefinition())
    return false;
  for (const FieldDecl *F : RD->fields())
    if (hasFloatingDataImpl(F->getType(), Depth + 1))
      return true;
  for (const CXXBaseSpecifier &B : RD->bases())
    if (hasFloatingDataImpl(B.getType(), Depth + 1))
      return true;
  return false;
}

bool hasFloatingData(QualType T) { return hasFloatingDataImpl(T, 0); }

static const FieldDecl *referenceMemberImpl(QualType T, unsigned Depth) {
  const auto *RD = T.getCanonicalType()->getAsCXXRecordDecl();
  // (Library classes hold references of their own, std::reference_wrapper
  // or a view; closures are lifted from their lambdas.)
  if (!RD || !RD->hasDefinition() || RD->isLambda() || Depth > 8 ||
      RD->isInStdNamespace())
    return nullptr;
  for (const FieldDecl *F : RD->fields()) {
    QualType FT = F->getType();
    if (FT->isReferenceType() && hasFloatingData(FT.getNonReferenceType()))
      return F;
    if (!FT->isReferenceType())
      if (const FieldDecl *In = referenceMemberImpl(FT, Depth + 1))
        return In;
  }
  for (const CXXBaseSpecifier &B : RD->bases())
    if (const FieldDecl *In = referenceMemberImpl(B.getType(), Depth + 1))
      return In;
  return nullptr;
}

const FieldDecl *referenceMemberToFloating(QualType T) {
  return referenceMemberImpl(T.getNonReferenceType(), 0);
}

/// classifyParam for a pointer: to floating data, to rows of it, or a
/// table of rows; ParamKind::None for any other.
static ParamClass classifyPointerParam(ASTContext &Ctx, const PointerType *PT) {
  ParamClass C;
  QualType Pointee = PT->getPointeeType();
  if (isFloating(Pointee) ||
      (Pointee->isRecordType() && hasFloatingData(Pointee))) {
    // double *, Params * (struct of floating members): a same-shaped
    // adjoint.
    C.Kind = ParamKind::Pointer;
    C.AdjointPointee = Pointee.getUnqualifiedType();
  } else if (const ArrayType *AT = Ctx.getAsArrayType(Pointee);
             AT && (isFloating(Ctx.getBaseElementType(Pointee)) ||
                    hasFloatingData(Ctx.getBaseElementType(Pointee)))) {
    // const double (*m)[2] (a 2-D array parameter, `const double m[][2]`):
    // rows of the same shape.
    Qualifiers Q;
    C.Kind = ParamKind::Pointer;
    C.AdjointPointee = Ctx.getUnqualifiedArrayType(Pointee, Q);
  } else if (const auto *PP = Pointee->getAs<PointerType>()) {
    // double ** (a table of rows): a table of adjoint rows.
    QualType Inner = PP->getPointeeType();
    if (isFloating(Inner) ||
        (Inner->isRecordType() && hasFloatingData(Inner))) {
      C.Kind = ParamKind::Pointer;
      C.AdjointPointee = Ctx.getPointerType(Inner.getUnqualifiedType());
    }
  }
  return C;
}

/// For `std::span<const T, E>`, the complete `std::span<T, E>`; null for
/// any other type, or where it cannot be formed.
static QualType writableSpanOf(ASTContext &Ctx, QualType NR) {
  const auto *Spec =
      dyn_cast<ClassTemplateSpecializationDecl>(NR->getAsCXXRecordDecl());
  Sema *S = AstFacts::get(Ctx).S;
  if (!(S && Spec && Spec->isInStdNamespace() && Spec->getName() == "span" &&
        Spec->getTemplateArgs().size() == 2 &&
        Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type &&
        Spec->getTemplateArgs()[0].getAsType().isConstQualified()))
    return QualType();
  SourceLocation Loc = Spec->getLocation();
  TemplateArgumentListInfo Args(Loc, Loc);
  QualType Elem = Spec->getTemplateArgs()[0].getAsType().getUnqualifiedType();
  Args.addArgument(TemplateArgumentLoc(
      TemplateArgument(Elem), Ctx.getTrivialTypeSourceInfo(Elem, Loc)));
  const TemplateArgument &Ext = Spec->getTemplateArgs()[1];
  Args.addArgument(TemplateArgumentLoc(Ext, TemplateArgumentLocInfo()));
  if (Ext.getKind() == TemplateArgument::Integral) {
    Expr *E = IntegerLiteral::Create(Ctx, Ext.getAsIntegral(),
                                     Ext.getIntegralType(), Loc);
    Args = TemplateArgumentListInfo(Loc, Loc);
    Args.addArgument(TemplateArgumentLoc(
        TemplateArgument(Elem), Ctx.getTrivialTypeSourceInfo(Elem, Loc)));
    Args.addArgument(TemplateArgumentLoc(TemplateArgument(E), E));
  }
  QualType T = S->CheckTemplateIdType(
      TemplateName(Spec->getSpecializedTemplate()), Loc, Args);
  if (!T.isNull() && !S->RequireCompleteType(Loc, T, 0))
    return T;
  return QualType();
}

ParamClass classifyParam(ASTContext &Ctx, QualType T) {
  ParamClass C;
  QualType NR = T.getNonReferenceType();
  bool IsMutableRef = T->isReferenceType() && !NR.isConstQualified();
  if (isFloating(NR)) {
    C.Kind = IsMutableRef ? ParamKind::ScalarRef : ParamKind::Scalar;
    C.AdjointPointee = NR.getUnqualifiedType();
    return C;
  }
  if (NR->isDependentType()) {
    // In a [[grad]] function template: T, const T&, std::vector<T> get an
    // adjoint; each instantiation checks that its type has a derivative.
    if (const auto *PT = NR->getAs<PointerType>()) {
      C.Kind = ParamKind::Pointer;
      C.AdjointPointee = PT->getPointeeType().getUnqualifiedType();
      return C;
    }
    C.Kind = IsMutableRef ? ParamKind::ScalarRef : ParamKind::Scalar;
    C.AdjointPointee = NR.getUnqualifiedType();
    return C;
  }
  if (const auto *PT = NR->getAs<PointerType>())
    return classifyPointerParam(Ctx, PT);
  if (const auto *AT = Ctx.getAsConstantArrayType(NR);
      AT && T->isReferenceType() &&
      (isFloating(Ctx.getBaseElementType(NR)) ||
       hasFloatingData(Ctx.getBaseElementType(NR)))) {
    // const double (&a)[3]: like `const double a[3]`, an adjoint pointer of
    // the same extent (to rows of the same shape for arrays of arrays).
    Qualifiers Q;
    C.Kind = ParamKind::Pointer;
    C.AdjointPointee = Ctx.getUnqualifiedArrayType(AT->getElementType(), Q);
    return C;
  }
  if (NR->isRecordType() && hasFloatingData(NR)) {
    C.Kind = ParamKind::Class;
    C.AdjointPointee = NR.getUnqualifiedType();
    // std::span<const T, E>: the adjoint is a span over writable storage,
    // std::span<T, E>.
    if (QualType W = writableSpanOf(Ctx, NR); !W.isNull())
      C.AdjointPointee = W;
  }
  return C;
}

} // namespace grad
