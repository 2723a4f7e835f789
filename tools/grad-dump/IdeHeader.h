//===- IdeHeader.h - The header of grad-dump --declarations -----*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `grad-dump --declarations FILE` writes a header declaring the functions
/// the plugin generates for FILE that code can call (NAME_pullback,
/// NAME_pushforward, NAME_hvp, their vector-mode overloads, pullback
/// templates), for editors that parse FILE without the plugin (clangd).
/// The CMake helper clang_grad_ide() force-includes it (`-include`) in a
/// compile database of its own (docs/ide.md).
///
/// Included ahead of FILE's first line, the header declares the types its
/// declarations name as well (TypeDeclarer). A function that names a type
/// which cannot be declared there is declared generically (a variadic
/// template taking any arguments). Members cannot be declared from outside
/// their class: the header defines GRAD_IDE_MEMBERS_<Class> with them, and
/// `GRAD_IDE_MEMBERS(Class)` at the end of the class body expands to that
/// (to nothing when compiling: <grad/ide.h>).
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_TOOLS_IDEHEADER_H
#define CLANG_GRAD_TOOLS_IDEHEADER_H

#include "TypeDeclarer.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <set>
#include <string>

namespace clang {
class CompilerInstance;
class PPCallbacks;
class Preprocessor;
} // namespace clang

namespace grad {

/// What the preprocessor saw that the header depends on.
struct DeclarationSources {
  /// How each included file was spelled, by its unique ID.
  llvm::DenseMap<unsigned, IncludeSpelling> Includes;
  /// The X of every GRAD_IDE_MEMBERS(X).
  std::set<std::string> Hooks;
};

/// Callbacks that fill \p Out while \p PP preprocesses the file.
std::unique_ptr<clang::PPCallbacks> recordSources(clang::Preprocessor &PP,
                                                  DeclarationSources &Out);

/// Writes the header for the translation unit \p CI has parsed (with the
/// plugin's consumer) to \p OS; explains on \p Notes what it could not
/// declare exactly. \p OnDemand: generated members to declare besides the
/// ones code can call (grad-dump --all-members).
void writeDeclarations(clang::CompilerInstance &CI,
                       const DeclarationSources &Src,
                       llvm::ArrayRef<const clang::FunctionDecl *> OnDemand,
                       llvm::raw_ostream &OS, llvm::raw_ostream &Notes);

} // namespace grad

#endif
