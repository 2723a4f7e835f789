//===- Activity.h - Activity and write analysis -----------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Which variables carry derivatives (active: they depend on a
/// differentiated parameter) and which are written after their declaration
/// (their values must be recorded when the reverse sweep reads them).
/// A fixed point over the function's assignments; printable with
/// -fplugin-arg-grad-print-activity.
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_ACTIVITY_H
#define CLANG_GRAD_ACTIVITY_H

#include "Registry.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <string>

namespace grad {

/// For an access path (x, this, p.m, this->m, a[i], v[i].m, ...): the
/// variable it starts from, or null with \p IsThis set when it starts at
/// `this`; null otherwise. Element and member accesses only (\p Strict):
/// a plain variable reference is not a path then.
const clang::VarDecl *pathRoot(const clang::Expr *E, bool &IsThis,
                               bool Strict = false);
/// `std::get<I>(t)` on an lvalue tuple, pair or array, or null.
const clang::CallExpr *stdGet(const clang::Expr *E);
/// The base of a member or element access, or null.
const clang::Expr *pathBase(const clang::Expr *E);

class Activity {
public:
  Activity(const State &St) : St(St) {}

  /// Analyses \p FD's body, with the parameters in \p Wrt as inputs.
  void run(const clang::FunctionDecl *FD, const WrtMask &Wrt);

  bool isActive(const clang::VarDecl *VD) const { return Active.count(VD); }
  bool isWritten(const clang::VarDecl *VD) const { return Written.count(VD); }
  /// True if elements of the array, pointer or container \p VD are
  /// assigned somewhere in the function.
  bool isDataWritten(const clang::VarDecl *VD) const {
    return WrittenData.count(VD);
  }
  /// For member functions: does `this` carry derivatives / is it written.
  bool ThisActive = false, ThisWritten = false;
  /// True if \p E is a floating value that depends on an active variable.
  bool isActive(const clang::Expr *E);

  /// "active: x, y, t; written: t".
  std::string print() const;

private:
  bool compute(const clang::Expr *E) const;

  const State &St;
  llvm::DenseSet<const clang::VarDecl *> Active, Written, WrittenData;
  llvm::SmallVector<const clang::VarDecl *, 16> Order;
  llvm::DenseMap<const clang::Expr *, bool> Cache;
  bool Done = false;
};

} // namespace grad

#endif
