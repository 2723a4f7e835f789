//===- PullbackNotes.h - Signatures in overload diagnostics -----*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A pullback is declared by the plugin, so the user has no line of source
/// to look its parameters up in. When clang lists a generated pullback as a
/// candidate of a call that does not match ("candidate function not viable:
/// requires 5 arguments, but 4 were provided") or as the callee of a bad
/// call, a note with its exact declaration follows.
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_PULLBACKNOTES_H
#define CLANG_GRAD_PULLBACKNOTES_H

namespace clang {
class CompilerInstance;
}

namespace grad {

/// Wraps \p CI's diagnostic client so that notes naming a generated
/// pullback are followed by its declaration. Idempotent.
void installPullbackNotes(clang::CompilerInstance &CI);

} // namespace grad

#endif
