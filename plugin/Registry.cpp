//===- Registry.cpp - Pullback signatures and per-TU state ------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "Registry.h"
#include "Diagnostics.h"
#include "Paths.h"
#include "SemaBuilder.h"
#include "Selectors.h"

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

std::string PullbackSignature::str(const ASTContext &Ctx) const {
  PrintingPolicy Policy(Ctx.getLangOpts());
  Policy.SuppressTagKeyword = true;
  std::string S = "void";
  if (!Type.isNull())
    if (const auto *FT = Type->getAs<FunctionType>())
      S = FT->getReturnType().getAsString(Policy);
  S += " " + Name + "(";
  for (unsigned I = 0; I < ParamTypes.size(); ++I) {
    if (I)
      S += ", ";
    std::string P = ParamNames[I];
    ParamTypes[I].getAsStringInternal(P, Policy);
    S += P;
  }
  return S + ")";
}

static std::string paramName(const ParmVarDecl *P, unsigned I) {
  if (P->getIdentifier())
    return P->getName().str();
  return "p" + std::to_string(I);
}

bool computeSignature(ASTContext &Ctx, const FunctionDecl *Primal,
                      const WrtMask &Wrt, StringRef Name,
                      PullbackSignature &Sig, std::string &Why) {
  Sig = PullbackSignature();
  Sig.Name = Name.str();

  llvm::StringSet<> Used;
  for (unsigned I = 0; I < Primal->getNumParams(); ++I) {
    const ParmVarDecl *P = Primal->getParamDecl(I);
    Sig.ParamNames.push_back(paramName(P, I));
    Sig.ParamTypes.push_back(P->getType());
    Used.insert(Sig.ParamNames.back());
  }
  auto Fresh = [&](std::string Base) {
    while (Used.count(Base))
      Base += "_";
    Used.insert(Base);
    return Base;
  };
  QualType R = Primal->getReturnType();
  // A pointer result carries no adjoint: what it points to does, through
  // the arguments it points into (the caller tracks the pointer itself).
  // Asked for by `[[grad]]`, it must point to what can carry derivatives.
  if (R->isPointerType() && !R->getPointeeType()->isVoidType() &&
      !isFloating(R->getPointeeType()) &&
      !hasFloatingData(R->getPointeeType()) &&
      !R->getPointeeType()->isDependentType() &&
      State::get(Ctx).requestFor(Primal)) {
    Why = "return type '" + R.getAsString(Ctx.getPrintingPolicy()) +
          "' is not differentiable";
    return false;
  }
  if (!R->isVoidType() && !returnsWritableReference(Primal) &&
      !R->isPointerType()) {
    QualType Seed;
    if (isFloating(R) && !R->isReferenceType())
      Seed = R.getUnqualifiedType();
    else if (R->isLValueReferenceType() &&
             R.getNonReferenceType().isConstQualified() &&
             isFloating(R.getNonReferenceType()))
      // `const double &std::max(const double &, const double &)`: used as
      // a value, it is differentiated as one.
      Seed = R.getNonReferenceType().getUnqualifiedType();
    else if (R->isDependentType() && !R->isReferenceType() &&
             !R->getContainedAutoType())
      // A template's T is seeded by value, std::vector<T> by const&, as
      // their instantiations with a floating T are.
      Seed = R->getAs<TemplateSpecializationType>()
                 ? Ctx.getLValueReferenceType(
                       R.getUnqualifiedType().withConst())
                 : R.getUnqualifiedType();
    else if (R->isRecordType() && hasFloatingData(R))
      Seed = Ctx.getLValueReferenceType(R.getUnqualifiedType().withConst());
    else {
      Why = "return type '" + R.getAsString(Ctx.getPrintingPolicy()) +
            "' is not differentiable";
      return false;
    }
    // The seed name is reserved before the adjoint names.
    std::string SeedName = "d_ret";
    for (const std::string &N : Sig.ParamNames)
      if ("d_" + N == SeedName)
        SeedName += "_";
    SeedName = Fresh(SeedName);
    Sig.SeedIndex = Sig.ParamTypes.size();
    Sig.ParamNames.push_back(SeedName);
    Sig.ParamTypes.push_back(Seed);
  }
  for (unsigned I = 0; I < Primal->getNumParams(); ++I) {
    Sig.AdjointIndex.push_back(-1);
    if (I >= Wrt.size() || !Wrt[I])
      continue;
    ParamClass C = classifyParam(Ctx, Primal->getParamDecl(I)->getType());
    if (C.Kind == ParamKind::None)
      continue;
    Sig.AdjointIndex.back() = Sig.ParamTypes.size();
    Sig.ParamNames.push_back(Fresh("d_" + Sig.ParamNames[I]));
    Sig.ParamTypes.push_back(Ctx.getPointerType(C.AdjointPointee));
  }
  if (hasThisAdjoint(Primal) && Wrt.size() > Primal->getNumParams() &&
      Wrt.back()) {
    const auto *MD = cast<CXXMethodDecl>(Primal);
    QualType CT = Ctx.getRecordType(MD->getParent());
    Sig.ThisIndex = Sig.ParamTypes.size();
    Sig.ParamNames.push_back(Fresh("d_this"));
    Sig.ParamTypes.push_back(Ctx.getPointerType(CT));
  }
  FunctionProtoType::ExtProtoInfo EPI;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Primal))
    if (!MD->isStatic())
      EPI.TypeQuals = MD->getMethodQualifiers();
  Sig.Type = Ctx.getFunctionType(Ctx.VoidTy, Sig.ParamTypes, EPI);
  return true;
}

bool hasThisAdjoint(const FunctionDecl *Primal) {
  const auto *MD = dyn_cast<CXXMethodDecl>(Primal);
  if (!MD || MD->isStatic())
    return false;
  const CXXRecordDecl *RD = MD->getParent();
  if (RD->isLambda())
    return false;
  return hasFloatingData(Primal->getASTContext().getRecordType(RD));
}

//===----------------------------------------------------------------------===//
// State
//===----------------------------------------------------------------------===//

namespace {
std::mutex StatesMutex;
llvm::DenseMap<ASTContext *, std::unique_ptr<State>> &states() {
  static llvm::DenseMap<ASTContext *, std::unique_ptr<State>> M;
  return M;
}
} // namespace

State &State::get(ASTContext &Ctx) {
  std::lock_guard<std::mutex> Lock(StatesMutex);
  auto &Slot = states()[&Ctx];
  if (!Slot)
    Slot = std::make_unique<State>();
  return *Slot;
}

void State::release(ASTContext &Ctx) {
  std::lock_guard<std::mutex> Lock(StatesMutex);
  if (auto It = states().find(&Ctx); It != states().end() && It->second)
    clearDerefForms(&It->second->DerefForms);
  states().erase(&Ctx);
}

const GradRequest *State::requestFor(const FunctionDecl *FD) const {
  for (const FunctionDecl *R : FD->redecls()) {
    auto It = Requests.find(R);
    if (It != Requests.end())
      return &It->second;
  }
  if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern())
    if (Pattern != FD)
      return requestFor(Pattern);
  return nullptr;
}

/// Collects the expressions of \p St evaluated only for their side
/// effects: expression statements, for-loop increments, the left of a
/// comma, operands of a void cast (through parentheses and cleanups).
static void collectDiscarded(const Stmt *St,
                             llvm::DenseSet<const Expr *> &Out) {
  if (!St)
    return;
  auto Add = [&](const Stmt *C) {
    const auto *E = dyn_cast_or_null<Expr>(C);
    while (E) {
      Out.insert(E);
      if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
        E = EWC->getSubExpr();
      else if (const auto *PE = dyn_cast<ParenExpr>(E))
        E = PE->getSubExpr();
      else
        E = nullptr;
    }
  };
  if (isa<CompoundStmt>(St) || isa<CaseStmt>(St) || isa<DefaultStmt>(St) ||
      isa<LabelStmt>(St))
    for (const Stmt *C : St->children())
      Add(C);
  if (const auto *FS = dyn_cast<ForStmt>(St)) {
    Add(FS->getInc());
    Add(FS->getBody());
  }
  if (const auto *IS = dyn_cast<IfStmt>(St)) {
    Add(IS->getThen());
    Add(IS->getElse());
  }
  if (const auto *WS = dyn_cast<WhileStmt>(St))
    Add(WS->getBody());
  if (const auto *DS = dyn_cast<DoStmt>(St))
    Add(DS->getBody());
  if (const auto *BO = dyn_cast<BinaryOperator>(St);
      BO && BO->getOpcode() == BO_Comma)
    Add(BO->getLHS());
  if (const auto *CE = dyn_cast<CastExpr>(St);
      CE && CE->getType()->isVoidType())
    Add(CE->getSubExpr());
  for (const Stmt *C : St->children())
    collectDiscarded(C, Out);
}

void State::noteStatementCalls(const Stmt *Body) const {
  // (Built from the body: clang's parent map is computed once per
  // translation unit and misses functions parsed after that.)
  setDerefForms(&DerefForms);
  if (Body && StatementBodies.insert(Body).second) {
    collectDiscarded(Body, StatementCalls);
    noteDerefForms(*this, Body);
  }
}

bool State::isNodiff(const Decl *D) const {
  if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
    for (const FunctionDecl *R : FD->redecls())
      if (Nodiff.count(R))
        return true;
    return false;
  }
  return Nodiff.count(D);
}

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

bool PullbackEntry::reverseHalfTakes(unsigned I) const {
  return (I < Stable.size() && Stable[I]) ||
         keptInReverseHalf(Primal->getParamDecl(I));
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

bool returnsWritableReference(const FunctionDecl *FD) {
  QualType R = FD->getReturnType();
  if (!R->isLValueReferenceType())
    return false;
  QualType T = R.getNonReferenceType();
  return !T.isConstQualified() && (isFloating(T) || hasFloatingData(T));
}

WrtMask fullMask(const FunctionDecl *Primal) {
  WrtMask M;
  ASTContext &Ctx = Primal->getASTContext();
  State &St = State::get(Ctx);
  for (unsigned I = 0; I < Primal->getNumParams(); ++I) {
    bool Diff = classifyParam(Ctx, Primal->getParamDecl(I)->getType()).Kind !=
                ParamKind::None;
    for (const FunctionDecl *R : Primal->redecls())
      if (I < R->getNumParams() && St.Nodiff.count(R->getParamDecl(I)))
        Diff = false;
    M.push_back(Diff);
  }
  if (hasThisAdjoint(Primal))
    M.push_back(true);
  return M;
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

void setParams(ASTContext &Ctx, FunctionDecl *PB, TypeSourceInfo *TSI,
                      const PullbackSignature &Sig) {
  SourceLocation PLoc = PB->getLocation();
  SmallVector<ParmVarDecl *, 8> Params;
  auto FTL = TSI->getTypeLoc().getAs<FunctionProtoTypeLoc>();
  for (unsigned I = 0; I < Sig.ParamTypes.size(); ++I) {
    QualType T = Sig.ParamTypes[I];
    ParmVarDecl *P = ParmVarDecl::Create(
        Ctx, PB, PLoc, PLoc, &Ctx.Idents.get(Sig.ParamNames[I]), T,
        Ctx.getTrivialTypeSourceInfo(T, PLoc), SC_None, nullptr);
    P->setScopeInfo(0, I);
    Params.push_back(P);
    if (FTL)
      FTL.setParam(I, P);
  }
  PB->setParams(Params);
}

bool writesThroughParams(const FunctionDecl *FD, bool Deep) {
  for (const ParmVarDecl *P : FD->parameters()) {
    QualType T = P->getType();
    QualType Pointee = T->isPointerType() ? T->getPointeeType()
                       : T->isReferenceType() ? T.getNonReferenceType()
                                              : QualType();
    // (Through pointers loaded from it too: `(*pp)[1] = v` of a `double
    // **pp`.)
    for (unsigned Depth = 0; !Pointee.isNull() && Depth < 4; ++Depth) {
      if (!Pointee.isConstQualified() && hasFloatingData(Pointee))
        return !Deep || !writesNothing(FD);
      Pointee = Pointee->isPointerType() ? Pointee->getPointeeType()
                                         : QualType();
    }
  }
  return false;
}

bool keptInReverseHalf(const ParmVarDecl *P) {
  QualType T = P->getType();
  return !T->isReferenceType() &&
         (T->isArithmeticType() || T->isEnumeralType());
}

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
  std::string Base = "_grad_" + Primal->getNameAsString();
  // So do the halves of a wrt-restricted and an all-parameter entry of
  // one function.
  bool Shared = Primal->isTemplateInstantiation() || !E.Stable.empty();
  for (const FunctionDecl *R : Primal->redecls()) {
    auto It = St.Pullbacks.find(R);
    if (It != St.Pullbacks.end())
      for (const PullbackEntry *Other : It->second)
        Shared |= Other != &E && Other->Fwd;
  }
  std::string Suffix =
      Shared ? "_" + std::to_string(St.SplitCount++) : std::string();
  SourceLocation PLoc = Primal->getLocation();
  bool Inline = E.Pullback->isInlined() || Primal->isInlined() ||
                Primal->isTemplateInstantiation();
  // (A variant's halves are this translation unit's own: another one may
  // make a variant of the same function for other parameters.)
  // (Halves inlined into their callers are internal too: nothing else
  // calls them, and no copy stays once they are inlined.)
  StorageClass SC = Primal->getStorageClass() == SC_Static ||
                            !E.Stable.empty() || Internal
                        ? SC_Static
                        : SC_None;
  auto Make = [&](StringRef Name, QualType Ret,
                  PullbackSignature &FSig) -> FunctionDecl * {
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
  };
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
  E.Fwd = Make(Base + "_fwd" + Suffix, FwdRet.getUnqualifiedType(), FS);
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
  E.Rev = Make(Base + "_rev" + Suffix, Ctx.VoidTy, RS);
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
        << nameWithArgs(Primal) << T.Primal->getNameAsString() << Why;
    report(S.Diags, Diag::GradSiteNote, T.AttrLoc)
        << T.Primal->getNameAsString();
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

const FunctionDecl *instantiatedDefinition(Sema &S, const FunctionDecl *FD,
                                           SourceLocation Loc,
                                           bool AtEndOfTU) {
  if (const FunctionDecl *Def = FD->getDefinition())
    return Def;
  auto *F = const_cast<FunctionDecl *>(FD);
  if (F->isImplicitlyInstantiable())
    S.InstantiateFunctionDefinition(Loc, F, /*Recursive=*/false,
                                    /*DefinitionRequired=*/false, AtEndOfTU);
  return FD->getDefinition();
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
    if (Collision) {
      Name = "_grad_" + Name + "_" + std::to_string(St.Entries.size());
      return declarePullback(S, Primal, Wrt, Sc, Loc, Name);
    }
  }

  DeclContext *DC = Primal->getDeclContext();
  SourceLocation PLoc = Primal->getLocation();
  TypeSourceInfo *TSI = Ctx.getTrivialTypeSourceInfo(Sig.Type, PLoc);
  bool Inline = Primal->isInlineSpecified() || Primal->isConstexpr() ||
                (Primal->isInlined() && isa<CXXMethodDecl>(Primal)) ||
                Primal->isTemplateInstantiation();
  StorageClass SC = Primal->getStorageClass() == SC_Static ? SC_Static
                                                           : SC_None;
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
    DC = RD;
  } else {
    PB = FunctionDecl::Create(Ctx, DC, PLoc, PLoc,
                              DeclarationName(&Ctx.Idents.get(Name)), Sig.Type,
                              TSI, SC, /*UsesFPIntrin=*/false, Inline,
                              /*hasWrittenPrototype=*/true);
  }
  setParams(Ctx, PB, TSI, Sig);
  PB->setLexicalDeclContext(Primal->getLexicalDeclContext());
  if (Primal->isInExternCContext() || Primal->isExternC())
    ; // The pullback inherits the context's language linkage.
  DC->addDecl(PB);
  if (Sc)
    if (Scope *Target = scopeFor(S, Sc, lookupContext(Primal)))
      S.PushOnScopeChains(PB, Target, /*AddToContext=*/false);
  PullbackEntry *E = St.add(Primal, PB, Wrt, /*User=*/false);
  E->RequestLoc = Loc;
  return E;
}

} // namespace grad
