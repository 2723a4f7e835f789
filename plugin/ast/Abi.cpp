//===- Abi.cpp - The derivatives' ABI and per-TU AST facts ------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "ast/Abi.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Sema/Sema.h"
#include "llvm/ADT/StringExtras.h"
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

/// The type of the seed parameter for the result type \p R (not void, a
/// pointer or a writable reference), or null if \p R is not
/// differentiable.
static QualType seedType(ASTContext &Ctx, QualType R) {
  if (isFloating(R) && !R->isReferenceType())
    return R.getUnqualifiedType();
  if (R->isLValueReferenceType() &&
      R.getNonReferenceType().isConstQualified() &&
      isFloating(R.getNonReferenceType()))
    // `const double &std::max(const double &, const double &)`: used as
    // a value, it is differentiated as one.
    return R.getNonReferenceType().getUnqualifiedType();
  if (R->isDependentType() && !R->isReferenceType() &&
      !R->getContainedAutoType())
    // A template's T is seeded by value, std::vector<T> by const&, as
    // their instantiations with a floating T are.
    return R->getAs<TemplateSpecializationType>()
               ? Ctx.getLValueReferenceType(R.getUnqualifiedType().withConst())
               : R.getUnqualifiedType();
  if (R->isRecordType() && hasFloatingData(R))
    return Ctx.getLValueReferenceType(R.getUnqualifiedType().withConst());
  return QualType();
}

/// False, with \p Why, if the class \p T of \p What holds a reference to
/// floating data: no adjoint object of that class can be made.
static bool referenceMembersOK(ASTContext &Ctx, QualType T,
                               const std::string &What, std::string &Why) {
  const FieldDecl *F = referenceMemberToFloating(T);
  if (!F)
    return true;
  Why = What + " of type '" +
        T.getNonReferenceType().getUnqualifiedType().getAsString(
            Ctx.getPrintingPolicy()) +
        "' holds the reference member '" + F->getNameAsString() +
        "' (hold a copy of the value, or pass it as an argument)";
  return false;
}

namespace {
/// Names not yet used in a signature (a trailing '_' until one is free).
struct FreshNames {
  llvm::StringSet<> Used;
  std::string operator()(std::string Base) {
    while (Used.count(Base))
      Base += "_";
    Used.insert(Base);
    return Base;
  }
};

/// The seed parameter for \p Primal's result, if it has one; false (and
/// \p Why) when its result cannot carry a derivative.
bool addSeed(ASTContext &Ctx, const FunctionDecl *Primal,
             PullbackSignature &Sig, FreshNames &Fresh, std::string &Why) {
  QualType R = Primal->getReturnType();
  // A pointer result carries no adjoint: what it points to does, through
  // the arguments it points into (the caller tracks the pointer itself).
  // Asked for by `[[grad]]`, it must point to what can carry derivatives.
  if (R->isPointerType() && !R->getPointeeType()->isVoidType() &&
      !isFloating(R->getPointeeType()) &&
      !hasFloatingData(R->getPointeeType()) &&
      !R->getPointeeType()->isDependentType() &&
      AstFacts::get(Ctx).requestFor(Primal)) {
    Why = "return type '" + R.getAsString(Ctx.getPrintingPolicy()) +
          "' is not differentiable";
    return false;
  }
  if (R->isVoidType() || returnsWritableReference(Primal) ||
      R->isPointerType())
    return true;
  QualType Seed = seedType(Ctx, R);
  if (Seed.isNull()) {
    Why = "return type '" + R.getAsString(Ctx.getPrintingPolicy()) +
          "' is not differentiable";
    return false;
  }
  // The seed name is reserved before the adjoint names.
  std::string SeedName = "d_ret";
  for (const std::string &N : Sig.ParamNames)
    if ("d_" + N == SeedName)
      SeedName += "_";
  Sig.SeedIndex = Sig.ParamTypes.size();
  Sig.ParamNames.push_back(Fresh(SeedName));
  Sig.ParamTypes.push_back(Seed);
  return true;
}

/// The adjoint parameters of the parameters in \p Wrt, then of the
/// object's.
bool addAdjoints(ASTContext &Ctx, const FunctionDecl *Primal,
                 const WrtMask &Wrt, PullbackSignature &Sig,
                 FreshNames &Fresh, std::string &Why) {
  for (unsigned I = 0; I < Primal->getNumParams(); ++I) {
    Sig.AdjointIndex.push_back(-1);
    if (I >= Wrt.size() || !Wrt[I])
      continue;
    ParamClass C = classifyParam(Ctx, Primal->getParamDecl(I)->getType());
    if (C.Kind == ParamKind::None)
      continue;
    if (!referenceMembersOK(Ctx, Primal->getParamDecl(I)->getType(),
                            "parameter '" + Sig.ParamNames[I] + "'", Why))
      return false;
    Sig.AdjointIndex.back() = Sig.ParamTypes.size();
    Sig.ParamNames.push_back(Fresh("d_" + Sig.ParamNames[I]));
    Sig.ParamTypes.push_back(Ctx.getPointerType(C.AdjointPointee));
  }
  if (hasThisAdjoint(Primal) && Wrt.size() > Primal->getNumParams() &&
      Wrt.back()) {
    const auto *MD = cast<CXXMethodDecl>(Primal);
    QualType CT = Ctx.getRecordType(MD->getParent());
    if (!referenceMembersOK(Ctx, CT, "the object", Why))
      return false;
    Sig.ThisIndex = Sig.ParamTypes.size();
    Sig.ParamNames.push_back(Fresh("d_this"));
    Sig.ParamTypes.push_back(Ctx.getPointerType(CT));
  }
  return true;
}
} // namespace

bool computeSignature(ASTContext &Ctx, const FunctionDecl *Primal,
                      const WrtMask &Wrt, StringRef Name,
                      PullbackSignature &Sig, std::string &Why) {
  Sig = PullbackSignature();
  Sig.Name = Name.str();
  FreshNames Fresh;
  for (unsigned I = 0; I < Primal->getNumParams(); ++I) {
    const ParmVarDecl *P = Primal->getParamDecl(I);
    Sig.ParamNames.push_back(paramName(P, I));
    Sig.ParamTypes.push_back(P->getType());
    Fresh.Used.insert(Sig.ParamNames.back());
  }
  if (!addSeed(Ctx, Primal, Sig, Fresh, Why) ||
      !addAdjoints(Ctx, Primal, Wrt, Sig, Fresh, Why))
    return false;
  FunctionProtoType::ExtProtoInfo EPI;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(Primal))
    if (!MD->isStatic())
      EPI.TypeQuals = MD->getMethodQualifiers();
  Sig.Type = Ctx.getFunctionType(Ctx.VoidTy, Sig.ParamTypes, EPI);
  return true;
}

bool distinctScalarRefs(ASTContext &Ctx, QualType A, QualType B) {
  if (!A->isReferenceType() || !B->isReferenceType())
    return false;
  QualType TA = A.getNonReferenceType(), TB = B.getNonReferenceType();
  return isFloating(TA.getUnqualifiedType()) &&
         Ctx.hasSameUnqualifiedType(TA, TB) &&
         (!TA.isConstQualified() || !TB.isConstQualified());
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

bool PullbackEntry::reverseHalfTakes(unsigned I) const {
  return (I < Stable.size() && Stable[I]) ||
         keptInReverseHalf(Primal->getParamDecl(I));
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
  AstFacts &St = AstFacts::get(Ctx);
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

bool keptInReverseHalf(const ParmVarDecl *P) {
  QualType T = P->getType();
  return !T->isReferenceType() &&
         (T->isArithmeticType() || T->isEnumeralType());
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

//===----------------------------------------------------------------------===//
// AstFacts
//===----------------------------------------------------------------------===//

std::unique_ptr<AstFacts> (*AstFacts::Make)() = nullptr;

namespace {
std::mutex FactsMutex;
llvm::DenseMap<ASTContext *, std::unique_ptr<AstFacts>> &facts() {
  static llvm::DenseMap<ASTContext *, std::unique_ptr<AstFacts>> M;
  return M;
}
} // namespace

AstFacts &AstFacts::get(ASTContext &Ctx) {
  std::lock_guard<std::mutex> Lock(FactsMutex);
  auto &Slot = facts()[&Ctx];
  if (!Slot)
    Slot = Make ? Make() : std::make_unique<AstFacts>();
  return *Slot;
}

void AstFacts::release(ASTContext &Ctx) {
  std::unique_ptr<AstFacts> Gone;
  std::lock_guard<std::mutex> Lock(FactsMutex);
  if (auto It = facts().find(&Ctx); It != facts().end()) {
    Gone = std::move(It->second);
    facts().erase(It);
  }
}

bool AstFacts::isNodiff(const Decl *D) const {
  if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
    for (const FunctionDecl *R : FD->redecls())
      if (Nodiff.count(R))
        return true;
    return false;
  }
  return Nodiff.count(D);
}

const GradRequest *AstFacts::requestFor(const FunctionDecl *FD) const {
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

} // namespace grad
