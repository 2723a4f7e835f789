//===- ide.h - Generated members, declared for editors ----------*- C++ -*-===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `GRAD_IDE_MEMBERS(Class)`, written at the end of the body of a class
/// with `[[grad]]` (or `[[grad::forward]]`, `[[grad::hessian]]`) member
/// functions, lets an editor that parses the code without the plugin
/// (clangd) see the members the plugin adds to the class (`energy_pullback`
/// ...). The header `grad-dump --declarations` writes, force-included in
/// the editor's compile commands by the CMake helper `clang_grad_ide()`,
/// defines it as `GRAD_IDE_MEMBERS_Class`, a list of those declarations
/// (docs/ide.md). Everywhere else it expands to nothing: when compiling,
/// the plugin declares the members itself.
///
/// core.h includes this header, so code compiled with the plugin needs no
/// #include for it; a header that is also compiled without the plugin
/// includes <grad/ide.h> (or <grad/grad.h>).
///
//===----------------------------------------------------------------------===//

#ifndef GRAD_IDE_H
#define GRAD_IDE_H

#ifndef GRAD_IDE_MEMBERS
#define GRAD_IDE_MEMBERS(Class)
#endif

#endif // GRAD_IDE_H
