//===- Replay.h - Primal code replayed as written ---------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Code around the math (logging, assert, printf, scratch allocation, an
/// early throw, integer bookkeeping) carries no derivative: the forward sweep
/// replays it as written. An expression is rebuilt by Sema's own
/// instantiation machinery (SubstExpr with no template arguments, every node
/// rebuilt), which handles any expression Clang can parse. The primal's local
/// variables are mapped to the function being built by pointing the
/// expression's DeclRefExprs at their counterparts for the duration of the
/// rebuild (Clang's instantiator leaves non-dependent locals alone).
/// A lambda that captures nothing (the predicate of a std::count_if) is
/// not rebuilt (its closure type is the one the algorithm was instantiated
/// with): the builder declares it once, as written, and the rebuilt
/// expression names that variable.
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_REPLAY_H
#define CLANG_GRAD_REPLAY_H

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include <functional>
#include <string>

namespace clang {
class Sema;
class Expr;
class LambdaExpr;
} // namespace clang

namespace grad {

class Replayer {
public:
  /// \p Map gives the builder's variable for a primal local, parameter or
  /// structured binding (null if it has none).
  using MapFn = std::function<clang::ValueDecl *(const clang::ValueDecl *)>;
  /// The builder's variable holding the capture-free lambda \p L, as a
  /// reference to it (null if it cannot declare one).
  using HoistFn = std::function<clang::Expr *(clang::LambdaExpr *L)>;
  Replayer(clang::Sema &S, MapFn Map, HoistFn Hoist = nullptr)
      : S(S), Map(std::move(Map)), Hoist(std::move(Hoist)) {}

  /// \p E rebuilt in the current function; null after a failure (then
  /// failedAt() and why() say what could not be replayed).
  clang::Expr *expr(const clang::Expr *E);
  /// \p E as a full expression whose value is discarded (temporaries are
  /// destroyed at its end).
  clang::Expr *discarded(const clang::Expr *E);
  /// The initializer of \p VD, ready for Sema::AddInitializerToDecl.
  clang::Expr *initializer(const clang::VarDecl *VD);

  /// `auto NAME = L;` in \p DC, for a HoistFn (null if Sema refuses it).
  static clang::VarDecl *lambdaVariable(clang::Sema &S, clang::DeclContext *DC,
                                        llvm::StringRef Name,
                                        clang::LambdaExpr *L);

  const clang::Stmt *failedAt() const { return FailedAt; }
  const std::string &why() const { return Why; }

private:
  template <class Fn> clang::Expr *withMapping(const clang::Expr *E, Fn F);

  clang::Sema &S;
  MapFn Map;
  HoistFn Hoist;
  const clang::Stmt *FailedAt = nullptr;
  std::string Why;
};

} // namespace grad

#endif
