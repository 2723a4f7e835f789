//===- Pushforward.cpp - Declaring pushforwards ---------------------------===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "driver/Pushforward.h"
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
static std::string derivativeName(const FunctionDecl *Primal,
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
static void addPrimalParams(const FunctionDecl *Primal,
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

bool computePushforwardSignature(Sema &S, const FunctionDecl *Primal,
                                 const WrtMask &Wrt, PullbackSignature &Sig,
                                 std::string &Why, unsigned Lanes,
                                 bool Vectors) {
  ASTContext &Ctx = S.Context;
  Sig = PullbackSignature();
  Sig.Name = pushforwardName(Primal);
  llvm::StringSet<> Used;
  addPrimalParams(Primal, Sig, Used);
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
      return false;
    }
    SemaBuilder B(S, Primal->getLocation());
    Ret = Lanes ? B.runtimeType(
                      "dual", {B.typeArg(R.getUnqualifiedType()),
                               B.exprArg(B.intLit(Lanes, Ctx.getSizeType()))})
                : B.runtimeType("dual", R.getUnqualifiedType());
    if (Ret.isNull()) {
      Why = "the runtime type 'grad::dual' is not declared (include "
            "<grad/grad.h>)";
      return false;
    }
  }
  for (unsigned I = 0; I < Primal->getNumParams(); ++I) {
    Sig.AdjointIndex.push_back(-1);
    if (I >= Wrt.size() || !Wrt[I])
      continue;
    const ParmVarDecl *P = Primal->getParamDecl(I);
    QualType PT = P->getType();
    ParamClass C = classifyParam(Ctx, PT);
    QualType T;
    switch (C.Kind) {
    case ParamKind::None:
      continue;
    case ParamKind::Scalar:
      T = PT.getNonReferenceType().getUnqualifiedType();
      break;
    case ParamKind::ScalarRef:
      T = Ctx.getPointerType(C.AdjointPointee);
      break;
    case ParamKind::Pointer: {
      // `const T*` and (for [[grad::forward]] functions, as the ABI says)
      // `T[]`: read-only tangents; `T*`: in/out. Callees differentiated on
      // demand and generated functions take `T*` for a writable `T[]`.
      bool UserFacing = State::get(Ctx).ForwardRequests.count(
                            Primal->getCanonicalDecl()) != 0;
      bool ReadOnly = (UserFacing && (P->getOriginalType()->isArrayType() ||
                                      PT.getNonReferenceType()->isArrayType())) ||
                      // (also a reference to one: a pointer captured by
                      // reference by a lifted lambda, `const double *&p`)
                      (PT.getNonReferenceType()->isPointerType() &&
                       PT.getNonReferenceType()
                           ->getPointeeType()
                           .isConstQualified()) ||
                      (PT.getNonReferenceType()->isArrayType() &&
                       PT.getNonReferenceType()
                           ->getAsArrayTypeUnsafe()
                           ->getElementType()
                           .isConstQualified());
      QualType E = C.AdjointPointee;
      T = Ctx.getPointerType(ReadOnly ? E.withConst() : E);
      break;
    }
    case ParamKind::Class: {
      QualType CT = PT.getNonReferenceType().getUnqualifiedType();
      if (PT->isLValueReferenceType() &&
          !PT.getNonReferenceType().isConstQualified())
        T = Ctx.getPointerType(CT);
      else
        T = Ctx.getLValueReferenceType(CT.withConst());
      break;
    }
    }
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

/// A function of \p Sig declared next to \p Primal (its context, storage
/// and inline-ness), visible from \p Sc's scope chain.
static FunctionDecl *declareNextTo(Sema &S, FunctionDecl *Primal,
                                   const PullbackSignature &Sig, Scope *Sc) {
  ASTContext &Ctx = S.Context;
  DeclContext *DC = Primal->getDeclContext();
  SourceLocation PLoc = Primal->getLocation();
  TypeSourceInfo *TSI = Ctx.getTrivialTypeSourceInfo(Sig.Type, PLoc);
  bool Inline = Primal->isInlineSpecified() || Primal->isConstexpr() ||
                Primal->isTemplateInstantiation();
  StorageClass SC =
      Primal->getStorageClass() == SC_Static ? SC_Static : SC_None;
  FunctionDecl *FD = FunctionDecl::Create(
      Ctx, DC, PLoc, PLoc, DeclarationName(&Ctx.Idents.get(Sig.Name)),
      Sig.Type, TSI, SC, /*UsesFPIntrin=*/false, Inline,
      /*hasWrittenPrototype=*/true);
  setParams(Ctx, FD, TSI, Sig);
  FD->setLexicalDeclContext(Primal->getLexicalDeclContext());
  DC->addDecl(FD);
  if (Sc)
    if (Scope *Target = scopeFor(S, Sc, lookupContext(Primal)))
      S.PushOnScopeChains(FD, Target, /*AddToContext=*/false);
  State::get(Ctx).Generated.insert(FD);
  return FD;
}

PushforwardEntry *declarePushforward(Sema &S, FunctionDecl *Primal,
                                     const WrtMask &Wrt, Scope *Sc,
                                     SourceLocation Loc, std::string &Why,
                                     const WrtMask *Drop,
                                     StringRef NameOverride, unsigned Lanes,
                                     bool Linear) {
  ASTContext &Ctx = S.Context;
  State &St = State::get(Ctx);
  WrtMask NoDrop(Primal->getNumParams(), false);
  const WrtMask &D = Drop ? *Drop : NoDrop;
  bool AnyDrop = llvm::is_contained(D, true);
  auto &List = St.Pushforwards[Primal->getCanonicalDecl()];
  for (PushforwardEntry *E : List)
    if (E->Wrt == Wrt && E->Lanes == Lanes && E->Linear == Linear &&
        (E->Drop == D || (!AnyDrop && E->Drop.empty())))
      return E;
  if (const char *Kind = pushforwardUnsupported(Primal)) {
    Why = std::string("forward mode does not support a ") + Kind + " yet";
    return nullptr;
  }
  PullbackSignature Sig;
  if (!computePushforwardSignature(S, Primal, Wrt, Sig, Why, Lanes, Linear))
    return nullptr;
  if (!NameOverride.empty())
    Sig.Name = NameOverride.str();
  if (AnyDrop) {
    Sig.Name = (NameOverride.empty() ? "_grad_" : "") + Sig.Name + "_drop";
    for (bool B : D)
      Sig.Name += B ? '1' : '0';
  }
  if (Linear) {
    // `_grad_p2e_rev` -> `_grad_p2e_rev_lanes2_110` (the mask: which
    // parameters are adjoints, for a half called with different ones).
    StringRef Base = Primal->getName();
    Base.consume_front("_grad_");
    Sig.Name = ("_grad_" + Base + "_lanes" + Twine(Lanes) + "_").str();
    for (bool B : D)
      Sig.Name += B ? '1' : '0';
    // The adjoints' values are never read: their lanes only, under their
    // names.
    PullbackSignature L = Sig;
    L.ParamNames.clear();
    L.ParamTypes.clear();
    unsigned NP = Primal->getNumParams();
    for (unsigned I = 0; I < NP; ++I)
      if (!D[I]) {
        L.ParamNames.push_back(Sig.ParamNames[I]);
        L.ParamTypes.push_back(Sig.ParamTypes[I]);
      }
    for (unsigned I = 0; I < NP; ++I)
      if (int TI = Sig.AdjointIndex[I]; TI >= 0) {
        L.AdjointIndex[I] = L.ParamTypes.size();
        L.ParamNames.push_back(Sig.ParamNames[I]);
        L.ParamTypes.push_back(Sig.ParamTypes[TI]);
      }
    L.Type = Ctx.getFunctionType(Ctx.VoidTy, L.ParamTypes,
                                 FunctionProtoType::ExtProtoInfo());
    Sig = L;
  }
  auto Entry = std::make_unique<PushforwardEntry>();
  Entry->Primal = Primal;
  Entry->Wrt = Wrt;
  Entry->Drop = D;
  Entry->Lanes = Lanes;
  Entry->Linear = Linear;
  Entry->Sig = Sig;
  Entry->RequestLoc = Loc;
  // A user-declared NAME_pushforward of exactly this type wins.
  FunctionDecl *Mismatch = nullptr;
  FunctionDecl *User = AnyDrop || Linear || !NameOverride.empty()
                           ? nullptr
                           : findUserPullback(S, Primal, Sig, Mismatch);
  if (User) {
    Entry->Pushforward = User;
    Entry->UserProvided = true;
  } else {
    Entry->Pushforward = declareNextTo(S, Primal, Sig, Sc);
  }
  St.ForwardEntries.push_back(std::move(Entry));
  // (List may have moved: look it up again.)
  auto &L2 = St.Pushforwards[Primal->getCanonicalDecl()];
  L2.push_back(St.ForwardEntries.back().get());
  return L2.back();
}

/// The user's function of exactly \p Sig (\p User set: it is defined
/// already), or ours, declared next to \p Primal.
static FunctionDecl *userOrDeclared(Sema &S, FunctionDecl *Primal,
                                    const PullbackSignature &Sig, Scope *Sc,
                                    bool &User) {
  FunctionDecl *Mismatch = nullptr;
  if (FunctionDecl *F = findUserPullback(S, Primal, Sig, Mismatch)) {
    User = true;
    return F;
  }
  return declareNextTo(S, Primal, Sig, Sc);
}

std::string hvpName(const FunctionDecl *Primal) {
  return derivativeName(Primal, "_hvp");
}

HvpEntry *declareHvp(Sema &S, FunctionDecl *Primal, const WrtMask &Wrt,
                     Scope *Sc, SourceLocation Loc, std::string &Why) {
  ASTContext &Ctx = S.Context;
  State &St = State::get(Ctx);
  if (auto It = St.Hvps.find(Primal->getCanonicalDecl());
      It != St.Hvps.end())
    return It->second.get();
  if (const char *Kind = pushforwardUnsupported(Primal)) {
    Why = std::string("Hessian-vector products do not support a ") + Kind +
          " yet";
    return nullptr;
  }
  QualType R = Primal->getReturnType();
  if (!isFloating(R) || R->isReferenceType()) {
    Why = "a Hessian needs a floating scalar result, not '" +
          R.getAsString(Ctx.getPrintingPolicy()) + "'";
    return nullptr;
  }
  auto E = std::make_unique<HvpEntry>();
  PullbackSignature &Sig = E->Sig;
  Sig.Name = hvpName(Primal);
  llvm::StringSet<> Used;
  addPrimalParams(Primal, Sig, Used);
  auto Fresh = [&](std::string N) {
    while (Used.count(N))
      N += "_";
    Used.insert(N);
    return N;
  };
  // Directions, typed like the pushforward's tangents, then adjoints,
  // typed like the pullback's.
  SmallVector<unsigned, 8> Params;
  for (unsigned I = 0; I < Primal->getNumParams(); ++I) {
    Sig.AdjointIndex.push_back(-1);
    E->OutIndex.push_back(-1);
    if (I >= Wrt.size() || !Wrt[I])
      continue;
    const ParmVarDecl *P = Primal->getParamDecl(I);
    QualType PT = P->getType();
    ParamClass C = classifyParam(Ctx, PT);
    if (C.Kind == ParamKind::None)
      continue;
    bool Written =
        C.Kind == ParamKind::ScalarRef ||
        (C.Kind == ParamKind::Pointer && PT->isPointerType() &&
         !PT->getPointeeType().isConstQualified() &&
         !P->getOriginalType()->isArrayType()) ||
        (C.Kind == ParamKind::Class && PT->isLValueReferenceType() &&
         !PT.getNonReferenceType().isConstQualified());
    if (Written) {
      Why = "parameter '" + Sig.ParamNames[I] +
            "' may be written (Hessian-vector products need read-only "
            "parameters: make it const)";
      return nullptr;
    }
    Params.push_back(I);
  }
  PullbackSignature PF;
  if (!computePushforwardSignature(S, Primal, Wrt, PF, Why))
    return nullptr;
  for (unsigned I : Params) {
    Sig.AdjointIndex[I] = Sig.ParamTypes.size();
    Sig.ParamNames.push_back(Fresh("v_" + Sig.ParamNames[I]));
    Sig.ParamTypes.push_back(PF.ParamTypes[PF.AdjointIndex[I]]);
  }
  for (unsigned I : Params) {
    E->OutIndex[I] = Sig.ParamTypes.size();
    Sig.ParamNames.push_back(Fresh("d_" + Sig.ParamNames[I]));
    Sig.ParamTypes.push_back(Ctx.getPointerType(
        classifyParam(Ctx, Primal->getParamDecl(I)->getType())
            .AdjointPointee));
  }
  Sig.Type = Ctx.getFunctionType(Ctx.VoidTy, Sig.ParamTypes,
                                 FunctionProtoType::ExtProtoInfo());
  E->Primal = Primal;
  E->Wrt = Wrt;
  E->AttrLoc = Loc;
  E->Hvp = userOrDeclared(S, Primal, Sig, Sc, E->Defined);
  auto &Slot = St.Hvps[Primal->getCanonicalDecl()];
  Slot = std::move(E);
  return Slot.get();
}

VectorPullbackEntry *declareVectorPullback(Sema &S, FunctionDecl *Primal,
                                           const WrtMask &Wrt, unsigned Lanes,
                                           Scope *Sc, SourceLocation Loc,
                                           std::string &Why) {
  ASTContext &Ctx = S.Context;
  State &St = State::get(Ctx);
  if (auto It = St.VectorPullbacks.find(Primal->getCanonicalDecl());
      It != St.VectorPullbacks.end())
    return It->second.get();
  if (const char *Kind = pushforwardUnsupported(Primal)) {
    Why = std::string("vector pullbacks do not support a ") + Kind + " yet";
    return nullptr;
  }
  PullbackSignature Sig;
  if (!computeSignature(Ctx, Primal, Wrt, pullbackName(Primal), Sig, Why))
    return nullptr;
  // The primal's parameters, then its seed and adjoints as lanes.
  for (unsigned I = Primal->getNumParams(); I < Sig.ParamTypes.size(); ++I) {
    QualType L = tangentType(S, Sig.ParamTypes[I], Lanes, Loc);
    if (L.isNull()) {
      // (Named as the user wrote it: the parameter or the result.)
      std::string What = "the result of type '" +
                         Primal->getReturnType().getAsString(
                             Ctx.getPrintingPolicy()) +
                         "'";
      for (unsigned J = 0; J < Primal->getNumParams(); ++J)
        if (Sig.AdjointIndex[J] == int(I))
          What = "parameter '" + Sig.ParamNames[J] + "' of type '" +
                 Primal->getParamDecl(J)->getType().getAsString(
                     Ctx.getPrintingPolicy()) +
                 "'";
      if (int(I) == Sig.ThisIndex)
        What = "the object of the member function";
      Why = "vector pullbacks do not support " + What +
            " yet (objects and containers have no lanes)";
      return nullptr;
    }
    Sig.ParamTypes[I] = L;
  }
  Sig.Type = Ctx.getFunctionType(Ctx.VoidTy, Sig.ParamTypes,
                                 FunctionProtoType::ExtProtoInfo());
  auto E = std::make_unique<VectorPullbackEntry>();
  E->Primal = Primal;
  E->Wrt = Wrt;
  E->Lanes = Lanes;
  E->AttrLoc = Loc;
  E->Fn = userOrDeclared(S, Primal, Sig, Sc, E->Defined);
  auto &Slot = St.VectorPullbacks[Primal->getCanonicalDecl()];
  Slot = std::move(E);
  return Slot.get();
}

} // namespace grad
