//===- Attributes.cpp - [[grad]] and [[grad::nodiff]] -----------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Registers the attributes. `[[grad]]` records the request and declares the
/// pullback right away ("declare early, define late"), so code after any
/// `[[grad]]` declaration can call NAME_pullback; the consumer defines it
/// once the body is available.
///
//===----------------------------------------------------------------------===//

#include "ast/Diagnostics.h"
#include "driver/Pushforward.h"
#include "driver/Registry.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/Sema/Lookup.h"
#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Scope.h"
#include "clang/Sema/Sema.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;

namespace grad {
namespace {

bool isInTemplate(Sema &S, const FunctionDecl *FD) {
  if (FD->getDescribedFunctionTemplate() || FD->isDependentContext() ||
      FD->getType()->isDependentType())
    return true;
  for (Scope *Sc = S.getCurScope(); Sc; Sc = Sc->getParent())
    if (Sc->isTemplateParamScope())
      return true;
  return false;
}

/// A function template at namespace scope: `template <...> [[grad]] T f(...)`.
bool isTemplatePattern(const FunctionDecl *FD) {
  return FD->getDescribedFunctionTemplate() &&
         !FD->getDeclContext()->isDependentContext();
}

/// Why \p FD cannot carry [[grad]] yet, or null.
const char *unsupportedKind(Sema &S, const FunctionDecl *FD) {
  if (isa<CXXConstructorDecl>(FD) || isa<CXXDestructorDecl>(FD) ||
      isa<CXXConversionDecl>(FD))
    return "special member function";
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    if (MD->isVirtual())
      return "virtual member function";
  if (isTemplatePattern(FD)) {
    if (isa<CXXMethodDecl>(FD))
      return "member function template";
    for (const ParmVarDecl *P : FD->parameters())
      if (P->isParameterPack())
        return "function template with a parameter pack";
  } else if (isInTemplate(S, FD)) {
    return FD->isFunctionTemplateSpecialization() ||
                   FD->getTemplateSpecializationKind() ==
                       TSK_ExplicitSpecialization
               ? "explicit specialization"
               : "member of a class template";
  }
  if (!FD->getDeclName().isIdentifier() &&
      FD->getOverloadedOperator() == OO_None)
    return isa<CXXConversionDecl>(FD) ? "conversion function"
                                      : "literal operator";
  if (FD->isVariadic())
    return "variadic function";
  return nullptr;
}

bool parseWrt(Sema &S, FunctionDecl *FD, StringRef List, SourceLocation Loc,
              WrtMask &Mask) {
  Mask.assign(FD->getNumParams(), false);
  SmallVector<StringRef, 8> Names;
  List.split(Names, ',', -1, /*KeepEmpty=*/false);
  bool OK = true;
  for (StringRef Name : Names) {
    Name = Name.trim();
    if (Name.empty())
      continue;
    bool Found = false;
    for (unsigned I = 0; I < FD->getNumParams(); ++I) {
      const ParmVarDecl *P = FD->getParamDecl(I);
      if (!P->getIdentifier() || P->getName() != Name)
        continue;
      Found = true;
      if (classifyParam(S.Context, P->getType()).Kind == ParamKind::None) {
        report(S.Diags, Diag::AttrWrtNotDifferentiable, Loc)
            << Name << nameOf(FD) << P->getType();
        OK = false;
      }
      Mask[I] = true;
    }
    if (!Found) {
      report(S.Diags, Diag::AttrWrtUnknown, Loc) << Name << nameOf(FD);
      OK = false;
    }
  }
  return OK;
}

/// The attribute's string arguments: at most one wrt list and, where
/// \p Lanes is given (`[[grad]]`, `[[grad::forward]]`), the option
/// "lanes=N".
bool parseArgs(Sema &S, FunctionDecl *FD, const ParsedAttr &A,
               std::optional<WrtMask> &Wrt, unsigned *Lanes = nullptr) {
  SourceLocation Loc = A.getLoc();
  for (unsigned I = 0; I < A.getNumArgs(); ++I) {
    const auto *SL =
        A.isArgExpr(I)
            ? dyn_cast_or_null<StringLiteral>(
                  A.getArgAsExpr(I)->IgnoreParenImpCasts())
            : nullptr;
    if (!SL) {
      SourceLocation ArgLoc =
          A.isArgExpr(I) && A.getArgAsExpr(I)
              ? A.getArgAsExpr(I)->getBeginLoc()
              : (A.isArgIdent(I) ? A.getArgAsIdent(I)->Loc : Loc);
      report(S.Diags, Diag::AttrArgNotString, ArgLoc);
      return false;
    }
    StringRef Arg = SL->getString();
    // Options are "key=value". A bare string is the list of parameters to
    // differentiate with respect to.
    if (Lanes && Arg.trim().starts_with("lanes") && Arg.contains('=')) {
      StringRef Key = Arg.split('=').first.trim();
      StringRef Value = Arg.split('=').second.trim();
      unsigned N = 0;
      if (Key == "lanes") {
        if (*Lanes || Value.getAsInteger(10, N) || N < 1 || N > 1024) {
          if (*Lanes)
            report(S.Diags, Diag::AttrUnknownOption, SL->getBeginLoc()) << Arg;
          else
            report(S.Diags, Diag::AttrBadLanes, SL->getBeginLoc()) << Value;
          return false;
        }
        *Lanes = N;
        continue;
      }
    }
    if (Arg.contains('=') || Wrt) {
      report(S.Diags, Diag::AttrUnknownOption, SL->getBeginLoc()) << Arg;
      return false;
    }
    WrtMask M;
    if (!parseWrt(S, FD, Arg, SL->getBeginLoc(), M))
      return false;
    Wrt = M;
  }
  return true;
}

/// The mask of \p Wrt (every differentiable parameter without one),
/// without [[grad::nodiff]] parameters.
WrtMask maskOf(const FunctionDecl *FD, const std::optional<WrtMask> &Wrt) {
  WrtMask Mask = Wrt ? *Wrt : fullMask(FD);
  if (Wrt) {
    WrtMask Full = fullMask(FD);
    for (unsigned I = 0; I < Mask.size(); ++I)
      Mask[I] = Mask[I] && Full[I];
  }
  return Mask;
}

struct GradAttrInfo : public ParsedAttrInfo {
  GradAttrInfo() {
    OptArgs = 15;
    static constexpr Spelling S[] = {{ParsedAttr::AS_CXX11, "grad"},
                                     {ParsedAttr::AS_CXX11, "grad::grad"}};
    Spellings = S;
  }

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &Attr,
                            const Decl *D) const override {
    if (const auto *MD = dyn_cast<CXXMethodDecl>(D);
        MD && MD->getParent()->isLambda()) {
      report(S.Diags, Diag::AttrOnLambda, Attr.getLoc()) << "a lambda";
      return false;
    }
    if (isa<FunctionDecl>(D))
      return true;
    // [[grad]] auto sq = [](double a) { ... };
    if (const auto *VD = dyn_cast<VarDecl>(D))
      if (const auto *RD = VD->getType()->getAsCXXRecordDecl();
          RD && RD->isLambda()) {
        report(S.Diags, Diag::AttrOnLambda, Attr.getLoc())
            << ("lambda '" + VD->getNameAsString() + "'");
        return false;
      }
    report(S.Diags, Diag::AttrNotFunction, Attr.getLoc()) << "'grad'";
    return false;
  }

  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &A) const override {
    auto *FD = cast<FunctionDecl>(D);
    SourceLocation Loc = A.getLoc();
    if (const char *Kind = unsupportedKind(S, FD)) {
      report(S.Diags, Diag::AttrUnsupportedFunction, Loc)
          << Kind << nameOf(FD);
      return AttributeNotApplied;
    }
    std::optional<WrtMask> Wrt;
    unsigned Lanes = 0;
    if (!parseArgs(S, FD, A, Wrt, &Lanes))
      return AttributeNotApplied;
    // [[grad::nodiff]] parameters stay out even when listed.
    WrtMask Mask = maskOf(FD, Wrt);
    State &St = State::get(S.Context);
    St.S = &S;
    St.Requests[FD] = GradRequest{Mask, Loc};
    PullbackSignature Sig;
    std::string Why;
    if (!computeSignature(S.Context, FD, Mask, pullbackName(FD),
                          Sig, Why)) {
      report(S.Diags, Diag::AttrBadReturn, Loc) << nameOf(FD) << Why;
      return AttributeNotApplied;
    }
    // A NAME_pullback the user declared must have the ABI signature.
    FunctionDecl *Mismatch = nullptr;
    if (!findUserPullback(S, FD, Sig, Mismatch)) {
      LookupResult R(S, DeclarationName(&S.Context.Idents.get(Sig.Name)), Loc,
                     Sema::LookupOrdinaryName);
      S.LookupQualifiedName(R, FD->getDeclContext()->getRedeclContext());
      for (NamedDecl *ND : R) {
        if (const auto *FTD = dyn_cast<FunctionTemplateDecl>(ND))
          if (St.Generated.count(FTD->getTemplatedDecl()))
            continue; // the pullback template of a [[grad]] template
        auto *Other = dyn_cast<FunctionDecl>(ND->getUnderlyingDecl());
        if (Other && (State::get(S.Context).Generated.count(
                          Other->getCanonicalDecl()) ||
                      isPullbackOfOverload(S, FD, Other)))
          continue;
        report(S.Diags, Diag::AttrPullbackTaken, Loc)
            << Sig.Name << Sig.str(S.Context);
        return AttributeNotApplied;
      }
    }
    if (isTemplatePattern(FD))
      declarePullbackTemplate(S, FD, Mask, S.getCurScope(), Loc);
    else
      declarePullback(S, FD, Mask, S.getCurScope(), Loc);
    // "lanes=N": the vector pullback too (N seeds in one reverse sweep).
    if (Lanes) {
      std::string Why;
      if (isTemplatePattern(FD))
        Why = "vector pullbacks of templates are not supported yet";
      else if (const char *Kind = pushforwardUnsupported(FD))
        Why = std::string("vector pullbacks do not support a ") + Kind +
              " yet";
      if (Why.empty() && declareVectorPullback(S, FD, Mask, Lanes,
                                               S.getCurScope(), Loc, Why))
        return AttributeApplied;
      if (St.ReportedAttrs.insert(Loc.getRawEncoding()).second)
        report(S.Diags, Diag::AttrVectorPullback, Loc)
            << nameOf(FD) << Why;
    }
    return AttributeApplied;
  }
};

/// True (after reporting it once per attribute: an attribute on a member
/// function is handled more than once) if \p FD cannot have a pushforward.
bool refuseOnce(Sema &S, const FunctionDecl *FD, SourceLocation Loc,
                StringRef What) {
  const char *Kind = pushforwardUnsupported(FD);
  if (!Kind)
    return false;
  if (State::get(S.Context).ReportedAttrs.insert(Loc.getRawEncoding()).second)
    report(S.Diags, Diag::AttrForwardUnsupported, Loc)
        << nameOf(FD) << (What + Kind + " yet").str();
  return true;
}

/// `[[grad::forward]]` / `[[grad::forward("x, y")]]`: declares
/// NAME_pushforward (Pushforward.h).
struct ForwardAttrInfo : public ParsedAttrInfo {
  ForwardAttrInfo() {
    OptArgs = 15;
    static constexpr Spelling S[] = {{ParsedAttr::AS_CXX11, "grad::forward"}};
    Spellings = S;
  }

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &Attr,
                            const Decl *D) const override {
    if (isa<FunctionDecl>(D) &&
        !(isa<CXXMethodDecl>(D) &&
          cast<CXXMethodDecl>(D)->getParent()->isLambda()))
      return true;
    report(S.Diags, Diag::AttrNotFunction, Attr.getLoc()) << "'grad::forward'";
    return false;
  }

  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &A) const override {
    auto *FD = cast<FunctionDecl>(D);
    SourceLocation Loc = A.getLoc();
    if (refuseOnce(S, FD, Loc, "forward mode does not support a "))
      return AttributeNotApplied;
    std::optional<WrtMask> Wrt;
    unsigned Lanes = 0;
    if (!parseArgs(S, FD, A, Wrt, &Lanes))
      return AttributeNotApplied;
    WrtMask Mask = maskOf(FD, Wrt);
    Mask.resize(FD->getNumParams());
    State &St = State::get(S.Context);
    St.S = &S;
    St.ForwardRequests[FD->getCanonicalDecl()] = GradRequest{Mask, Loc, Lanes};
    std::string Why;
    // The scalar pushforward, and with "lanes=N" its vector overload.
    for (unsigned L : {0u, Lanes}) {
      if (!declarePushforward(S, FD, Mask, S.getCurScope(), Loc, Why, nullptr,
                              {}, L)) {
        report(S.Diags, Diag::AttrForwardUnsupported, Loc)
            << nameOf(FD) << Why;
        St.ForwardRequests.erase(FD->getCanonicalDecl());
        return AttributeNotApplied;
      }
    }
    return AttributeApplied;
  }
};

/// `[[grad::hessian]]` / `[[grad::hessian("x, y")]]`: declares NAME_pullback
/// as `[[grad]]` does, and NAME_hvp (Pushforward.h).
struct HessianAttrInfo : public GradAttrInfo {
  HessianAttrInfo() {
    static constexpr Spelling S[] = {{ParsedAttr::AS_CXX11, "grad::hessian"}};
    Spellings = S;
  }

  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &A) const override {
    auto *FD = cast<FunctionDecl>(D);
    SourceLocation Loc = A.getLoc();
    if (refuseOnce(S, FD, Loc, "Hessian-vector products do not support a "))
      return AttributeNotApplied;
    if (GradAttrInfo::handleDeclAttribute(S, D, A) != AttributeApplied)
      return AttributeNotApplied;
    const GradRequest *R = State::get(S.Context).requestFor(FD);
    WrtMask Mask = R ? R->Wrt : fullMask(FD);
    Mask.resize(FD->getNumParams());
    std::string Why;
    if (!declareHvp(S, FD, Mask, S.getCurScope(), Loc, Why)) {
      report(S.Diags, Diag::AttrForwardUnsupported, Loc)
          << nameOf(FD) << Why;
      return AttributeNotApplied;
    }
    return AttributeApplied;
  }
};

/// Clang parses the arguments of a scoped C++11 attribute only when some
/// attribute is spelled with its unscoped name (clang::hasAttribute looks
/// plugins up by the name without the scope). This registers `forward` and
/// `hessian` so that `[[grad::forward("x")]]` gets its argument; a bare
/// `[[forward]]` is reported as what it is, an attribute clang-grad does
/// not know.
struct BareNameAttrInfo : public ParsedAttrInfo {
  BareNameAttrInfo() {
    OptArgs = 15;
    static constexpr Spelling S[] = {{ParsedAttr::AS_CXX11, "forward"},
                                     {ParsedAttr::AS_CXX11, "hessian"}};
    Spellings = S;
  }
  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &Attr,
                            const Decl *D) const override {
    report(S.Diags, Diag::BareName, Attr.getLoc())
        << Attr.getAttrName()->getName();
    return false;
  }
};

struct NodiffAttrInfo : public ParsedAttrInfo {
  NodiffAttrInfo() {
    static constexpr Spelling S[] = {{ParsedAttr::AS_CXX11, "grad::nodiff"}};
    Spellings = S;
  }

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &Attr,
                            const Decl *D) const override {
    if (isa<FunctionDecl>(D) || isa<ParmVarDecl>(D))
      return true;
    report(S.Diags, Diag::AttrNodiffTarget, Attr.getLoc());
    return false;
  }

  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &A) const override {
    State::get(S.Context).Nodiff.insert(D);
    return AttributeApplied;
  }
};

} // namespace

static ParsedAttrInfoRegistry::Add<GradAttrInfo>
    RegisterGrad("grad", "marks a function to be differentiated");
static ParsedAttrInfoRegistry::Add<ForwardAttrInfo>
    RegisterForward("grad-forward",
                    "marks a function to be differentiated in forward mode");
static ParsedAttrInfoRegistry::Add<HessianAttrInfo>
    RegisterHessian("grad-hessian",
                    "declares the Hessian-vector product of a function");
static ParsedAttrInfoRegistry::Add<BareNameAttrInfo>
    RegisterBareNames("grad-bare-names",
                      "reports [[forward]] and [[hessian]] without grad::");
static ParsedAttrInfoRegistry::Add<NodiffAttrInfo>
    RegisterNodiff("grad-nodiff", "marks a function as not differentiable");

} // namespace grad
