//===- Requests.h - What the builders ask of the driver ---------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The interface through which the derivative builders (reverse/,
/// forward/) ask the driver for what lies outside the function they build:
/// the derivatives of callees (declared and queued for definition), the
/// callables of map and broadcast lifted into functions, notes and
/// one-time errors, the options. The driver's Differentiator implements it;
/// the builders never see the driver's work list or tables.
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_LIFT_REQUESTS_H
#define CLANG_GRAD_LIFT_REQUESTS_H

#include "analysis/Callables.h"
#include "ast/Abi.h"
#include "lift/Options.h"

#include <memory>
#include <string>
#include <vector>

namespace clang {
class Sema;
} // namespace clang

namespace grad {

class DerivativeRequests {
public:
  virtual ~DerivativeRequests() = default;

  virtual clang::Sema &sema() = 0;
  virtual const Options &options() const = 0;

  /// The pullback to call for \p Callee at \p Loc (while building
  /// \p Caller); null after reporting why there is none.
  /// \p Only restricts the adjoints to some parameters (default: all).
  virtual PullbackEntry *calleePullback(const clang::FunctionDecl *Callee,
                                        clang::SourceLocation Loc,
                                        const PullbackEntry &Caller,
                                        bool Queue = true,
                                        const WrtMask *Only = nullptr) = 0;
  /// The pushforward to call for \p Callee at \p Loc while building
  /// \p Requester's (declared and queued), with \p Lanes directions (the
  /// caller's); \p Linear for a vector pullback's callees
  /// (PushforwardEntry::Linear); null with \p Why.
  virtual PushforwardEntry *
  calleePushforward(const clang::FunctionDecl *Callee,
                    clang::SourceLocation Loc,
                    const clang::FunctionDecl *Requester, std::string &Why,
                    const WrtMask *Drop = nullptr,
                    const WrtMask *Only = nullptr, unsigned Lanes = 0,
                    bool Linear = false) = 0;
  /// Declares and queues \p E's halves (\p OtherUnits: only for callers in
  /// other translation units).
  virtual void ensureHalves(PullbackEntry &E, bool OtherUnits = false) = 0;
  /// Marks \p E's pullback as needed and queues its definition.
  virtual void queue(PullbackEntry *E) = 0;
  /// True if calls of \p E's function use its split derivative (declared
  /// and queued then).
  virtual bool useSplit(PullbackEntry &E, clang::SourceLocation Loc) = 0;
  /// A variant of \p Base whose halves re-read the parameters in \p Stable.
  virtual PullbackEntry *stableVariant(PullbackEntry &Base,
                                       const WrtMask &Stable) = 0;
  /// Every pullback entry of the translation unit, in creation order.
  virtual const std::vector<std::unique_ptr<PullbackEntry>> &entries() = 0;
  /// The user-declared derivative of \p Primal named and typed as \p Sig
  /// (a custom pullback or pushforward), or null.
  virtual clang::FunctionDecl *userDerivative(const clang::FunctionDecl *Primal,
                                              const PullbackSignature &Sig) = 0;
  /// True for a function the plugin generated (not the user's).
  virtual bool isGenerated(const clang::FunctionDecl *FD) = 0;

  /// The "requested here" note for a failing pullback.
  virtual void noteRequest(const PullbackEntry &E) = 0;
  /// The same for a failing pushforward: the calls that led to it, up to
  /// the user's [[grad::forward]] function.
  virtual void noteForwardRequest(const PushforwardEntry &E) = 0;
  /// True the first time an error of \p Primal's derivative is reported at
  /// \p Loc (its variants and halves are built separately).
  virtual bool firstErrorAt(clang::SourceLocation Loc,
                            const clang::FunctionDecl *Primal) = 0;
  /// Reports that the runtime is missing (once per translation unit).
  virtual void needRuntime(clang::SourceLocation Loc,
                           const PullbackEntry &E) = 0;

  /// The classified callable passed to map/broadcast or called; null after
  /// an error. \p Op: the call operator a call of a lambda runs (of a
  /// generic lambda, the specialization for the call's argument types);
  /// null for the lambda's own. \p Caller null for a derivative that is no
  /// pullback (no request note).
  virtual LambdaInfo *lambdaInfo(const clang::Expr *Callable,
                                 const clang::FunctionDecl *Primal,
                                 const PullbackEntry *Caller,
                                 const clang::FunctionDecl *Op = nullptr) = 0;
  LambdaInfo *lambdaInfo(const clang::Expr *Callable,
                         const PullbackEntry &Caller,
                         const clang::FunctionDecl *Op = nullptr) {
    return lambdaInfo(Callable, Caller.Primal, &Caller, Op);
  }
  /// The element function of \p Info (Slots == 0) or its tangent with
  /// Slots dual directions.
  virtual clang::FunctionDecl *liftFunction(LambdaInfo &Info, unsigned Slots,
                                            const clang::FunctionDecl *Primal,
                                            const PullbackEntry *Caller) = 0;
  clang::FunctionDecl *liftFunction(LambdaInfo &Info, unsigned Slots,
                                    const PullbackEntry &Caller) {
    return liftFunction(Info, Slots, Caller.Primal, &Caller);
  }
};

} // namespace grad

#endif
