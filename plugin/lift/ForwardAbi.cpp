//===- ForwardAbi.cpp - Signatures and types of forward mode ----*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "lift/ForwardAbi.h"
#include "analysis/Paths.h"
#include "ast/SemaBuilder.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Sema/Lookup.h"
#include "clang/Sema/Sema.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;

namespace grad {

/// pullbackName with its `_pullback` replaced by \p Suffix.
std::string derivativeName(const FunctionDecl *Primal,
                           StringRef Suffix) {
  std::string N = pullbackName(Primal);
  StringRef Pullback = "_pullback";
  if (!StringRef(N).ends_with(Pullback))
    return "";
  return N.substr(0, N.size() - Pullback.size()) + Suffix.str();
}

std::string pushforwardName(const FunctionDecl *Primal) {
  return derivativeName(Primal, "_pushforward");
}

const char *pushforwardUnsupported(const FunctionDecl *FD) {
  if (isa<CXXConstructorDecl>(FD) || isa<CXXDestructorDecl>(FD) ||
      isa<CXXConversionDecl>(FD))
    return "special member function";
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && !MD->isStatic())
    return "member function";
  if (FD->getDescribedFunctionTemplate() || FD->isDependentContext())
    return "function template";
  if (FD->isVariadic())
    return "variadic function";
  if (pushforwardName(FD).empty())
    return "function";
  return nullptr;
}

/// The primal's parameters, first in every derivative's signature.
void addPrimalParams(const FunctionDecl *Primal,
                     PullbackSignature &Sig, llvm::StringSet<> &Used) {
  for (unsigned I = 0; I < Primal->getNumParams(); ++I) {
    const ParmVarDecl *P = Primal->getParamDecl(I);
    Sig.ParamNames.push_back(P->getIdentifier() ? P->getName().str()
                                                : "p" + std::to_string(I));
    Sig.ParamTypes.push_back(P->getType());
    Used.insert(Sig.ParamNames.back());
  }
}

bool isLanesType(QualType T) {
  const auto *CT = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T->getAsCXXRecordDecl());
  return CT && CT->getIdentifier() && CT->getName() == "lanes" &&
         CT->getQualifiedNameAsString() == "grad::lanes";
}

QualType tangentType(Sema &S, QualType T, unsigned Lanes, SourceLocation Loc,
                     bool Vectors) {
  if (!Lanes || T.isNull())
    return T;
  ASTContext &Ctx = S.Context;
  if (const auto *RT = T->getAs<ReferenceType>()) {
    QualType P = tangentType(S, RT->getPointeeType(), Lanes, Loc, Vectors);
    if (P.isNull())
      return P;
    return T->isLValueReferenceType() ? Ctx.getLValueReferenceType(P)
                                      : Ctx.getRValueReferenceType(P);
  }
  if (const ArrayType *AT = Ctx.getAsArrayType(T)) {
    QualType E = tangentType(S, AT->getElementType(), Lanes, Loc, Vectors);
    if (E.isNull())
      return E;
    if (const auto *CAT = dyn_cast<ConstantArrayType>(AT))
      return Ctx.getConstantArrayType(E, CAT->getSize(), nullptr,
                                      ArraySizeModifier::Normal, 0);
    if (isa<IncompleteArrayType>(AT))
      return Ctx.getIncompleteArrayType(E, ArraySizeModifier::Normal, 0);
    return QualType(); // variable length
  }
  Qualifiers Q = T.getQualifiers();
  QualType U = T.getUnqualifiedType();
  if (const auto *PT = U->getAs<PointerType>()) {
    QualType P = tangentType(S, PT->getPointeeType(), Lanes, Loc, Vectors);
    if (P.isNull())
      return P;
    return Ctx.getQualifiedType(Ctx.getPointerType(P), Q);
  }
  // std::vector<T> -> std::vector<grad::lanes<T, N>>, std::array<T, K> ->
  // std::array<grad::lanes<T, N>, K> (vector pullbacks).
  if (const auto *CT = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
          U->getAsCXXRecordDecl());
      Vectors && CT && CT->isInStdNamespace() && CT->getIdentifier() &&
      (CT->getName() == "vector" || CT->getName() == "array") &&
      CT->getTemplateArgs().size() >= 1 &&
      CT->getTemplateArgs()[0].getKind() == TemplateArgument::Type &&
      isFloating(CT->getTemplateArgs()[0].getAsType())) {
    QualType E =
        tangentType(S, CT->getTemplateArgs()[0].getAsType(), Lanes, Loc);
    if (E.isNull())
      return E;
    SemaBuilder B(S, Loc);
    TemplateArgumentListInfo Args(Loc, Loc);
    Args.addArgument(B.typeArg(E));
    if (CT->getName() == "array") {
      if (CT->getTemplateArgs().size() != 2 ||
          CT->getTemplateArgs()[1].getKind() != TemplateArgument::Integral)
        return QualType();
      Args.addArgument(B.exprArg(B.intLit(
          CT->getTemplateArgs()[1].getAsIntegral().getZExtValue(),
          Ctx.getSizeType())));
    }
    QualType V = S.CheckTemplateIdType(
        TemplateName(CT->getSpecializedTemplate()), Loc, Args);
    if (V.isNull() || S.RequireCompleteType(Loc, V, 0))
      return QualType();
    CXXScopeSpec SS;
    SS.MakeGlobal(Ctx, Loc);
    SS.Extend(Ctx, const_cast<NamespaceDecl *>(cast<NamespaceDecl>(CT->getDeclContext())), Loc, Loc);
    return Ctx.getQualifiedType(
        Ctx.getElaboratedType(ElaboratedTypeKeyword::None, SS.getScopeRep(),
                              V),
        Q);
  }
  if (isLanesType(U))
    return T;
  if (isFloating(U)) {
    SemaBuilder B(S, Loc);
    QualType L = B.runtimeType(
        "lanes", {B.typeArg(U.getCanonicalType().getUnqualifiedType()),
                  B.exprArg(B.intLit(Lanes, Ctx.getSizeType()))});
    return L.isNull() ? L : Ctx.getQualifiedType(L, Q);
  }
  if (hasFloatingData(U))
    return QualType(); // objects and containers: no lanes yet
  return T;
}

namespace {
/// The pushforward's return type: a pointer or reference into an
/// argument's memory as it is, a floating result as a dual number; null
/// with \p Why set when there is none.
QualType pushforwardReturnType(Sema &S, const FunctionDecl *Primal,
                               unsigned Lanes, std::string &Why) {
  ASTContext &Ctx = S.Context;
  QualType R = Primal->getReturnType();
  QualType Ret = Ctx.VoidTy;
  if (R->isPointerType() && hasFloatingData(R->getPointeeType())) {
    // A pointer into an argument's memory: the pushforward returns it, and
    // a caller finds its tangent at the same offset in that argument's
    // tangent memory.
    Ret = R.getUnqualifiedType();
  } else if (R->isLValueReferenceType() &&
             isFloating(R.getNonReferenceType()) &&
             pointedParam(Primal) >= 0) {
    // A reference into an argument's memory (`double &largest(double *a,
    // int n)`, also const): returned as it is, likewise.
    Ret = R;
  } else if (!R->isVoidType()) {
    if (!isFloating(R) || R->isReferenceType()) {
      Why = "the return type '" + R.getAsString(Ctx.getPrintingPolicy()) +
            "' has no pushforward (a floating scalar or void is needed)";
      return QualType();
    }
    SemaBuilder B(S, Primal->getLocation());
    Ret = Lanes ? B.runtimeType(
                      "dual", {B.typeArg(R.getUnqualifiedType()),
                               B.exprArg(B.intLit(Lanes, Ctx.getSizeType()))})
                : B.runtimeType("dual", R.getUnqualifiedType());
    if (Ret.isNull()) {
      Why = "the runtime type 'grad::dual' is not declared (include "
            "<grad/grad.h>)";
      return QualType();
    }
  }
  return Ret;
}

/// True if the tangent of the pointer parameter \p P is read-only.
bool readOnlyPointerTangent(ASTContext &Ctx, const FunctionDecl *Primal,
                            const ParmVarDecl *P) {
  QualType PT = P->getType();
  // `const T*` and (for [[grad::forward]] functions, as the ABI says)
  // `T[]`: read-only tangents; `T*`: in/out. Callees differentiated on
  // demand and generated functions take `T*` for a writable `T[]`.
  bool UserFacing =
      AstFacts::get(Ctx).ForwardRequests.count(Primal->getCanonicalDecl()) != 0;
  return (UserFacing && (P->getOriginalType()->isArrayType() ||
                         PT.getNonReferenceType()->isArrayType())) ||
         // (also a reference to one: a pointer captured by
         // reference by a lifted lambda, `const double *&p`)
         (PT.getNonReferenceType()->isPointerType() &&
          PT.getNonReferenceType()->getPointeeType().isConstQualified()) ||
         (PT.getNonReferenceType()->isArrayType() &&
          PT.getNonReferenceType()
              ->getAsArrayTypeUnsafe()
              ->getElementType()
              .isConstQualified());
}

/// The tangent parameter's type for the differentiated parameter \p P of
/// class \p C (not ParamKind::None), before any lanes.
QualType tangentParamType(ASTContext &Ctx, const FunctionDecl *Primal,
                          const ParmVarDecl *P, const ParamClass &C) {
  QualType PT = P->getType();
  switch (C.Kind) {
  case ParamKind::None:
    break;
  case ParamKind::Scalar:
    return PT.getNonReferenceType().getUnqualifiedType();
  case ParamKind::ScalarRef:
    return Ctx.getPointerType(C.AdjointPointee);
  case ParamKind::Pointer: {
    QualType E = C.AdjointPointee;
    QualType TP = Ctx.getPointerType(
        readOnlyPointerTangent(Ctx, Primal, P) ? E.withConst() : E);
    // A pointer taken by reference that the callee moves (`const double
    // *&p` walked by `*p++`, std::swap): its tangent pointer moves with it.
    if (PT->isLValueReferenceType() &&
        PT.getNonReferenceType()->isPointerType() &&
        !PT.getNonReferenceType().isConstQualified() &&
        writesPointerParam(P))
      return Ctx.getLValueReferenceType(TP);
    return TP;
  }
  case ParamKind::Class: {
    QualType CT = PT.getNonReferenceType().getUnqualifiedType();
    if (PT->isLValueReferenceType() &&
        !PT.getNonReferenceType().isConstQualified())
      return Ctx.getPointerType(CT);
    return Ctx.getLValueReferenceType(CT.withConst());
  }
  }
  return QualType();
}
} // namespace

bool computePushforwardSignature(Sema &S, const FunctionDecl *Primal,
                                 const WrtMask &Wrt, PullbackSignature &Sig,
                                 std::string &Why, unsigned Lanes,
                                 bool Vectors) {
  ASTContext &Ctx = S.Context;
  Sig = PullbackSignature();
  Sig.Name = pushforwardName(Primal);
  llvm::StringSet<> Used;
  addPrimalParams(Primal, Sig, Used);
  QualType Ret = pushforwardReturnType(S, Primal, Lanes, Why);
  if (Ret.isNull())
    return false;
  for (unsigned I = 0; I < Primal->getNumParams(); ++I) {
    Sig.AdjointIndex.push_back(-1);
    if (I >= Wrt.size() || !Wrt[I])
      continue;
    const ParmVarDecl *P = Primal->getParamDecl(I);
    QualType PT = P->getType();
    ParamClass C = classifyParam(Ctx, PT);
    if (C.Kind == ParamKind::None)
      continue;
    QualType T = tangentParamType(Ctx, Primal, P, C);
    if (Lanes) {
      QualType L = tangentType(S, T, Lanes, P->getLocation(), Vectors);
      if (L.isNull()) {
        Why = "vector mode does not support parameter '" + Sig.ParamNames[I] +
              "' of type '" + PT.getAsString(Ctx.getPrintingPolicy()) +
              "' yet (objects and containers have no lanes)";
        return false;
      }
      T = L;
    }
    std::string Name = "t_" + Sig.ParamNames[I];
    while (Used.count(Name))
      Name += "_";
    Used.insert(Name);
    Sig.AdjointIndex.back() = Sig.ParamTypes.size();
    Sig.ParamNames.push_back(Name);
    Sig.ParamTypes.push_back(T);
  }
  Sig.Type = Ctx.getFunctionType(Ret, Sig.ParamTypes,
                                 FunctionProtoType::ExtProtoInfo());
  return true;
}

std::string hvpName(const FunctionDecl *Primal) {
  return derivativeName(Primal, "_hvp");
}

} // namespace grad
