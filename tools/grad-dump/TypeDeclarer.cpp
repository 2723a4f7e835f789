//===- TypeDeclarer.cpp - Types named by declarations at the top ----------===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "TypeDeclarer.h"

#include "driver/Runtime.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/TemplateBase.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace grad {

TypeDeclarer::TypeDeclarer(
    CompilerInstance &CI,
    const llvm::DenseMap<unsigned, IncludeSpelling> &Spellings)
    : CI(CI), Spellings(Spellings) {}

std::string openScopes(const Decl *D, std::string &Close) {
  llvm::SmallVector<const DeclContext *, 4> Chain;
  for (const DeclContext *DC = D->getDeclContext();
       DC && !DC->isTranslationUnit(); DC = DC->getParent())
    Chain.push_back(DC);
  std::string Open;
  for (auto It = Chain.rbegin(); It != Chain.rend(); ++It) {
    if (const auto *NS = dyn_cast<NamespaceDecl>(*It)) {
      Open += NS->isInline() ? "inline namespace " : "namespace ";
      if (!NS->isAnonymousNamespace())
        Open += NS->getName().str() + " ";
      Open += "{ ";
      Close += " }";
    } else if (const auto *LS = dyn_cast<LinkageSpecDecl>(*It)) {
      Open += LS->getLanguage() == LinkageSpecLanguageIDs::C
                  ? "extern \"C\" { "
                  : "extern \"C++\" { ";
      Close += " }";
    }
  }
  return Open;
}

static PrintingPolicy policy(const ASTContext &Ctx) {
  PrintingPolicy P(Ctx.getLangOpts());
  P.SuppressUnwrittenScope = true;
  return P;
}

/// `template <class T, int N>` without default arguments (a later
/// definition may give them); false if a parameter or a requires-clause
/// would have to be repeated exactly.
static bool printTemplateHead(const TemplateParameterList *TPL,
                              const PrintingPolicy &P, llvm::raw_ostream &OS) {
  if (TPL->getRequiresClause())
    return false;
  OS << "template <";
  bool First = true;
  for (const NamedDecl *Param : *TPL) {
    OS << (First ? "" : ", ");
    First = false;
    std::string Name = Param->getName().str();
    if (const auto *TTP = dyn_cast<TemplateTypeParmDecl>(Param)) {
      if (TTP->hasTypeConstraint())
        return false;
      OS << (TTP->wasDeclaredWithTypename() ? "typename" : "class")
         << (TTP->isParameterPack() ? "..." : "")
         << (Name.empty() ? "" : " " + Name);
    } else if (const auto *NT = dyn_cast<NonTypeTemplateParmDecl>(Param)) {
      QualType T = NT->getType();
      if (!T->isBuiltinType() && !T->isDependentType())
        return false;
      T.print(OS, P, (NT->isParameterPack() ? "..." : "") + Name);
    } else if (const auto *TT = dyn_cast<TemplateTemplateParmDecl>(Param)) {
      if (!printTemplateHead(TT->getTemplateParameters(), P, OS))
        return false;
      OS << " class" << (TT->isParameterPack() ? "..." : "")
         << (Name.empty() ? "" : " " + Name);
    }
  }
  OS << ">";
  return true;
}

/// A forward declaration of \p D, or empty if it has none.
static std::string forwardDeclaration(const Decl *D) {
  const auto *ND = dyn_cast<NamedDecl>(D);
  if (!ND || !ND->getIdentifier() ||
      !D->getDeclContext()->getRedeclContext()->isFileContext())
    return "";
  PrintingPolicy P = policy(D->getASTContext());
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  if (const auto *CTD = dyn_cast<ClassTemplateDecl>(D)) {
    if (!printTemplateHead(CTD->getTemplateParameters(), P, OS))
      return "";
    OS << " " << CTD->getTemplatedDecl()->getKindName() << " " << CTD->getName()
       << ";";
  } else if (const auto *ED = dyn_cast<EnumDecl>(D)) {
    if (!ED->isFixed())
      return "";
    // The enum-base as written (a scoped enum's may be left implicit).
    OS << (ED->isScoped() ? "enum class " : "enum ") << ED->getName();
    if (ED->getIntegerTypeSourceInfo())
      OS << " : " << ED->getIntegerType().getCanonicalType().getAsString(P);
    OS << ";";
  } else if (const auto *RD = dyn_cast<RecordDecl>(D)) {
    OS << RD->getKindName() << " " << RD->getName() << ";";
  } else {
    return "";
  }
  std::string Close;
  return openScopes(D, Close) + Text + Close;
}

/// The file \p D is declared in.
static FileID fileOf(const SourceManager &SM, const Decl *D) {
  return SM.getFileID(SM.getExpansionLoc(D->getLocation()));
}

static std::string absolutePath(FileEntryRef FE) {
  StringRef Real = FE.getFileEntry().tryGetRealPathName();
  if (!Real.empty())
    return Real.str();
  llvm::SmallString<256> Path(FE.getName());
  llvm::sys::fs::make_absolute(Path);
  return std::string(Path);
}

std::string TypeDeclarer::includeFor(const Decl *D, bool System) const {
  const SourceManager &SM = CI.getSourceManager();
  FileID Cur = fileOf(SM, D), Main = SM.getMainFileID();
  // Up the include stack: to the outermost system header for a system
  // type, to the header the main file included for a user type.
  while (Cur.isValid() && Cur != Main) {
    SourceLocation At = SM.getIncludeLoc(Cur);
    FileID Includer = At.isValid() ? SM.getFileID(At) : FileID();
    bool Stop = System ? !SM.isInSystemHeader(At) : Includer == Main;
    if (!Stop && Includer.isValid()) {
      Cur = Includer;
      continue;
    }
    OptionalFileEntryRef FE = SM.getFileEntryRefForID(Cur);
    if (!FE)
      return "";
    if (!System && !CI.getPreprocessor()
                        .getHeaderSearchInfo()
                        .isFileMultipleIncludeGuarded(*FE))
      return ""; // Including it again would define it twice.
    auto It = Spellings.find(FE->getUID());
    if (System && It != Spellings.end() && It->second.Angled)
      return "#include <" + It->second.Name + ">";
    return "#include \"" + absolutePath(*FE) + "\"";
  }
  return "";
}

static bool inRuntimeCore(const SourceManager &SM, const Decl *D) {
  OptionalFileEntryRef FE = SM.getFileEntryRefForID(fileOf(SM, D));
  return FE && absolutePath(*FE) == runtimeCoreHeader();
}

static std::string describe(const Decl *D) {
  std::string Name = cast<NamedDecl>(D)->getQualifiedNameAsString();
  if (D->getDeclContext()->isRecord())
    return "'" + Name + "', a class member,";
  if (D->getDeclContext()->isFunctionOrMethod())
    return "'" + Name + "', a local type,";
  if (!cast<NamedDecl>(D)->getIdentifier())
    return "an unnamed type";
  if (isa<TypeAliasTemplateDecl>(D))
    return "the alias template '" + Name + "'";
  if (isa<ClassTemplateDecl>(D))
    return "'" + Name + "', a template with constraints or a parameter of "
           "class or enum type,";
  if (isa<EnumDecl>(D))
    return "'" + Name + "', an enum without a fixed underlying type,";
  return "'" + Name + "'";
}

bool TypeDeclarer::needDecl(const Decl *D, std::vector<Need> &Out,
                            std::string &Why) {
  if (const auto *RD = dyn_cast<CXXRecordDecl>(D))
    if (const ClassTemplateDecl *CTD = RD->getDescribedClassTemplate())
      D = CTD;
  D = D->getCanonicalDecl();
  for (const Decl *In = D; Visible && In;
       In = dyn_cast_or_null<Decl>(In->getDeclContext()))
    if (In->getCanonicalDecl() == Visible)
      return true;
  auto Known = Seen.find(D);
  if (Known == Seen.end())
    Known = Seen.insert({D, resolve(D)}).first;
  const Resolved &R = Known->second;
  if (!R.Ok) {
    Why = describe(D) + " cannot be declared before its definition";
    return false;
  }
  if (!R.N.Line.empty())
    Out.push_back(R.N);
  return true;
}

TypeDeclarer::Resolved TypeDeclarer::resolve(const Decl *D) const {
  const SourceManager &SM = CI.getSourceManager();
  SourceLocation Loc = SM.getExpansionLoc(D->getLocation());
  if (Loc.isInvalid() || !SM.getFileEntryRefForID(SM.getFileID(Loc)) ||
      inRuntimeCore(SM, D))
    return {true, {}}; // Built in, or declared by <grad/core.h>.
  Need N;
  if (SM.isInSystemHeader(Loc)) {
    N.Line = includeFor(D, /*System=*/true);
    N.K = Kind::SystemInclude;
  } else {
    N.Line = forwardDeclaration(D);
    if (N.Line.empty()) {
      N.Line = includeFor(D, /*System=*/false);
      N.K = Kind::UserInclude;
    }
  }
  return {!N.Line.empty(), N};
}

bool TypeDeclarer::walkArg(const TemplateArgument &A, std::vector<Need> &Out,
                           std::string &Why) {
  switch (A.getKind()) {
  case TemplateArgument::Type:
    return walk(A.getAsType(), Out, Why);
  case TemplateArgument::Template:
  case TemplateArgument::TemplateExpansion: {
    TemplateDecl *TD = A.getAsTemplateOrTemplatePattern().getAsTemplateDecl();
    return !TD || isa<TemplateTemplateParmDecl>(TD) || needDecl(TD, Out, Why);
  }
  case TemplateArgument::Pack:
    for (const TemplateArgument &P : A.pack_elements())
      if (!walkArg(P, Out, Why))
        return false;
    return true;
  case TemplateArgument::Declaration:
  case TemplateArgument::StructuralValue:
    Why = "a template argument that names a declaration";
    return false;
  default:
    return true;
  }
}

bool TypeDeclarer::walk(QualType T, std::vector<Need> &Out, std::string &Why) {
  if (T.isNull())
    return true;
  const Type *Ty = T.getTypePtr();
  if (const auto *ET = dyn_cast<ElaboratedType>(Ty))
    return walk(ET->getNamedType(), Out, Why);
  if (const auto *TT = dyn_cast<TypedefType>(Ty)) {
    // Sugar printed as written (function templates): only a system
    // header's typedef can be named by including that header.
    const TypedefNameDecl *TD = TT->getDecl();
    const SourceManager &SM = CI.getSourceManager();
    if (!SM.isInSystemHeader(SM.getExpansionLoc(TD->getLocation()))) {
      Why = "the type alias '" + TD->getQualifiedNameAsString() + "'";
      return false;
    }
    std::string Line = includeFor(TD, /*System=*/true);
    if (Line.empty())
      return walk(TT->desugar(), Out, Why);
    Out.push_back({Line, Kind::SystemInclude});
    return true;
  }
  if (const auto *ST = dyn_cast<SubstTemplateTypeParmType>(Ty))
    return walk(ST->getReplacementType(), Out, Why);
  if (const auto *PT = dyn_cast<PointerType>(Ty))
    return walk(PT->getPointeeType(), Out, Why);
  if (const auto *RT = dyn_cast<ReferenceType>(Ty))
    return walk(RT->getPointeeType(), Out, Why);
  if (const auto *AT = dyn_cast<ArrayType>(Ty))
    return walk(AT->getElementType(), Out, Why);
  if (const auto *MP = dyn_cast<MemberPointerType>(Ty))
    return walk(MP->getPointeeType(), Out, Why) &&
           walk(QualType(MP->getClass(), 0), Out, Why);
  if (const auto *FT = dyn_cast<FunctionProtoType>(Ty)) {
    for (QualType P : FT->param_types())
      if (!walk(P, Out, Why))
        return false;
    return walk(FT->getReturnType(), Out, Why);
  }
  if (const auto *TST = dyn_cast<TemplateSpecializationType>(Ty)) {
    TemplateDecl *TD = TST->getTemplateName().getAsTemplateDecl();
    if (TD && !isa<TemplateTemplateParmDecl>(TD) && !needDecl(TD, Out, Why))
      return false;
    for (const TemplateArgument &A : TST->template_arguments())
      if (!walkArg(A, Out, Why))
        return false;
    return true;
  }
  if (const auto *TagT = dyn_cast<TagType>(Ty)) {
    const TagDecl *TD = TagT->getDecl();
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(TD)) {
      if (!needDecl(Spec->getSpecializedTemplate(), Out, Why))
        return false;
      for (const TemplateArgument &A : Spec->getTemplateArgs().asArray())
        if (!walkArg(A, Out, Why))
          return false;
      return true;
    }
    return needDecl(TD, Out, Why);
  }
  if (const auto *IT = dyn_cast<InjectedClassNameType>(Ty))
    return needDecl(IT->getDecl(), Out, Why);
  if (isa<DecltypeType, TypeOfExprType, TypeOfType>(Ty)) {
    Why = "a 'decltype' type";
    return false;
  }
  return true; // builtin, template parameter, dependent name, ...
}

bool TypeDeclarer::require(QualType T, std::string &Why, const Decl *Inside) {
  std::vector<Need> Out;
  Visible = Inside ? Inside->getCanonicalDecl() : nullptr;
  bool Ok = walk(T, Out, Why);
  Visible = nullptr;
  if (!Ok)
    return false;
  for (Need &N : Out)
    (N.K == Kind::Forward         ? Forwards
     : N.K == Kind::SystemInclude ? SystemIncludes
                                  : UserIncludes)
        .insert(N.Line);
  return true;
}

void TypeDeclarer::print(llvm::raw_ostream &OS) const {
  for (const std::string &L : SystemIncludes)
    OS << L << "\n";
  if (!Forwards.empty())
    OS << "\n// Types the declarations name, declared ahead of their "
          "definitions.\n";
  for (const std::string &L : Forwards)
    OS << L << "\n";
  if (!UserIncludes.empty())
    OS << "\n// Headers declaring types that have no forward "
          "declaration.\n";
  for (const std::string &L : UserIncludes)
    OS << L << "\n";
}

} // namespace grad
