//===- Diagnostics.cpp - clang-grad diagnostics -----------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "Diagnostics.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace grad {

namespace {
struct DiagRow {
  DiagnosticsEngine::Level Level;
  const char *Text;
};

const DiagRow Rows[] = {
#define GRAD_DIAG(ID, Level, Text) {DiagnosticsEngine::Level, Text},
#include "Diagnostics.def"
};
} // namespace

DiagnosticBuilder report(DiagnosticsEngine &DE, Diag D, SourceLocation Loc) {
  const DiagRow &Row = Rows[static_cast<unsigned>(D)];
  DiagnosticsEngine::Level Level = Row.Level;
  if (Level == DiagnosticsEngine::Warning) {
    if (DE.getIgnoreAllWarnings())
      Level = DiagnosticsEngine::Ignored;
    else if (DE.getWarningsAsErrors())
      Level = DiagnosticsEngine::Error;
  }
  // DiagnosticIDs caches custom IDs by (level, text): lookups are cheap.
  unsigned ID = DE.getDiagnosticIDs()->getCustomDiagID(
      static_cast<DiagnosticIDs::Level>(Level), Row.Text);
  return DE.Report(Loc, ID);
}

std::string spelledExpr(const ASTContext &Ctx, const Expr *E) {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceRange R = E->getSourceRange();
  if (R.isValid() && !R.getBegin().isMacroID() && !R.getEnd().isMacroID()) {
    StringRef Text = Lexer::getSourceText(CharSourceRange::getTokenRange(R),
                                          SM, Ctx.getLangOpts());
    if (!Text.empty() && Text.size() < 80)
      return Text.str();
  }
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  E->printPretty(OS, nullptr, PrintingPolicy(Ctx.getLangOpts()));
  return Out;
}

} // namespace grad
