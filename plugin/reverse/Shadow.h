//===- Shadow.h - Shadow lvalues of differentiated memory -------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Every lvalue that can hold a differentiated value has a *shadow* of the
/// same type and shape that holds its adjoint: `x` -> `_d_x`, `p[i]` ->
/// `d_p[i]`, `*p` -> `*d_p`, `p + k` -> `d_p + k`, `&e` -> `&shadow(e)`,
/// `s.m` / `p->m` -> `shadow(s).m` / `shadow(p)->m`, `v.data()` ->
/// `shadow(v).data()`, `pp[i][j]` -> `d_pp[i][j]`. Aliases then share adjoint
/// cells exactly as they share memory. This unit maps the access-path
/// grammar of Paths.h to shadows, in the reverse sweep (indices and offsets
/// come from the builder's recorded values); the builder supplies the
/// shadows of the roots (variables and `this`).
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_SHADOW_H
#define CLANG_GRAD_SHADOW_H

#include "ast/SemaBuilder.h"

#include "clang/AST/Expr.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

namespace grad {

/// One access step \p Step (`a[i]`, `t(i, j)`, `std::get<I>(t)`, `s.m`,
/// `p->m`, `*p`) rebuilt over the already rebuilt \p Base; \p Index
/// rebuilds each index.
clang::Expr *
buildStep(SemaBuilder &B, clang::Expr *Base, const clang::Expr *Step,
          llvm::function_ref<clang::Expr *(const clang::Expr *)> Index);

/// What the shadow mapping needs from the builder that uses it.
class ShadowRoots {
public:
  virtual ~ShadowRoots();
  /// The reverse sweep's value of the integer \p E (an index, an offset).
  virtual clang::Expr *indexValue(const clang::Expr *E) = 0;
  /// The shadow of the variable \p Ref refers to: an lvalue for scalars,
  /// arrays and objects (`_d_x`, `(*d_v)`), a pointer for pointer
  /// variables (`d_p`, or an alias's root shadow plus its offset at this
  /// use), the referenced shadow for references.
  virtual clang::Expr *rootShadow(const clang::DeclRefExpr *Ref) = 0;
  /// The shadow of `this` (`d_this`).
  virtual clang::Expr *thisShadow(const clang::Expr *Use) = 0;
  /// The offset of the pointer the helper call \p Call returned from the
  /// argument it points into (Paths.h pointedArg), as the forward sweep
  /// found it; null after reporting when it was not recorded.
  virtual clang::Expr *resultOffset(const clang::Expr *Call) = 0;
  /// Reports that \p S has no shadow; returns null.
  virtual std::nullptr_t noShadow(const clang::Stmt *S,
                                  llvm::StringRef What) = 0;
};

/// The shadow lvalue of the lvalue \p E.
clang::Expr *shadowLValue(ShadowRoots &R, SemaBuilder &B,
                          const clang::Expr *E);
/// The shadow of the pointer expression \p P.
clang::Expr *shadowPointer(ShadowRoots &R, SemaBuilder &B,
                           const clang::Expr *P);

/// The elements a call's result points into, given \p Base, argument \p A
/// rebuilt (a value or a shadow): a pointer as it is, a container's
/// `.data()`, an object's `reinterpret_cast<Elem *>(&Base)` (const Elem if
/// \p Const).
clang::Expr *elementsOf(SemaBuilder &B, const clang::Expr *A,
                        clang::Expr *Base, clang::QualType Elem, bool Const);

} // namespace grad

#endif
