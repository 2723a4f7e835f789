//===- Pushforward.cpp - Declaring pushforwards ---------------------------===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "Pushforward.h"
#include "SemaBuilder.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Sema/Lookup.h"
#include "clang/Sema/Sema.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;

namespace grad {

std::string pushforwardName(const FunctionDecl *Primal) {
  std::string N = pullbackName(Primal);
  StringRef Suffix = "_pullback";
  if (!StringRef(N).ends_with(Suffix))
    return "";
  return N.substr(0, N.size() - Suffix.size()) + "_pushforward";
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

bool computePushforwardSignature(Sema &S, const FunctionDecl *Primal,
                                 const WrtMask &Wrt, PullbackSignature &Sig,
                                 std::string &Why) {
  ASTContext &Ctx = S.Context;
  Sig = PullbackSignature();
  Sig.Name = pushforwardName(Primal);
  llvm::StringSet<> Used;
  for (unsigned I = 0; I < Primal->getNumParams(); ++I) {
    const ParmVarDecl *P = Primal->getParamDecl(I);
    Sig.ParamNames.push_back(P->getIdentifier() ? P->getName().str()
                                                : "p" + std::to_string(I));
    Sig.ParamTypes.push_back(P->getType());
    Used.insert(Sig.ParamNames.back());
  }
  QualType R = Primal->getReturnType();
  QualType Ret = Ctx.VoidTy;
  if (!R->isVoidType()) {
    if (!isFloating(R) || R->isReferenceType()) {
      Why = "the return type '" + R.getAsString(Ctx.getPrintingPolicy()) +
            "' has no pushforward (a floating scalar or void is needed)";
      return false;
    }
    SemaBuilder B(S, Primal->getLocation());
    Ret = B.runtimeType("dual", R.getUnqualifiedType());
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
      // `const T*` and `T[]`: read-only tangents; `T*`: in/out.
      bool ReadOnly = P->getOriginalType()->isArrayType() ||
                      PT.getNonReferenceType()->isArrayType() ||
                      (PT->isPointerType() &&
                       PT->getPointeeType().isConstQualified());
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

static bool sameMask(const WrtMask &A, const WrtMask &B) {
  return A == B;
}

PushforwardEntry *declarePushforward(Sema &S, FunctionDecl *Primal,
                                     const WrtMask &Wrt, Scope *Sc,
                                     SourceLocation Loc, std::string &Why) {
  ASTContext &Ctx = S.Context;
  State &St = State::get(Ctx);
  auto &List = St.Pushforwards[Primal->getCanonicalDecl()];
  for (PushforwardEntry *E : List)
    if (sameMask(E->Wrt, Wrt))
      return E;
  if (const char *Kind = pushforwardUnsupported(Primal)) {
    Why = std::string("forward mode does not support a ") + Kind + " yet";
    return nullptr;
  }
  PullbackSignature Sig;
  if (!computePushforwardSignature(S, Primal, Wrt, Sig, Why))
    return nullptr;
  auto Entry = std::make_unique<PushforwardEntry>();
  Entry->Primal = Primal;
  Entry->Wrt = Wrt;
  Entry->Sig = Sig;
  Entry->RequestLoc = Loc;
  // A user-declared NAME_pushforward of exactly this type wins.
  FunctionDecl *Mismatch = nullptr;
  if (FunctionDecl *User = findUserPullback(S, Primal, Sig, Mismatch)) {
    Entry->Pushforward = User;
    Entry->UserProvided = true;
  } else {
    DeclContext *DC = Primal->getDeclContext();
    SourceLocation PLoc = Primal->getLocation();
    TypeSourceInfo *TSI = Ctx.getTrivialTypeSourceInfo(Sig.Type, PLoc);
    bool Inline = Primal->isInlineSpecified() || Primal->isConstexpr() ||
                  Primal->isTemplateInstantiation();
    StorageClass SC =
        Primal->getStorageClass() == SC_Static ? SC_Static : SC_None;
    FunctionDecl *PF = FunctionDecl::Create(
        Ctx, DC, PLoc, PLoc, DeclarationName(&Ctx.Idents.get(Sig.Name)),
        Sig.Type, TSI, SC, /*UsesFPIntrin=*/false, Inline,
        /*hasWrittenPrototype=*/true);
    setParams(Ctx, PF, TSI, Sig);
    PF->setLexicalDeclContext(Primal->getLexicalDeclContext());
    DC->addDecl(PF);
    if (Sc)
      if (Scope *Target = scopeFor(S, Sc, lookupContext(Primal)))
        S.PushOnScopeChains(PF, Target, /*AddToContext=*/false);
    St.Generated.insert(PF);
    Entry->Pushforward = PF;
  }
  St.ForwardEntries.push_back(std::move(Entry));
  List.push_back(St.ForwardEntries.back().get());
  return List.back();
}

} // namespace grad
