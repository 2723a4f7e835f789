//===- Pushforward.cpp - Declaring pushforwards ---------------------------===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "driver/Pushforward.h"
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

/// \p Mask appended to \p Name, one digit a parameter.
static void appendMask(std::string &Name, const WrtMask &Mask) {
  for (bool B : Mask)
    Name += B ? '1' : '0';
}

/// \p Sig without the parameters \p Drop marks, their lanes taking their
/// place after the others: the adjoints' values are never read, their
/// lanes only, under their names.
static PullbackSignature lanesOnlySignature(ASTContext &Ctx,
                                            const FunctionDecl *Primal,
                                            const PullbackSignature &Sig,
                                            const WrtMask &Drop) {
  PullbackSignature L = Sig;
  L.ParamNames.clear();
  L.ParamTypes.clear();
  unsigned NP = Primal->getNumParams();
  for (unsigned I = 0; I < NP; ++I)
    if (!Drop[I]) {
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
  return L;
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
    appendMask(Sig.Name, D);
  }
  if (Linear) {
    // `_grad_p2e_rev` -> `_grad_p2e_rev_lanes2_110` (the mask: which
    // parameters are adjoints, for a half called with different ones).
    StringRef Base = Primal->getName();
    Base.consume_front("_grad_");
    Sig.Name = ("_grad_" + Base + "_lanes" + Twine(Lanes) + "_").str();
    appendMask(Sig.Name, D);
    Sig = lanesOnlySignature(Ctx, Primal, Sig, D);
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

/// True if the function may write the parameter \p P of class \p C.
static bool mayWriteParam(const ParmVarDecl *P, const ParamClass &C) {
  QualType PT = P->getType();
  return C.Kind == ParamKind::ScalarRef ||
         (C.Kind == ParamKind::Pointer && PT->isPointerType() &&
          !PT->getPointeeType().isConstQualified() &&
          !P->getOriginalType()->isArrayType()) ||
         (C.Kind == ParamKind::Class && PT->isLValueReferenceType() &&
          !PT.getNonReferenceType().isConstQualified());
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
    if (mayWriteParam(P, C)) {
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
