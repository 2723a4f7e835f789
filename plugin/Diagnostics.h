//===- Diagnostics.h - clang-grad diagnostics -------------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The plugin's diagnostics, from the table in Diagnostics.def. Clang 19
/// custom diagnostics ignore -w and -Werror, so report() applies both itself.
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_DIAGNOSTICS_H
#define CLANG_GRAD_DIAGNOSTICS_H

#include "clang/Basic/Diagnostic.h"

namespace grad {

enum class Diag {
#define GRAD_DIAG(ID, Level, Text) ID,
#include "Diagnostics.def"
  NumDiags
};

/// Emits diagnostic \p D at \p Loc, honouring -w and -Werror for warnings.
clang::DiagnosticBuilder report(clang::DiagnosticsEngine &DE, Diag D,
                                clang::SourceLocation Loc);

} // namespace grad

#endif
