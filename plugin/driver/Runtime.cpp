//===- Runtime.cpp - Making the runtime available to generated code -------===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "driver/Runtime.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <dlfcn.h>

using namespace clang;

namespace grad {

std::string runtimeCoreHeader() {
  static const std::string Found = [] {
    llvm::SmallVector<std::string, 2> Candidates;
    // The install tree: P/lib/ClangGrad.so and P/bin/grad-dump next to
    // P/include/grad/core.h.
    Dl_info Info;
    if (dladdr(reinterpret_cast<void *>(&runtimeCoreHeader), &Info) &&
        Info.dli_fname) {
      llvm::SmallString<256> P(Info.dli_fname);
      llvm::sys::fs::make_absolute(P);
      llvm::sys::path::remove_filename(P);
      llvm::sys::path::append(P, "..", "include", "grad", "core.h");
      Candidates.push_back(std::string(P));
    }
    // The source tree the build came from.
    Candidates.push_back(GRAD_SOURCE_RUNTIME_INCLUDE "/grad/core.h");
    for (const std::string &C : Candidates)
      if (llvm::sys::fs::exists(C)) {
        llvm::SmallString<256> Real;
        if (!llvm::sys::fs::real_path(C, Real))
          return std::string(Real);
        return C;
      }
    return std::string();
  }();
  return Found;
}

void includeRuntime(CompilerInstance &CI) {
  if (!CI.getLangOpts().CPlusPlus || !CI.hasPreprocessor())
    return;
  std::string Header = runtimeCoreHeader();
  if (Header.empty())
    return; // Generated code that needs it reports the missing runtime.
  Preprocessor &PP = CI.getPreprocessor();
  std::string Predefines = PP.getPredefines();
  Predefines += "#include \"" + Header + "\"\n";
  PP.setPredefines(Predefines);
}

} // namespace grad
