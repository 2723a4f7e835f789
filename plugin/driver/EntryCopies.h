//===- EntryCopies.h - Re-seated pointer parameters as locals ---*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A pointer parameter made to point into other memory (`b = a; ++b;`) is,
/// for the reverse builder, a local pointer initialised from the
/// parameter: `double *b = b_in;` at entry, then the body as written. A
/// local pointer assigned pointers into several storages is tracked at run
/// time (Activity::rootsOf); a parameter's shadow is its adjoint at an
/// offset from its entry value, which holds only within its own memory.
///
/// EntryCopies presents the definition that way while a pullback (or the
/// halves of a split derivative) is built: a FunctionDecl that is not part
/// of the translation unit, with a new parameter for each re-seated one
/// and a body that declares the local and then runs the original
/// statements, whose references to the parameter are pointed at the local
/// for the lifetime of the object and restored after. The generated
/// functions keep the primal's name and ABI (their declarations are the
/// registry's). Functions it does not rewrite (member functions, a body
/// that is not a compound statement, a lambda capturing the parameter) are
/// built as they are, and the builder refuses the re-seat.
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_ENTRYCOPIES_H
#define CLANG_GRAD_ENTRYCOPIES_H

#include "clang/AST/Decl.h"
#include "llvm/ADT/SmallVector.h"

namespace clang {
class Sema;
class DeclRefExpr;
} // namespace clang

namespace grad {

class EntryCopies {
public:
  EntryCopies(clang::Sema &S, const clang::FunctionDecl *Def);
  ~EntryCopies();
  EntryCopies(const EntryCopies &) = delete;
  EntryCopies &operator=(const EntryCopies &) = delete;

  /// The definition the builders take: \p Def, or its rewritten form.
  const clang::FunctionDecl *def() const { return View ? View : Def; }

private:
  const clang::FunctionDecl *Def;
  clang::FunctionDecl *View = nullptr;
  /// References to re-seated parameters, and the parameter each named.
  llvm::SmallVector<std::pair<clang::DeclRefExpr *, clang::ValueDecl *>, 8>
      Redirected;
};

} // namespace grad

#endif
