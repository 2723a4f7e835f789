//===- Lift.h - Lambdas passed to map and broadcast -------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Classifies the callable passed to grad::map / grad::broadcast from its
/// AST and lifts it into ordinary functions the pullback can call:
/// - forward: capture-free and pure (writes only its locals, reads no
///   mutable global, calls only functions with derivative rules). Lowered
///   with dual numbers: a tangent function gives value and all partials in
///   one pass.
/// - reverse: captures differentiable state, reads mutable globals or calls
///   other functions. The element function (captures as trailing
///   parameters) is differentiated like any callee; its pullback also
///   accumulates the captures' adjoints.
/// - stateful: writes captured or global state. Reverse lowering that
///   replays elements in order and restores the state each saw.
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_LIFT_H
#define CLANG_GRAD_LIFT_H

#include "analysis/Callables.h"

namespace clang {
class Sema;
} // namespace clang

namespace grad {

/// Gives \p Fn (declared with the parameters of \p Info's function, then
/// one per capture) the body of that function, over dual numbers of type
/// \p Dual when it is not null; false after reporting, at the construct and
/// naming \p Primal, what cannot be lifted.
bool cloneLifted(clang::Sema &S, const LambdaInfo &Info,
                 clang::FunctionDecl *Fn, clang::QualType Dual,
                 const clang::FunctionDecl *Primal);
/// A local `T NAME = INIT;` standing for the closure's copy of \p V (made
/// where the lambda is): the derivative declares it there, differentiates
/// it like a local of the function, and passes it to the lifted calls.
clang::VarDecl *captureCopy(clang::ASTContext &Ctx, const clang::VarDecl *V,
                            const clang::Expr *Init,
                            const clang::LambdaExpr *L, llvm::StringRef Name);

} // namespace grad

#endif
