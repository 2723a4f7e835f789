//===- StdForms.h - Standard calls in forms the plugin follows --*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The builders of the forms analysis/Selectors.h looks up (installed as
/// its FormBuilders when the plugin loads), and the pointer form of a
/// container iterator, which the builders use directly.
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_LIFT_STDFORMS_H
#define CLANG_GRAD_LIFT_STDFORMS_H

#include "clang/AST/Expr.h"

namespace grad {

class SemaBuilder;

/// The pointer for the iterator \p E of a std::vector or std::array of
/// floating elements (`v.begin()` -> `v.data()`, `v.end()` -> `v.data() +
/// v.size()`, `v.begin() + k`), built over \p E's operands; null if \p E
/// is no such iterator.
clang::Expr *iteratorPointer(SemaBuilder &B, const clang::Expr *E);

} // namespace grad

#endif
