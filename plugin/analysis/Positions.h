//===- Positions.h - Iterators that only mark a position --------*- C++ -*-===//
//
// An iterator local over floating values that the function never reads or
// writes through: `auto it = std::lower_bound(ts.begin(), ts.end(), t);
// long i = it - ts.begin();`. Such an iterator is an index in disguise: it
// carries no derivative, and the derivative code runs it as written.
//
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_ANALYSIS_POSITIONS_H
#define CLANG_GRAD_ANALYSIS_POSITIONS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

namespace grad {

/// True if \p VD is a local iterator over floating values (Paths.h
/// isFloatingIterator; not a reference) and every use of it only moves it
/// or measures where it stands: compared with or subtracted from another
/// iterator, passed to std::distance, stepped (`++it`, `it += k`,
/// std::advance) or assigned a new position. A dereference, a subscript,
/// `it->`, a copy into another variable or any other call makes it more.
bool positionOnly(const clang::VarDecl *VD);

/// True if \p CE is one of those uses of such a local: it moves the local
/// (`it -= 1`, `it = std::prev(it, 2)`, `++it`, `std::advance(it, k)`),
/// compares or measures it (`it == v.end()`, `it - v.begin()`,
/// std::distance) or gives a position from it (`it + 1`, std::next). It
/// writes nothing but the position and gives no derivative: it runs as
/// written.
bool onPosition(const clang::CallExpr *CE);

/// `it != v.end()` in C++20, `(it <=> e) < 0`: an operator rewritten by
/// Sema whose operand is such a local (or such a use of one).
bool rewrittenOnPosition(const clang::Expr *E);

} // namespace grad

#endif
