//===- GradDump.cpp - Print the derivatives clang-grad generates -*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// grad-dump FILE.cpp [-- CLANG_ARGS...] prints, as C++ that compiles
/// without the plugin (given the runtime header and the original
/// declarations), every derivative the plugin generates for FILE. With
/// --declarations it prints instead a header declaring the generated
/// functions code can call, for editors (IdeHeader.h).
///
//===----------------------------------------------------------------------===//

#include "driver/Consumer.h"
#include "IdeHeader.h"
#include "ast/Printer.h"
#include "driver/PullbackNotes.h"
#include "driver/Registry.h"
#include "driver/Runtime.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CommonOptionsParser.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

using namespace clang;
using namespace clang::tooling;

static llvm::cl::OptionCategory Category("grad-dump options");
static llvm::cl::opt<std::string>
    Function("function",
             llvm::cl::desc("Print only the derivatives of this function"),
             llvm::cl::cat(Category));
static llvm::cl::list<std::string>
    PluginArgs("plugin-arg",
               llvm::cl::desc("Pass a plugin argument (remarks, ...)"),
               llvm::cl::cat(Category));
static llvm::cl::opt<bool> Declarations(
    "declarations",
    llvm::cl::desc("Print a header declaring the generated functions code "
                   "can call, for editors (docs/ide.md)"),
    llvm::cl::cat(Category));
static llvm::cl::opt<bool> AllMembers(
    "all-members",
    llvm::cl::desc("With --declarations: also declare the members the "
                   "plugin differentiates on demand (what compiling "
                   "grad-dump's output without the plugin needs)"),
    llvm::cl::cat(Category));
static llvm::cl::opt<std::string> DeclarationsTo(
    "declarations-to",
    llvm::cl::desc("Also write the --declarations header to this file (one "
                   "run for both)"),
    llvm::cl::value_desc("file"), llvm::cl::cat(Category));
static llvm::cl::opt<std::string>
    OutputFile("o", llvm::cl::desc("Write the output to this file"),
               llvm::cl::value_desc("file"), llvm::cl::cat(Category));
static llvm::cl::opt<std::string> DepFile(
    "depfile",
    llvm::cl::desc("With -o: also write a Makefile rule naming the files "
                   "the output depends on"),
    llvm::cl::value_desc("file"), llvm::cl::cat(Category));

/// What grad-dump prints, written to -o or stdout at the end.
static std::string OutputText;
static llvm::raw_string_ostream Out(OutputText);
/// The files the output depends on (--depfile).
static std::set<std::string> Inputs;
/// Set once a --declarations header is written (the first compile command
/// of the file wins).
static bool Declared = false;

namespace {

/// The functions a body names (called or referenced).
struct Refs : RecursiveASTVisitor<Refs> {
  llvm::SmallVector<const FunctionDecl *, 8> Found;
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (auto *FD = dyn_cast<FunctionDecl>(E->getDecl()))
      Found.push_back(FD);
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    if (auto *FD = dyn_cast<FunctionDecl>(E->getMemberDecl()))
      Found.push_back(FD);
    return true;
  }
};

class DumpAction : public ASTFrontendAction {
public:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef File) override {
    grad::Options Opts;
    for (const std::string &A : PluginArgs)
      if (!Opts.parse(A))
        llvm::errs() << "grad-dump: unknown plugin argument '" << A << "'\n";
    if (!Opts.NoRuntimeInclude)
      grad::includeRuntime(CI);
    if (Declarations || !DeclarationsTo.empty())
      CI.getPreprocessor().addPPCallbacks(
          grad::recordSources(CI.getPreprocessor(), Sources));
    if (!Declarations)
      grad::installPullbackNotes(CI);
    Opts.Dump = false;
    auto C = std::make_unique<grad::GradConsumer>(
        Opts, [](FunctionDecl *, bool) {});
    Consumer = C.get();
    return C;
  }

  void EndSourceFileAction() override {
    noteInputs();
    if (Declarations) {
      if (!Declared && getCompilerInstance().hasASTContext()) {
        writeDeclarations(Out);
        Declared = true;
      }
      return;
    }
    if (!DeclarationsTo.empty() && getCompilerInstance().hasASTContext()) {
      std::error_code EC;
      llvm::raw_fd_ostream File(DeclarationsTo, EC);
      if (EC)
        llvm::errs() << "grad-dump: cannot write '" << DeclarationsTo
                     << "': " << EC.message() << "\n";
      else
        writeDeclarations(File);
    }
    if (!Consumer || !Consumer->differentiator())
      return;
    const auto &All = Consumer->differentiator()->defined();
    llvm::DenseSet<const FunctionDecl *> Generated(All.begin(), All.end());
    // The generated functions that call, directly or not, one whose
    // derivative failed (after errors in the file) are left out: the rest
    // is printed and compiles.
    llvm::DenseSet<const FunctionDecl *> Broken = brokenCallers(All);
    llvm::DenseSet<const FunctionDecl *> Keep;
    std::vector<const FunctionDecl *> Work;
    for (FunctionDecl *PB : All) {
      StringRef N = PB->getIdentifier() ? PB->getName() : StringRef();
      if (!Function.empty() && N != Function + "_pullback" &&
          N != Function + "_pushforward" && N != Function + "_hvp" &&
          !N.starts_with("_grad_" + Function + "_pullback") &&
          !N.starts_with("_grad_" + Function + "_pushforward"))
        continue;
      if (!Broken.count(PB) && Keep.insert(PB).second)
        Work.push_back(PB);
    }
    // With --function, also what the selection calls among the generated
    // functions (callee pullbacks, lifted lambdas), so the output compiles.
    while (!Work.empty()) {
      const FunctionDecl *FD = Work.back();
      Work.pop_back();
      Refs R;
      R.TraverseStmt(FD->getBody());
      for (const FunctionDecl *C : R.Found)
        for (const FunctionDecl *Re : C->redecls())
          if (Generated.count(Re) && Keep.insert(Re).second)
            Work.push_back(Re);
    }
    std::vector<const FunctionDecl *> Selected;
    for (FunctionDecl *PB : All)
      if (Keep.count(PB))
        Selected.push_back(PB);
    Out << "// Generated by clang-grad (grad-dump).\n"
        << "#include <grad/core.h>\n";
    // Pullback templates first: the specializations below refer to them.
    llvm::DenseSet<const Decl *> Templates;
    for (const FunctionDecl *PB : Selected)
      if (PB->getPrimaryTemplate() &&
          Templates.insert(PB->getPrimaryTemplate()->getCanonicalDecl())
              .second)
        grad::printTemplatePrototype(PB, Out);
    for (const FunctionDecl *PB : Selected)
      grad::printPrototype(PB, Out);
    Out << "\n";
    for (const FunctionDecl *PB : Selected) {
      grad::printDefinition(PB, Out);
      Out << "\n";
    }
    reportSkipped(Broken);
  }

private:
  /// The --declarations header (with --all-members, also the members
  /// differentiated on demand).
  void writeDeclarations(llvm::raw_ostream &OS) {
    std::vector<const FunctionDecl *> Members;
    if (AllMembers && Consumer && Consumer->differentiator())
      for (const FunctionDecl *FD : Consumer->differentiator()->defined())
        if (isa<CXXRecordDecl>(FD->getDeclContext()))
          Members.push_back(FD);
    grad::writeDeclarations(getCompilerInstance(), Sources, Members, OS,
                            llvm::errs());
  }

  /// Records the files this compile read (--depfile).
  void noteInputs() {
    if (DepFile.empty())
      return;
    const SourceManager &SM = getCompilerInstance().getSourceManager();
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
      llvm::SmallString<256> Path(It->first.getName());
      llvm::sys::fs::make_absolute(Path);
      llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
      Inputs.insert(std::string(Path));
    }
  }

  /// Generated functions in \p All whose bodies reach a generated function
  /// that has no definition (its derivative failed).
  static llvm::DenseSet<const FunctionDecl *>
  brokenCallers(const std::vector<FunctionDecl *> &All) {
    llvm::DenseSet<const FunctionDecl *> Broken;
    if (All.empty())
      return Broken;
    const grad::State &St = grad::State::get(All.front()->getASTContext());
    auto Undefined = [&](const FunctionDecl *FD) {
      if (!St.Generated.count(FD) && !St.Generated.count(FD->getCanonicalDecl()))
        return false;
      const FunctionDecl *Def = nullptr;
      return FD->isInvalidDecl() || !FD->isDefined(Def) ||
             Def->isInvalidDecl();
    };
    // To a fixed point: a caller of a broken function is broken, and so is
    // the forward half of a broken reverse half.
    auto Halves = [&] {
      bool Changed = false;
      for (const auto &E : St.Entries)
        if (E->Fwd && E->Rev && !Broken.count(E->Fwd) &&
            (Broken.count(E->Rev) || Undefined(E->Rev)))
          Changed |= Broken.insert(E->Fwd).second;
      return Changed;
    };
    for (bool Changed = true; Changed;) {
      Changed = false;
      for (const FunctionDecl *PB : All) {
        if (Broken.count(PB))
          continue;
        Refs R;
        R.TraverseStmt(PB->getBody());
        for (const FunctionDecl *C : R.Found)
          if (Undefined(C) || Broken.count(C) ||
              Broken.count(C->getCanonicalDecl())) {
            Broken.insert(PB);
            Changed = true;
            break;
          }
      }
      Changed |= Halves();
    }
    return Broken;
  }

  /// Tells on stderr which requested derivatives are missing from the
  /// output and why.
  void reportSkipped(const llvm::DenseSet<const FunctionDecl *> &Broken) {
    CompilerInstance &CI = getCompilerInstance();
    if (!CI.hasASTContext())
      return;
    const grad::State &St = grad::State::get(CI.getASTContext());
    llvm::DenseSet<const FunctionDecl *> Told;
    for (const auto &E : St.Entries) {
      if (E->UserProvided || !E->Pullback || !E->Primal ||
          !E->Pullback->getIdentifier())
        continue;
      StringRef N = E->Pullback->getName();
      if (N.starts_with("_grad_") || !St.requestFor(E->Primal))
        continue;
      if (!Function.empty() && N != Function + "_pullback")
        continue;
      bool Invalid = E->Primal->isInvalidDecl();
      bool Failed = E->Failed || E->Pullback->isInvalidDecl() || Invalid;
      if (!Failed && !Broken.count(E->Pullback))
        continue;
      if (!Told.insert(E->Pullback).second)
        continue;
      std::string Decl;
      llvm::raw_string_ostream OS(Decl);
      PrintingPolicy Policy(CI.getLangOpts());
      Policy.TerseOutput = true;
      E->Pullback->print(OS, Policy);
      llvm::errs() << "grad-dump: skipped '" << Decl << "': "
                   << (Invalid || Failed
                           ? "'" + E->Primal->getQualifiedNameAsString() +
                                 "' cannot be differentiated (errors above)"
                           : std::string("it calls a derivative that has "
                                         "errors (above)"))
                   << "\n";
    }
  }

  grad::GradConsumer *Consumer = nullptr;
  grad::DeclarationSources Sources;
};

/// Counts errors without printing them (--declarations: the compile with
/// the plugin reports them), nor failing the run.
class QuietDiagnostics : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &) override {
    Errors += Level >= DiagnosticsEngine::Error;
  }
  unsigned Errors = 0;
};

} // namespace

/// Escapes \p Path for a Makefile rule.
static std::string makeEscaped(llvm::StringRef Path) {
  std::string Out;
  for (char C : Path) {
    if (C == ' ' || C == '#')
      Out += '\\';
    if (C == '$')
      Out += '$';
    Out += C;
  }
  return Out;
}

/// Opens \p Path for writing, creating its directory; null after saying
/// why not.
static std::unique_ptr<llvm::raw_fd_ostream> create(llvm::StringRef Path) {
  std::error_code EC;
  llvm::StringRef Dir = llvm::sys::path::parent_path(Path);
  if (!Dir.empty())
    EC = llvm::sys::fs::create_directories(Dir);
  std::unique_ptr<llvm::raw_fd_ostream> File;
  if (!EC)
    File = std::make_unique<llvm::raw_fd_ostream>(Path, EC);
  if (!EC)
    return File;
  llvm::errs() << "grad-dump: cannot write '" << Path
               << "': " << EC.message() << "\n";
  return nullptr;
}

/// Writes -o (or stdout) and --depfile; false after reporting a failure.
static bool writeOutputs() {
  Out.flush();
  if (OutputFile.empty()) {
    llvm::outs() << OutputText;
    return true;
  }
  std::unique_ptr<llvm::raw_fd_ostream> File = create(OutputFile);
  if (!File)
    return false;
  *File << OutputText;
  if (DepFile.empty())
    return true;
  std::unique_ptr<llvm::raw_fd_ostream> Deps = create(DepFile);
  if (!Deps)
    return false;
  *Deps << makeEscaped(OutputFile) << ":";
  for (const std::string &In : Inputs)
    *Deps << " \\\n  " << makeEscaped(In);
  *Deps << "\n";
  return true;
}

int main(int argc, const char **argv) {
  auto Parser = CommonOptionsParser::create(argc, argv, Category,
                                            llvm::cl::ZeroOrMore,
                                            "Print clang-grad derivatives.\n");
  if (!Parser) {
    llvm::errs() << Parser.takeError();
    return 1;
  }
  ClangTool Tool(Parser->getCompilations(), Parser->getSourcePathList());
  // Builtin headers come from the clang this tool was built against.
  Tool.appendArgumentsAdjuster(getInsertArgumentAdjuster(
      "-resource-dir=" GRAD_RESOURCE_DIR, ArgumentInsertPosition::BEGIN));
  Tool.appendArgumentsAdjuster(
      getInsertArgumentAdjuster("-Wno-unknown-attributes",
                                ArgumentInsertPosition::END));
  QuietDiagnostics Quiet;
  if (Declarations)
    Tool.setDiagnosticConsumer(&Quiet);
  int Status = Tool.run(newFrontendActionFactory<DumpAction>().get());
  if (Declarations) {
    // The header declares what the plugin declared, errors or not: an
    // editor needs it most while the file does not compile.
    if (Quiet.Errors)
      llvm::errs() << "grad-dump: the file has " << Quiet.Errors
                   << " error(s) (grad-dump without --declarations shows "
                      "them); the header declares what the plugin could\n";
    Status = Declared ? 0 : 1;
  }
  return writeOutputs() ? Status : 1;
}
