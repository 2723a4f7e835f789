//===- Printer.h - Printing generated code as C++ ---------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_PRINTER_H
#define CLANG_GRAD_PRINTER_H

#include "clang/AST/Decl.h"
#include "llvm/Support/raw_ostream.h"

namespace grad {

/// Prints \p FD (a generated pullback) as compilable C++, wrapped in its
/// namespaces and linkage blocks.
void printDefinition(const clang::FunctionDecl *FD, llvm::raw_ostream &OS);
/// Prints only the prototype, likewise wrapped.
void printPrototype(const clang::FunctionDecl *FD, llvm::raw_ostream &OS);
/// Prints the primary template declaration of \p Spec, a specialization
/// of a pullback template, likewise wrapped.
void printTemplatePrototype(const clang::FunctionDecl *Spec,
                            llvm::raw_ostream &OS);

} // namespace grad

#endif
