//===- Plugin.cpp - The clang-grad compiler plugin --------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Registers the plugin action `grad`. It runs before CodeGen in the same
/// consumer chain; every pullback it defines is handed to CodeGen through
/// the compiler instance's consumer.
///
//===----------------------------------------------------------------------===//

#include "driver/Consumer.h"
#include "ast/Diagnostics.h"
#include "driver/PullbackNotes.h"
#include "driver/Runtime.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"

using namespace clang;

namespace grad {
namespace {

class GradAction : public PluginASTAction {
public:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef) override {
    const LangOptions &LO = CI.getLangOpts();
    if (LO.CPlusPlus && !LO.CPlusPlus20) {
      // The runtime would fail with a screen of errors about concepts;
      // differentiating is pointless when the generated code cannot compile.
      report(CI.getDiagnostics(), Diag::NeedsCxx20, SourceLocation());
      return std::make_unique<ASTConsumer>();
    }
    if (!Opts.NoRuntimeInclude)
      includeRuntime(CI);
    installPullbackNotes(CI);
    CompilerInstance *CIP = &CI;
    return std::make_unique<GradConsumer>(
        Opts, [CIP](FunctionDecl *FD, bool InGroup) {
          // CodeGen sees declarations inside the group being handled when
          // it handles the group; others are passed on explicitly.
          if (!InGroup && CIP->hasASTConsumer())
            CIP->getASTConsumer().HandleTopLevelDecl(DeclGroupRef(FD));
        });
  }

  bool ParseArgs(const CompilerInstance &CI,
                 const std::vector<std::string> &Args) override {
    for (const std::string &Arg : Args)
      if (!Opts.parse(Arg)) {
        report(CI.getDiagnostics(), Diag::UnknownPluginArg, SourceLocation())
            << Arg;
        return false;
      }
    return true;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }

private:
  Options Opts;
};

} // namespace
} // namespace grad

static FrontendPluginRegistry::Add<grad::GradAction>
    X("grad", "clang-grad: reverse-mode automatic differentiation");
