//===- CallableViews.h - Lambdas passed to functions, as captures -*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A lambda passed to a function template (`rk4(rhs, y, t, h)` with
/// `template <class F> void rk4(F f, ...)`) makes Clang instantiate the
/// callee for the lambda's closure type, so the callee's `f(...)` can only
/// ever run that lambda. The reverse builder differentiates such a call as
/// a call of a *view* of the callee: a function (outside the translation
/// unit, never emitted) with the callee's name and parameters, where each
/// closure parameter is replaced by one parameter per capture of its
/// lambda, typed as the lambda's lifted function takes them (by-reference
/// captures by reference, copies by value). Inside the view the body's
/// `f(a, b)` calls the lifted lambda with the capture parameters; the
/// caller's `rk4(rhs, y, t, h)` calls the view with the captured variables.
/// The captures then get adjoints as parameters do.
///
/// CallablePresentation applies both rewrites to a definition while a
/// derivative is built from it (the statements are the user's, pointed at
/// the replacement calls for the lifetime of the object and restored
/// after), like EntryCopies. A call the rewrite cannot serve (a lambda
/// capturing `this`, a copy of a variable the function changes, a callee
/// doing more with the callable than calling it or passing it on) keeps
/// its lambda, and the builder refuses it with the reason.
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_CALLABLEVIEWS_H
#define CLANG_GRAD_CALLABLEVIEWS_H

#include "analysis/Callables.h"

#include "clang/AST/Decl.h"
#include "llvm/ADT/SmallVector.h"

#include <string>

namespace clang {
class LambdaExpr;
class Stmt;
} // namespace clang

namespace grad {

class Differentiator;
struct PullbackEntry;
struct PushforwardEntry;

/// Whose derivative is being built: the primal, and its pullback or
/// pushforward (for the notes saying where it was requested).
struct Requester {
  const clang::FunctionDecl *Primal = nullptr;
  const PullbackEntry *Pullback = nullptr;
  const PushforwardEntry *Pushforward = nullptr;
};

/// What a callable parameter holds at a call: a lambda (written in the
/// call, a local initialised with one, or a closure of the view being
/// built), or a function named there (`sq`, `&sq`), whether the parameter
/// is of the lambda's closure type, a function pointer or reference, or a
/// `std::function`.
struct Binding {
  const clang::LambdaExpr *Lambda = nullptr;
  const clang::FunctionDecl *Fn = nullptr;
  explicit operator bool() const { return Lambda || Fn; }
  bool operator==(const Binding &O) const {
    return Lambda == O.Lambda && Fn == O.Fn;
  }
};

/// A callee specialised on the callables its callable parameters hold.
struct CallableView {
  struct Closure {
    const clang::ParmVarDecl *Param = nullptr;
    const clang::LambdaExpr *Lambda = nullptr;
    /// Null for a function.
    const LambdaInfo *Info = nullptr;
    /// The lifted lambda, or the function.
    clang::FunctionDecl *Lifted = nullptr;
    /// The view's parameters standing for the captures, in the order of
    /// the lifted function's trailing parameters (a variable two closures
    /// capture has one).
    llvm::SmallVector<clang::ParmVarDecl *, 4> Caps;
  };
  const clang::FunctionDecl *Callee = nullptr;
  /// One per parameter of the callee (empty for the others).
  llvm::SmallVector<Binding, 4> Bindings;
  clang::FunctionDecl *View = nullptr;
  /// The callee's parameters, cloned: the view's own, closures included
  /// (these are replaced by their captures once the body is rewritten).
  llvm::SmallVector<clang::ParmVarDecl *, 6> Clones;
  llvm::SmallVector<Closure, 1> Closures;
  /// The view's parameters: the clones that hold no closure, and in place
  /// of each closure the captures not taken before.
  llvm::SmallVector<clang::ParmVarDecl *, 8> Params;
  /// True while the view's body is rewritten.
  bool Building = false;
  /// Why the callee cannot be viewed; empty when it can.
  std::string Refusal;

  const Closure *closureOf(const clang::ValueDecl *P) const {
    for (const Closure &C : Closures)
      if (C.Param == P)
        return &C;
    return nullptr;
  }
};

class CallablePresentation {
public:
  CallablePresentation(Differentiator &D, const clang::FunctionDecl *Def,
                       const Requester &Caller);
  /// Restores the user's statements.
  ~CallablePresentation();
  CallablePresentation(const CallablePresentation &) = delete;
  CallablePresentation &operator=(const CallablePresentation &) = delete;

private:
  llvm::SmallVector<std::pair<clang::Stmt **, clang::Stmt *>, 8> Replaced;
};

} // namespace grad

#endif
