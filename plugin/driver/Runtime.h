//===- Runtime.h - Making the runtime available to generated code -*- C++ -*-=//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Generated derivatives call a few runtime pieces (the per-thread stack of
/// grad/core.h). The plugin includes that header into every C++ translation
/// unit itself, so users pass only -fplugin: it is found next to the plugin
/// (the install tree's include/) or in the source tree the plugin was built
/// from.
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_RUNTIME_H
#define CLANG_GRAD_RUNTIME_H

#include <string>

namespace clang {
class CompilerInstance;
}

namespace grad {

/// The path of grad/core.h, or empty if it cannot be found.
std::string runtimeCoreHeader();

/// Adds `#include "<grad/core.h>"` to the predefines of \p CI's
/// preprocessor (before the main file is entered). No-op for C.
void includeRuntime(clang::CompilerInstance &CI);

} // namespace grad

#endif
