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

namespace grad {

class Differentiator;

/// "f_pushforward" (operators and other names as for pullbacks).
std::string pushforwardName(const clang::FunctionDecl *Primal);

/// The pushforward's signature for \p Primal and \p Wrt (AdjointIndex holds
/// the tangent parameters), with \p Lanes directions per tangent (0: the
/// scalar pushforward; \p Vectors as for tangentType); false with \p Why
/// when it has none.
bool computePushforwardSignature(clang::Sema &S,
                                 const clang::FunctionDecl *Primal,
                                 const WrtMask &Wrt, PullbackSignature &Sig,
                                 std::string &Why, unsigned Lanes = 0,
                                 bool Vectors = false);

/// The tangent type of a value of type \p T in a pushforward with \p Lanes
/// directions: \p T itself for 0; otherwise floating scalars become
/// `::grad::lanes<T, Lanes>`, through pointers, references and arrays;
/// null for objects with floating data (no vector tangents yet), except,
/// with \p Vectors (vector pullbacks), `std::vector<T>` and `std::array<T,
/// K>`, whose lanes are a `std::vector<grad::lanes<T, N>>` (`std::array<
/// grad::lanes<T, N>, K>`).
clang::QualType tangentType(clang::Sema &S, clang::QualType T, unsigned Lanes,
                            clang::SourceLocation Loc, bool Vectors = false);
/// True for `grad::lanes<T, N>`.
bool isLanesType(clang::QualType T);

/// Why \p FD cannot have a pushforward (yet), or null.
const char *pushforwardUnsupported(const clang::FunctionDecl *FD);

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

/// Builds the body of \p E's pushforward from \p Def; false after errors.
bool buildPushforward(Differentiator &D, PushforwardEntry &E,
                      const clang::FunctionDecl *Def);

/// "f_hvp".
std::string hvpName(const clang::FunctionDecl *Primal);

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

/// Builds the body of \p V: the linear pushforward of \p Pullback (the
/// primal's scalar pullback, defined) along its seed and adjoints.
bool buildVectorPullback(Differentiator &D, VectorPullbackEntry &V,
                         const clang::FunctionDecl *Pullback);

/// Builds the body of \p H: the pushforward of \p Pullback (the primal's
/// pullback, defined) along the directions, with seed 1, its adjoint
/// outputs' tangents accumulated into the adjoints; false after errors.
bool buildHvp(Differentiator &D, HvpEntry &H,
              const clang::FunctionDecl *Pullback);

} // namespace grad

#endif
