//===- Pushforward.h - Forward mode: [[grad::forward]] ----------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Forward mode. `[[grad::forward]]` on `R f(P1 p1, ..., Pn pn)` declares
/// `grad::dual<R> f_pushforward(p1, ..., pn, t_1, ..., t_k)` (docs/abi.md):
/// one tangent per differentiable parameter. The body is built as AST by a
/// tangent sweep that runs with the primal: every lvalue that can hold a
/// differentiated value gets a tangent lvalue of the same shape (`x` ->
/// `_t_x`, `p[i]` -> `_t_p[i]`, pointer locals and re-seating mirrored),
/// and every statement that writes a differentiated value first writes its
/// tangent. Callees with a visible body get their own pushforward on
/// demand; a user-declared NAME_pushforward wins.
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_PUSHFORWARD_H
#define CLANG_GRAD_PUSHFORWARD_H

#include "driver/Registry.h"
#include "forward/Forward.h"
#include "lift/ForwardAbi.h"

namespace grad {

/// Declares (or finds: ours or the user's) the pushforward of \p Primal for
/// \p Wrt next to the primal; null after \p Why is set. \p Drop marks
/// pointer parameters whose values are discarded (HvpEntry).
PushforwardEntry *declarePushforward(clang::Sema &S,
                                     clang::FunctionDecl *Primal,
                                     const WrtMask &Wrt, clang::Scope *Sc,
                                     clang::SourceLocation Loc,
                                     std::string &Why,
                                     const WrtMask *Drop = nullptr,
                                     llvm::StringRef NameOverride = {},
                                     unsigned Lanes = 0, bool Linear = false);

/// Declares `void f_hvp(params..., directions..., adjoints...)` for
/// `[[grad::hessian]]` (or finds the user's); null after \p Why is set.
HvpEntry *declareHvp(clang::Sema &S, clang::FunctionDecl *Primal,
                     const WrtMask &Wrt, clang::Scope *Sc,
                     clang::SourceLocation Loc, std::string &Why);

/// Declares the vector pullback of `[[grad("lanes=N")]]`: the overload of
/// f_pullback whose seed and adjoints are `grad::lanes<T, N>` (through
/// pointers); null after \p Why is set.
VectorPullbackEntry *declareVectorPullback(clang::Sema &S,
                                           clang::FunctionDecl *Primal,
                                           const WrtMask &Wrt, unsigned Lanes,
                                           clang::Scope *Sc,
                                           clang::SourceLocation Loc,
                                           std::string &Why);

} // namespace grad

#endif
