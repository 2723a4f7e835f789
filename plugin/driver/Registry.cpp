//===- Registry.cpp - Pullback signatures and per-TU state ------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "driver/Registry.h"
#include "ast/Diagnostics.h"
#include "analysis/Paths.h"
#include "ast/SemaBuilder.h"
#include "analysis/Selectors.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Sema/Lookup.h"
#include "clang/Sema/Scope.h"
#include "clang/Sema/Sema.h"
#include "clang/Sema/TemplateDeduction.h"
#include "llvm/ADT/StringExtras.h"
#include <cctype>
#include <mutex>

using namespace clang;

namespace grad {

//===----------------------------------------------------------------------===//
// State
//===----------------------------------------------------------------------===//

// Every translation unit's AstFacts object is a State.
static const bool StateIsTheFacts = [] {
  AstFacts::Make = []() -> std::unique_ptr<AstFacts> {
    return std::make_unique<State>();
  };
  return true;
}();

State &State::get(ASTContext &Ctx) {
  (void)StateIsTheFacts;
  return static_cast<State &>(AstFacts::get(Ctx));
}

void State::release(ASTContext &Ctx) { AstFacts::release(Ctx); }



static bool sameMask(const WrtMask &A, const WrtMask &B) {
  return A.size() == B.size() && std::equal(A.begin(), A.end(), B.begin());
}

PullbackEntry *State::find(const FunctionDecl *Primal, const WrtMask &Wrt) {
  for (const FunctionDecl *R : Primal->redecls()) {
    auto It = Pullbacks.find(R);
    if (It == Pullbacks.end())
      continue;
    for (PullbackEntry *E : It->second)
      if (sameMask(E->Wrt, Wrt))
        return E;
  }
  return nullptr;
}

PullbackEntry *State::addStableVariant(PullbackEntry &Base,
                                       const WrtMask &Stable) {
  Entries.push_back(std::make_unique<PullbackEntry>());
  PullbackEntry *E = Entries.back().get();
  E->Primal = Base.Primal;
  E->Pullback = Base.Pullback;
  E->Wrt = Base.Wrt;
  E->RequestLoc = Base.RequestLoc;
  E->Requester = Base.Requester;
  E->RequesterEntry = Base.RequesterEntry;
  E->Split = 1;
  E->Wanted = false;
  E->Defined = true; // (only its halves are built)
  E->Stable = Stable;
  Base.StableVariant = E;
  return E;
}


PullbackTemplate *State::templateOf(const FunctionDecl *Primal) {
  const FunctionTemplateDecl *PT = Primal->getPrimaryTemplate();
  if (!PT)
    return nullptr;
  auto It = TemplateIndex.find(PT->getCanonicalDecl());
  return It == TemplateIndex.end() ? nullptr : &Templates[It->second];
}

PullbackEntry *State::add(FunctionDecl *Primal, FunctionDecl *PB,
                          const WrtMask &Wrt, bool User) {
  Entries.push_back(std::make_unique<PullbackEntry>());
  PullbackEntry *E = Entries.back().get();
  E->Primal = Primal;
  E->Pullback = PB;
  E->Wrt = Wrt;
  E->UserProvided = User;
  Pullbacks[Primal].push_back(E);
  ByPullback[PB].push_back(E);
  if (!User)
    Generated.insert(PB);
  return E;
}


//===----------------------------------------------------------------------===//
// Declaring pullbacks
//===----------------------------------------------------------------------===//

DeclContext *lookupContext(const FunctionDecl *Primal) {
  return const_cast<DeclContext *>(
      Primal->getDeclContext()->getRedeclContext());
}

FunctionDecl *findUserPullback(Sema &S, const FunctionDecl *Primal,
                               const PullbackSignature &Sig,
                               FunctionDecl *&Mismatch) {
  Mismatch = nullptr;
  ASTContext &Ctx = S.Context;
  State &St = State::get(Ctx);
  LookupResult R(S, DeclarationName(&Ctx.Idents.get(Sig.Name)),
                 Primal->getLocation(), Sema::LookupOrdinaryName);
  S.LookupQualifiedName(R, lookupContext(Primal));
  for (NamedDecl *ND : R) {
    // template <class T> void f_pullback(T x, T d, T *dx): the
    // specialization whose type is the pullback's.
    if (auto *FTD = dyn_cast<FunctionTemplateDecl>(ND->getUnderlyingDecl())) {
      // The pullback template clang-grad declared for a [[grad]] template.
      if (St.Generated.count(FTD->getTemplatedDecl()) ||
          St.Generated.count(FTD->getTemplatedDecl()->getCanonicalDecl()))
        continue;
      FunctionDecl *Spec = nullptr;
      sema::TemplateDeductionInfo Info(Primal->getLocation());
      if (S.DeduceTemplateArguments(FTD, nullptr, Sig.Type, Spec, Info) ==
              TemplateDeductionResult::Success &&
          Spec && !St.Generated.count(Spec) &&
          Ctx.hasSameType(Spec->getType(), Sig.Type)) {
        S.MarkFunctionReferenced(Primal->getLocation(), Spec);
        return Spec;
      }
      continue;
    }
    auto *FD = dyn_cast<FunctionDecl>(ND->getUnderlyingDecl());
    if (!FD || St.Generated.count(FD) ||
        St.Generated.count(FD->getCanonicalDecl()))
      continue;
    if (Ctx.hasSameType(FD->getType(), Sig.Type))
      return FD;
    Mismatch = FD;
  }
  return nullptr;
}

/// True if another overload of \p Primal has \p Candidate's type as its
/// pullback type (then \p Candidate is no mismatched custom pullback).
bool isPullbackOfOverload(Sema &S, const FunctionDecl *Primal,
                                 const FunctionDecl *Candidate) {
  const DeclContext *DC = Primal->getDeclContext()->getRedeclContext();
  for (const NamedDecl *ND :
       DC->lookup(Primal->getDeclName())) {
    const auto *Other = dyn_cast<FunctionDecl>(ND->getUnderlyingDecl());
    if (!Other || Other->getCanonicalDecl() == Primal->getCanonicalDecl())
      continue;
    PullbackSignature Sig;
    std::string Why;
    if (computeSignature(S.Context, Other, fullMask(Other),
                         Candidate->getName(), Sig, Why) &&
        S.Context.hasSameType(Sig.Type, Candidate->getType()))
      return true;
  }
  return false;
}

Scope *scopeFor(Sema &S, Scope *Sc, DeclContext *Target) {
  for (Scope *It = Sc; It; It = It->getParent())
    if (DeclContext *E = It->getEntity())
      if (E->getRedeclContext()->Equals(Target))
        return It;
  return nullptr;
}

/// True if \p E's halves need a numbered name: same-signature
/// instantiations (block<2>, block<3>) need distinct names, and so do the
/// halves of a wrt-restricted and an all-parameter entry of one function.
static bool sharesSplitNames(State &St, const PullbackEntry &E) {
  const FunctionDecl *Primal = E.Primal;
  bool Shared = Primal->isTemplateInstantiation() || !E.Stable.empty();
  for (const FunctionDecl *R : Primal->redecls()) {
    auto It = St.Pullbacks.find(R);
    if (It != St.Pullbacks.end())
      for (const PullbackEntry *Other : It->second)
        Shared |= Other != &E && Other->Fwd;
  }
  return Shared;
}

/// The forward half's return type, unqualified.
static QualType forwardHalfReturnType(ASTContext &Ctx,
                                      const FunctionDecl *Primal) {
  // (A `const double &` result is returned by value: the half's own
  // copy of it.)
  QualType FwdRet = Primal->getReturnType();
  if (returnsWritableReference(Primal))
    // A reference into an argument (`double& largest(double* a, int n)`)
    // comes back as a pointer for the caller's alias; other references
    // are discarded by their callers.
    FwdRet = pointedParam(Primal) >= 0
                 ? Ctx.getPointerType(FwdRet.getNonReferenceType())
                 : Ctx.VoidTy;
  else if (FwdRet->isReferenceType() &&
           isFloating(FwdRet.getNonReferenceType()))
    FwdRet = FwdRet.getNonReferenceType();
  return FwdRet.getUnqualifiedType();
}

/// The name the halves of a split derivative of \p Primal build on: its
/// own, or for operators and conversions (no identifier) the word their
/// pullback's name uses (`operator_plus_assign`), so that the halves'
/// names are identifiers when printed.
static std::string splitBaseName(const FunctionDecl *Primal) {
  if (Primal->getOverloadedOperator() == OO_None &&
      !isa<CXXConversionDecl>(Primal) && !Primal->getLiteralIdentifier())
    return Primal->getNameAsString();
  std::string Full = pullbackName(Primal);
  llvm::StringRef Name = Full;
  Name.consume_back("_pullback");
  return Name.str();
}

namespace {
/// Declares the halves of a split pullback next to their primal.
struct SplitHalves {
  ASTContext &Ctx;
  State &St;
  const FunctionDecl *Primal;
  StorageClass SC;
  bool Inline;

  /// The half \p Name returning \p Ret, with \p FSig's parameters (its
  /// type set here).
  FunctionDecl *declare(StringRef Name, QualType Ret,
                        PullbackSignature &FSig) const {
    SourceLocation PLoc = Primal->getLocation();
    FSig.Type = Ctx.getFunctionType(Ret, FSig.ParamTypes,
                                    FunctionProtoType::ExtProtoInfo());
    TypeSourceInfo *TSI = Ctx.getTrivialTypeSourceInfo(FSig.Type, PLoc);
    auto *DC = const_cast<DeclContext *>(Primal->getDeclContext());
    FunctionDecl *FD = FunctionDecl::Create(
        Ctx, DC, PLoc, PLoc,
        DeclarationName(&Ctx.Idents.get(Name)), FSig.Type, TSI, SC,
        /*UsesFPIntrin=*/false, Inline, /*hasWrittenPrototype=*/true);
    setParams(Ctx, FD, TSI, FSig);
    FD->setLexicalDeclContext(
        const_cast<DeclContext *>(Primal->getLexicalDeclContext()));
    DC->addDecl(FD);
    St.Generated.insert(FD);
    return FD;
  }
};
} // namespace

void declareSplit(Sema &S, PullbackEntry &E, bool Internal) {
  if (E.Fwd)
    return;
  ASTContext &Ctx = S.Context;
  State &St = State::get(Ctx);
  const FunctionDecl *Primal = E.Primal;
  PullbackSignature Sig;
  std::string Why;
  computeSignature(Ctx, Primal, E.Wrt, "", Sig, Why);
  // Same-signature instantiations (block<2>, block<3>) need distinct names.
  std::string Base = "_grad_" + splitBaseName(Primal);
  std::string Suffix = sharesSplitNames(St, E)
                           ? "_" + std::to_string(St.SplitCount++)
                           : std::string();
  SourceLocation PLoc = Primal->getLocation();
  bool Inline = E.Pullback->isInlined() || Primal->isInlined() ||
                Primal->isTemplateInstantiation();
  // (A variant's halves are this translation unit's own: another one may
  // make a variant of the same function for other parameters.)
  // (Halves inlined into their callers are internal too: nothing else
  // calls them, and no copy stays once they are inlined.)
  StorageClass SC =
      Primal->getStorageClass() == SC_Static || !E.Stable.empty() || Internal
          ? SC_Static
          : SC_None;
  SplitHalves Make{Ctx, St, Primal, SC, Inline};
  // Both halves take the stack their frame goes through last: the
  // caller's (the thread's stack, bound once by the outermost pullback).
  QualType StackT = SemaBuilder(S, PLoc).runtimeDetailType("stack");
  StackT = StackT.isNull() ? StackT : Ctx.getLValueReferenceType(StackT);
  // Forward: the primal's parameters; it pushes its frame on the stack.
  PullbackSignature FS;
  for (unsigned I = 0; I < Primal->getNumParams(); ++I) {
    FS.ParamNames.push_back(Sig.ParamNames[I]);
    FS.ParamTypes.push_back(Sig.ParamTypes[I]);
  }
  E.HalvesTakeStack = !StackT.isNull();
  if (!StackT.isNull()) {
    FS.ParamNames.push_back("_stack");
    FS.ParamTypes.push_back(StackT);
  }
  E.Fwd = Make.declare(Base + "_fwd" + Suffix,
                       forwardHalfReturnType(Ctx, Primal), FS);
  // Reverse: the pullback's parameters but the primal's pointers,
  // references and objects (the forward half recorded what the reverse
  // sweep reads of them; their memory may have changed since); it pops the
  // frame.
  PullbackSignature RS;
  for (unsigned I = 0; I < Sig.ParamTypes.size(); ++I) {
    if (I < Primal->getNumParams() && !E.reverseHalfTakes(I))
      continue;
    RS.ParamNames.push_back(Sig.ParamNames[I]);
    RS.ParamTypes.push_back(Sig.ParamTypes[I]);
  }
  if (!StackT.isNull()) {
    RS.ParamNames.push_back("_stack");
    RS.ParamTypes.push_back(StackT);
  }
  E.Rev = Make.declare(Base + "_rev" + Suffix, Ctx.VoidTy, RS);
}

bool declarePullbackTemplate(Sema &S, FunctionDecl *Pattern,
                             const WrtMask &Wrt, Scope *Sc,
                             SourceLocation Loc) {
  ASTContext &Ctx = S.Context;
  State &St = State::get(Ctx);
  FunctionTemplateDecl *PT = Pattern->getDescribedFunctionTemplate();
  if (!PT)
    return false;
  if (St.TemplateIndex.count(PT->getCanonicalDecl()))
    return true;
  PullbackSignature Sig;
  std::string Why;
  if (!computeSignature(Ctx, Pattern, Wrt, pullbackName(Pattern), Sig, Why))
    return false;
  DeclContext *DC = Pattern->getDeclContext();
  SourceLocation PLoc = Pattern->getLocation();
  TypeSourceInfo *TSI = Ctx.getTrivialTypeSourceInfo(Sig.Type, PLoc);
  StorageClass SC =
      Pattern->getStorageClass() == SC_Static ? SC_Static : SC_None;
  DeclarationName Name(&Ctx.Idents.get(Sig.Name));
  // Inline: its explicit specializations, as grad-dump prints them, may
  // then appear in several translation units.
  FunctionDecl *PB =
      FunctionDecl::Create(Ctx, DC, PLoc, PLoc, Name, Sig.Type, TSI, SC,
                           /*UsesFPIntrin=*/false, /*isInlineSpecified=*/true,
                           /*hasWrittenPrototype=*/true);
  setParams(Ctx, PB, TSI, Sig);
  // The pullback template shares the primal's template parameters, so the
  // same template arguments name matching specializations.
  auto *FTD = FunctionTemplateDecl::Create(Ctx, DC, PLoc, Name,
                                           PT->getTemplateParameters(), PB);
  PB->setDescribedFunctionTemplate(FTD);
  PB->setLexicalDeclContext(Pattern->getLexicalDeclContext());
  FTD->setLexicalDeclContext(Pattern->getLexicalDeclContext());
  DC->addDecl(FTD);
  if (Sc)
    if (Scope *Target = scopeFor(S, Sc, lookupContext(Pattern)))
      S.PushOnScopeChains(FTD, Target, /*AddToContext=*/false);
  St.TemplateIndex[PT->getCanonicalDecl()] = St.Templates.size();
  St.Templates.push_back({PT, FTD, Wrt, Loc, 0});
  St.Generated.insert(PB);
  return true;
}

static std::string nameWithArgs(const FunctionDecl *FD) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  PrintingPolicy Policy(FD->getASTContext().getLangOpts());
  Policy.SuppressTagKeyword = true;
  FD->getNameForDiagnostic(OS, Policy, /*Qualified=*/false);
  return Out;
}

/// The specialization of \p T's pullback template for \p Primal, a
/// specialization of its primal template; null after reporting why the
/// instantiation has no derivative.
static PullbackEntry *declareSpecialization(Sema &S, PullbackTemplate &T,
                                            FunctionDecl *Primal,
                                            const WrtMask &Wrt,
                                            SourceLocation Loc) {
  ASTContext &Ctx = S.Context;
  State &St = State::get(Ctx);
  if (St.BadSpecializations.count(Primal->getCanonicalDecl()))
    return nullptr;
  PullbackSignature Sig;
  std::string Why;
  bool OK = computeSignature(Ctx, Primal, Wrt,
                             T.Pullback->getName(), Sig, Why);
  for (unsigned I = 0; OK && I < Primal->getNumParams(); ++I) {
    const ParmVarDecl *P = Primal->getParamDecl(I);
    if (I < Wrt.size() && Wrt[I] &&
        classifyParam(Ctx, P->getType()).Kind == ParamKind::None) {
      Why = "parameter '" + P->getNameAsString() + "' has type '" +
            P->getType().getAsString() +
            "', which has no derivative (mark it [[grad::nodiff]])";
      OK = false;
    }
  }
  FunctionDecl *Spec = nullptr;
  if (OK) {
    Spec = S.InstantiateFunctionDeclaration(
        T.Pullback, Primal->getTemplateSpecializationArgs(), Loc);
    OK = Spec && Ctx.hasSameType(Spec->getType(), Sig.Type);
    if (!OK)
      Why = "its pullback would not be '" + Sig.str(Ctx) + "'";
  }
  if (!OK) {
    St.BadSpecializations.insert(Primal->getCanonicalDecl());
    report(S.Diags, Diag::TemplateSpecNotDifferentiable, Loc)
        << nameWithArgs(Primal) << nameOf(T.Primal) << Why;
    report(S.Diags, Diag::GradSiteNote, T.AttrLoc)
        << nameOf(T.Primal);
    return nullptr;
  }
  PullbackEntry *E = St.add(Primal, Spec, Wrt, /*User=*/false);
  E->RequestLoc = Loc;
  return E;
}

FunctionDecl *primalSpecialization(Sema &S, const PullbackTemplate &T,
                                   FunctionDecl *Spec, SourceLocation Loc) {
  const TemplateArgumentList *Args = Spec->getTemplateSpecializationArgs();
  if (!Args)
    return nullptr;
  void *Pos = nullptr;
  FunctionDecl *PS = T.Primal->findSpecialization(Args->asArray(), Pos);
  if (!PS)
    PS = S.InstantiateFunctionDeclaration(T.Primal, Args, Loc);
  if (PS)
    instantiatedDefinition(S, PS, Loc, /*AtEndOfTU=*/true);
  return PS;
}

/// The entry of \p Primal for \p Wrt that already uses our pullback
/// \p FD, or null; \p Collision set when \p FD belongs to another
/// specialization of the same signature.
static PullbackEntry *sharingEntry(State &St, FunctionDecl *FD,
                                   FunctionDecl *Primal, const WrtMask &Wrt,
                                   bool &Collision) {
  auto Sharing = St.ByPullback.find(FD);
  for (PullbackEntry *E : Sharing == St.ByPullback.end()
                              ? ArrayRef<PullbackEntry *>()
                              : ArrayRef<PullbackEntry *>(Sharing->second)) {
    if (!sameMask(E->Wrt, Wrt))
      continue;
    // Template specializations can share a signature (chain<2> and
    // chain<3>): only a redeclaration of the same primal may reuse it.
    if ((E->Primal->isTemplateInstantiation() ||
         Primal->isTemplateInstantiation()) &&
        E->Primal->getCanonicalDecl() != Primal->getCanonicalDecl()) {
      Collision = true;
      continue;
    }
    return E;
  }
  return nullptr;
}

/// The pullback \p Name of \p Sig next to \p Primal (a member of the same
/// class for a method), with its parameters, not yet added to its context.
static FunctionDecl *createPullbackDecl(ASTContext &Ctx, FunctionDecl *Primal,
                                        StringRef Name,
                                        const PullbackSignature &Sig) {
  DeclContext *DC = Primal->getDeclContext();
  SourceLocation PLoc = Primal->getLocation();
  TypeSourceInfo *TSI = Ctx.getTrivialTypeSourceInfo(Sig.Type, PLoc);
  bool Inline = Primal->isInlineSpecified() || Primal->isConstexpr() ||
                (Primal->isInlined() && isa<CXXMethodDecl>(Primal)) ||
                Primal->isTemplateInstantiation();
  StorageClass SC =
      Primal->getStorageClass() == SC_Static ? SC_Static : SC_None;
  FunctionDecl *PB;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Primal)) {
    // A member of the same class, with the primal's qualifiers.
    auto *RD = const_cast<CXXRecordDecl *>(MD->getParent());
    DeclarationNameInfo NameInfo(DeclarationName(&Ctx.Idents.get(Name)), PLoc);
    PB = CXXMethodDecl::Create(Ctx, RD, PLoc, NameInfo, Sig.Type, TSI,
                               MD->isStatic() ? SC_Static : SC_None, false,
                               Inline || MD->isInlined(),
                               ConstexprSpecKind::Unspecified, PLoc);
    PB->setAccess(AS_public);
  } else {
    PB = FunctionDecl::Create(Ctx, DC, PLoc, PLoc,
                              DeclarationName(&Ctx.Idents.get(Name)), Sig.Type,
                              TSI, SC, /*UsesFPIntrin=*/false, Inline,
                              /*hasWrittenPrototype=*/true);
  }
  setParams(Ctx, PB, TSI, Sig);
  PB->setLexicalDeclContext(Primal->getLexicalDeclContext());
  return PB;
}

PullbackEntry *declarePullback(Sema &S, FunctionDecl *Primal,
                               const WrtMask &Wrt, Scope *Sc,
                               SourceLocation Loc, StringRef NameOverride) {
  ASTContext &Ctx = S.Context;
  State &St = State::get(Ctx);
  if (PullbackEntry *E = St.find(Primal, Wrt))
    return E;
  if (PullbackTemplate *T = St.templateOf(Primal))
    if (NameOverride.empty() && sameMask(T->Wrt, Wrt))
      return declareSpecialization(S, *T, Primal, Wrt, Loc);

  std::string Name =
      NameOverride.empty() ? pullbackName(Primal) : NameOverride.str();
  if (Name.empty())
    return nullptr;
  PullbackSignature Sig;
  std::string Why;
  if (!computeSignature(Ctx, Primal, Wrt, Name, Sig, Why))
    return nullptr;

  // A function of this name and type may exist already: ours (a
  // redeclaration of the primal) or the user's (a custom derivative).
  LookupResult R(S, DeclarationName(&Ctx.Idents.get(Name)), Loc,
                 Sema::LookupOrdinaryName);
  S.LookupQualifiedName(R, lookupContext(Primal));
  for (NamedDecl *ND : R) {
    auto *FD = dyn_cast<FunctionDecl>(ND->getUnderlyingDecl());
    if (!FD || !Ctx.hasSameType(FD->getType(), Sig.Type))
      continue;
    bool Ours = false;
    for (FunctionDecl *Re : FD->redecls())
      Ours |= St.Generated.count(Re) != 0;
    if (!Ours)
      return St.add(Primal, FD, Wrt, /*User=*/true);
    bool Collision = false;
    if (PullbackEntry *E = sharingEntry(St, FD, Primal, Wrt, Collision))
      return E;
    if (Collision) {
      Name = "_grad_" + Name + "_" + std::to_string(St.Entries.size());
      return declarePullback(S, Primal, Wrt, Sc, Loc, Name);
    }
  }

  FunctionDecl *PB = createPullbackDecl(Ctx, Primal, Name, Sig);
  if (Primal->isInExternCContext() || Primal->isExternC())
    ; // The pullback inherits the context's language linkage.
  PB->getDeclContext()->addDecl(PB);
  if (Sc)
    if (Scope *Target = scopeFor(S, Sc, lookupContext(Primal)))
      S.PushOnScopeChains(PB, Target, /*AddToContext=*/false);
  PullbackEntry *E = St.add(Primal, PB, Wrt, /*User=*/false);
  E->RequestLoc = Loc;
  return E;
}

} // namespace grad
