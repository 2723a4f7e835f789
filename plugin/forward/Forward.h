//===- Forward.h - Building forward-mode derivatives ------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The forward builder's interface: the bodies of pushforwards,
/// Hessian-vector products and vector pullbacks (TangentBuilder.h is
/// private to this folder).
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_FORWARD_FORWARD_H
#define CLANG_GRAD_FORWARD_FORWARD_H

#include "ast/Abi.h"

namespace grad {

class DerivativeRequests;

/// Builds the body of \p E's pushforward from \p Def; false after errors.
bool buildPushforward(DerivativeRequests &D, PushforwardEntry &E,
                      const clang::FunctionDecl *Def);

/// Builds the body of \p V: the linear pushforward of \p Pullback (the
/// primal's scalar pullback, defined) along its seed and adjoints.
bool buildVectorPullback(DerivativeRequests &D, VectorPullbackEntry &V,
                         const clang::FunctionDecl *Pullback);

/// Builds the body of \p H: the pushforward of \p Pullback (the primal's
/// pullback, defined) along the directions, with seed 1, its adjoint
/// outputs' tangents accumulated into the adjoints; false after errors.
bool buildHvp(DerivativeRequests &D, HvpEntry &H,
              const clang::FunctionDecl *Pullback);

} // namespace grad

#endif
