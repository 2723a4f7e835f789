//===- ForwardAbi.h - Signatures and types of forward mode ------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The names, signatures and tangent types of the forward-mode derivatives
/// (pushforwards, Hessian-vector products, vector modes): what the driver
/// declares them with and the forward builder calls them by.
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_LIFT_FORWARDABI_H
#define CLANG_GRAD_LIFT_FORWARDABI_H

#include "ast/Abi.h"

#include "llvm/ADT/StringSet.h"

namespace grad {

/// "f_pushforward" (operators and other names as for pullbacks).
std::string pushforwardName(const clang::FunctionDecl *Primal);

/// pullbackName with its `_pullback` replaced by \p Suffix.
std::string derivativeName(const clang::FunctionDecl *Primal,
                           llvm::StringRef Suffix);
/// The primal's parameters, first in every derivative's signature (their
/// names in \p Used).
void addPrimalParams(const clang::FunctionDecl *Primal,
                     PullbackSignature &Sig, llvm::StringSet<> &Used);

/// "f_hvp".
std::string hvpName(const clang::FunctionDecl *Primal);

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

} // namespace grad

#endif
