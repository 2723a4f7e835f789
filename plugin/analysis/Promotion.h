//===- Promotion.h - Implicit float-to-double promotion ---------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The mixed-precision safety rail: warns where a `float` value is
/// implicitly widened to `double` (or `long double`) inside a [[grad]]
/// function and the lambdas it contains, with a fix-it on double literals
/// (`0.01` -> `0.01f`), and at a map/broadcast callable whose result is
/// wider than its inputs.
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_PROMOTION_H
#define CLANG_GRAD_PROMOTION_H

namespace clang {
class FunctionDecl;
class Sema;
} // namespace clang

namespace grad {

/// Reports the promotions in \p FD's body.
void checkPromotions(clang::Sema &S, const clang::FunctionDecl *FD);

} // namespace grad

#endif
