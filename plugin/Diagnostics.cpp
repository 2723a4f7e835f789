//===- Diagnostics.cpp - clang-grad diagnostics -----------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "Diagnostics.h"

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

} // namespace grad
