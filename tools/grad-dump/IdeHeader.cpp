//===- IdeHeader.cpp - The header of grad-dump --declarations -------------===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "IdeHeader.h"

#include "driver/Registry.h"
#include "driver/Runtime.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/MacroArgs.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/DenseSet.h"

#include <algorithm>
#include <map>

using namespace clang;

namespace grad {
namespace {

class SourceRecorder : public PPCallbacks {
public:
  SourceRecorder(Preprocessor &PP, DeclarationSources &Out)
      : PP(PP), Out(Out) {}

  void InclusionDirective(SourceLocation, const Token &, StringRef FileName,
                          bool IsAngled, CharSourceRange,
                          OptionalFileEntryRef File, StringRef, StringRef,
                          const Module *, bool,
                          SrcMgr::CharacteristicKind) override {
    if (File)
      Out.Includes.try_emplace(File->getUID(),
                               IncludeSpelling{FileName.str(), IsAngled});
  }

  void MacroExpands(const Token &Name, const MacroDefinition &, SourceRange,
                    const MacroArgs *Args) override {
    const IdentifierInfo *II = Name.getIdentifierInfo();
    if (!Args || !II || II->getName() != "GRAD_IDE_MEMBERS")
      return;
    std::string Class;
    for (const Token *T = Args->getUnexpArgument(0); T->isNot(tok::eof); ++T)
      Class += PP.getSpelling(*T);
    Out.Hooks.insert(Class);
  }

private:
  Preprocessor &PP;
  DeclarationSources &Out;
};

/// A generated function code can call: a function, or a pullback template.
struct Callable {
  const FunctionDecl *FD;
  const FunctionTemplateDecl *Template = nullptr;
};

/// A declaration for the header and a comment saying how it differs from
/// the plugin's.
struct Printed {
  std::string Comment; ///< empty, or a `//` line
  std::string Decl;    ///< empty when there is none
};

/// The members of each class, by the class's name (GRAD_IDE_MEMBERS
/// takes the name as written in the class body).
using MemberMacros = std::map<std::string, std::vector<std::string>>;

} // namespace

/// A name code can call (a failed derivative stays declared: the compile
/// reports the failure, its callers are fine).
static bool isPublicName(const FunctionDecl *FD) {
  return FD && FD->getIdentifier() && !FD->getName().starts_with("_grad_");
}

/// The functions the plugin declared for an attribute (not the callees it
/// differentiated on demand, nor user-provided derivatives), in source
/// order.
static std::vector<Callable> callables(ASTContext &Ctx) {
  State &St = State::get(Ctx);
  std::vector<Callable> Out;
  for (const auto &E : St.Entries)
    if (!E->UserProvided && isPublicName(E->Pullback) &&
        !E->Pullback->getPrimaryTemplate() && St.requestFor(E->Primal))
      Out.push_back({E->Pullback});
  for (const PullbackTemplate &T : St.Templates)
    if (T.Pullback)
      Out.push_back({T.Pullback->getTemplatedDecl(), T.Pullback});
  for (const auto &E : St.ForwardEntries)
    if (!E->UserProvided && !E->Linear && isPublicName(E->Pushforward) &&
        !E->Pushforward->getPrimaryTemplate() &&
        St.ForwardRequests.count(E->Primal->getCanonicalDecl()))
      Out.push_back({E->Pushforward});
  for (const auto &KV : St.Hvps)
    if (isPublicName(KV.second->Hvp))
      Out.push_back({KV.second->Hvp});
  for (const auto &KV : St.VectorPullbacks)
    if (isPublicName(KV.second->Fn))
      Out.push_back({KV.second->Fn});
  const SourceManager &SM = Ctx.getSourceManager();
  // Source order; ties (overloads declared together) in discovery order.
  std::vector<std::pair<Callable, size_t>> Order;
  for (size_t I = 0; I < Out.size(); ++I)
    Order.push_back({Out[I], I});
  std::sort(Order.begin(), Order.end(), [&](const auto &A, const auto &B) {
    SourceLocation LA = A.first.FD->getLocation(),
                   LB = B.first.FD->getLocation();
    if (LA != LB)
      return SM.isBeforeInTranslationUnit(LA, LB);
    return A.second < B.second;
  });
  for (size_t I = 0; I < Out.size(); ++I)
    Out[I] = Order[I].first;
  llvm::DenseSet<const Decl *> Seen;
  llvm::erase_if(Out, [&](const Callable &C) {
    return !Seen.insert(C.FD->getCanonicalDecl()).second;
  });
  return Out;
}

static PrintingPolicy policy(const ASTContext &Ctx) {
  PrintingPolicy P(Ctx.getLangOpts());
  P.SuppressUnwrittenScope = true;
  return P;
}

/// Canonical types, valid at the top of the file; a template's as written
/// (its parameters have no other names).
static QualType printable(QualType T, bool AsWritten) {
  return AsWritten ? T : T.getCanonicalType();
}

static std::string methodQualifiers(const FunctionDecl *FD) {
  const auto *MD = dyn_cast<CXXMethodDecl>(FD);
  if (!MD)
    return "";
  std::string Q;
  if (MD->isConst())
    Q += " const";
  if (MD->isVolatile())
    Q += " volatile";
  if (MD->getRefQualifier() == RQ_LValue)
    Q += " &";
  else if (MD->getRefQualifier() == RQ_RValue)
    Q += " &&";
  return Q;
}

static bool isStatic(const FunctionDecl *FD) {
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    return MD->isStatic();
  return FD->getStorageClass() == SC_Static;
}

/// `[static] R NAME(P1 p1, ...) const;`, without `inline` (the header
/// never defines what it declares).
static std::string declaration(const Callable &C) {
  const FunctionDecl *FD = C.FD;
  PrintingPolicy P = policy(FD->getASTContext());
  bool AsWritten = C.Template != nullptr;
  std::string Params;
  llvm::raw_string_ostream PS(Params);
  for (const ParmVarDecl *Param : FD->parameters()) {
    PS << (Params.empty() ? "" : ", ");
    printable(Param->getType(), AsWritten).print(PS, P, Param->getName());
  }
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  if (C.Template) {
    C.Template->getTemplateParameters()->print(OS, FD->getASTContext(), P);
  }
  if (isStatic(FD))
    OS << "static ";
  printable(FD->getReturnType(), AsWritten)
      .print(OS, P,
             FD->getName().str() + "(" + Params + ")" + methodQualifiers(FD));
  OS << ";";
  return Text;
}

/// A declaration that accepts any arguments, for a function whose exact
/// one names a type that cannot be declared at the top of the file.
static std::string genericDeclaration(const FunctionDecl *FD) {
  PrintingPolicy P = policy(FD->getASTContext());
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << "template <class... GradArgs> " << (isStatic(FD) ? "static " : "");
  FD->getReturnType().getCanonicalType().print(
      OS, P, FD->getName().str() + "(GradArgs &&...)" + methodQualifiers(FD));
  OS << ";";
  return Text;
}

/// Declares every type of \p C's signature; false with \p Why if one
/// cannot be.
static bool requireTypes(TypeDeclarer &Types, const Callable &C,
                         std::string &Why, const Decl *Visible) {
  bool AsWritten = C.Template != nullptr;
  if (!Types.require(printable(C.FD->getReturnType(), AsWritten), Why, Visible))
    return false;
  for (const ParmVarDecl *Param : C.FD->parameters())
    if (!Types.require(printable(Param->getType(), AsWritten), Why, Visible))
      return false;
  return true;
}

/// The declaration of \p C for the header: exact if its types can be
/// declared, else generic, else none (the comment says why).
static Printed declare(TypeDeclarer &Types, const Callable &C,
                       const Decl *Visible) {
  std::string Why;
  if (requireTypes(Types, C, Why, Visible))
    return {"", declaration(C)};
  std::string Unused;
  // A template's generic form takes no explicit template arguments.
  QualType Ret = C.FD->getReturnType();
  if (!Ret->isDependentType() &&
      Types.require(Ret.getCanonicalType(), Unused, Visible))
    return {"// generic (" + Why + "):", genericDeclaration(C.FD)};
  return {"// '" + C.FD->getQualifiedNameAsString() +
              "' is not declared: " + Why,
          ""};
}

static std::string accessPrefix(const FunctionDecl *FD) {
  switch (FD->getAccess()) {
  case AS_private:
    return "private: ";
  case AS_protected:
    return "protected: ";
  default:
    return "public: ";
  }
}

namespace {
/// A class with generated members: its name as printed, and where its body
/// ends (where GRAD_IDE_MEMBERS goes), as FILE:LINE:COL.
struct Owner {
  std::string Name;
  std::string End;
};
} // namespace

static Owner owner(const CXXRecordDecl *RD) {
  const SourceManager &SM = RD->getASTContext().getSourceManager();
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(RD->getBraceRange().getEnd()));
  std::string End;
  if (P.isValid())
    End = std::string(P.getFilename()) + ":" + std::to_string(P.getLine()) +
          ":" + std::to_string(P.getColumn()) + ": ";
  return {RD->getQualifiedNameAsString(), End};
}

static void printMembers(const MemberMacros &Members,
                         const std::map<std::string, Owner> &Owners,
                         const DeclarationSources &Src, llvm::raw_ostream &OS,
                         llvm::raw_ostream &Notes) {
  if (Members.empty() && Src.Hooks.empty())
    return;
  OS << "\n// Members: GRAD_IDE_MEMBERS(Class) at the end of the class body "
        "declares them\n// (the types they name are declared below).\n";
  for (const auto &KV : Members) {
    if (!Src.Hooks.count(KV.first)) {
      const Owner &O = Owners.at(KV.first);
      OS << "// '" << O.Name << "' has no GRAD_IDE_MEMBERS(" << KV.first
         << "): an editor does not see these.\n";
      Notes << O.End << "grad-dump: add GRAD_IDE_MEMBERS(" << KV.first
            << ") at the end of the body of '" << O.Name
            << "' so that an editor sees its generated members\n";
    }
    OS << "#define GRAD_IDE_MEMBERS_" << KV.first;
    for (const std::string &D : KV.second) {
      std::string Line = D;
      std::replace(Line.begin(), Line.end(), '\n', ' ');
      OS << " \\\n  " << Line;
    }
    OS << "\n";
  }
  for (const std::string &Hook : Src.Hooks)
    if (!Members.count(Hook))
      OS << "#define GRAD_IDE_MEMBERS_" << Hook << "\n";
}

/// The comment, the guard, the pragmas and GRAD_IDE_MEMBERS.
static void printPrologue(const SourceManager &SM, llvm::raw_ostream &OS) {
  const FileEntry *Main = SM.getFileEntryForID(SM.getMainFileID());
  OS << "// Generated by clang-grad (grad-dump --declarations)"
     << (Main ? " for " + Main->tryGetRealPathName().str() : "") << ".\n"
     << "// The functions the plugin generates for it, declared for editors\n"
     << "// that parse it without the plugin (clangd): force-included with\n"
     << "// -include by the compile database of clang_grad_ide()\n"
     << "// (docs/ide.md). Not for compiling.\n"
     << "#ifndef GRAD_IDE_DECLARATIONS\n"
     << "#define GRAD_IDE_DECLARATIONS\n"
     << "#pragma clang diagnostic ignored \"-Wunknown-attributes\"\n"
     << "#pragma clang diagnostic ignored \"-Wundefined-internal\"\n"
     << "#define GRAD_IDE_MEMBERS(Class) GRAD_IDE_MEMBERS_##Class\n";
}

std::unique_ptr<PPCallbacks> recordSources(Preprocessor &PP,
                                           DeclarationSources &Out) {
  return std::make_unique<SourceRecorder>(PP, Out);
}

void writeDeclarations(CompilerInstance &CI, const DeclarationSources &Src,
                       llvm::ArrayRef<const FunctionDecl *> OnDemand,
                       llvm::raw_ostream &OS, llvm::raw_ostream &Notes) {
  ASTContext &Ctx = CI.getASTContext();
  TypeDeclarer Types(CI, Src.Includes);
  std::vector<std::string> Free;
  MemberMacros Members;
  std::map<std::string, Owner> Owners;
  std::vector<Callable> All = callables(Ctx);
  llvm::DenseSet<const Decl *> Listed;
  for (const Callable &C : All)
    Listed.insert(C.FD->getCanonicalDecl());
  for (const FunctionDecl *FD : OnDemand)
    if (Listed.insert(FD->getCanonicalDecl()).second)
      All.push_back({FD});
  for (const Callable &C : All) {
    if (const auto *RD = dyn_cast<CXXRecordDecl>(C.FD->getDeclContext())) {
      std::string Key = RD->getName().str();
      Owners.emplace(Key, owner(RD));
      Printed D = declare(Types, C, RD);
      if (!D.Decl.empty())
        Members[Key].push_back(accessPrefix(C.FD) + D.Decl);
      continue;
    }
    Printed D = declare(Types, C, nullptr);
    std::string Close;
    std::string Open = openScopes(
        C.Template ? static_cast<const Decl *>(C.Template) : C.FD, Close);
    Free.push_back((D.Comment.empty() ? "" : D.Comment + "\n") +
                   (D.Decl.empty() ? "" : Open + D.Decl + Close));
  }

  printPrologue(Ctx.getSourceManager(), OS);
  // Before any user header: a class body may expand them.
  printMembers(Members, Owners, Src, OS, Notes);
  OS << "\n#include \"" << runtimeCoreHeader() << "\"\n";
  Types.print(OS);
  if (!Free.empty())
    OS << "\n";
  for (const std::string &F : Free)
    OS << F << "\n";
  OS << "\n#endif // GRAD_IDE_DECLARATIONS\n";
}

} // namespace grad
