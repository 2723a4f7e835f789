//===- Tidy.h - Removing what generated code never reads --------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The builders emit statements per construct; some results are not read in
/// the end (a reverse loop's copy of the loop variable the reverse body does
/// not use, a temporary whose only reader was folded away, a local of the
/// primal whose value only the skipped return needed). tidy() removes them
/// so that the code grad-dump prints compiles without warnings under
/// -Wall -Wextra (the printer marks the parameters and locals a body never
/// reads [[maybe_unused]]). It also makes the tree print as the C++ it is:
/// parentheses where an operand binds less tightly than its place needs,
/// `static_cast<void>` on values kept only for their effects, and braced
/// lists spelled without the default member initializers they hold.
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_TIDY_H
#define CLANG_GRAD_TIDY_H

namespace clang {
class FunctionDecl;
}

namespace grad {

/// Removes, to a fixed point, the local scalar variables of \p FD's body that
/// are only ever written (their declarations and the statements that only
/// write them; side effects of initialisers and right operands are kept);
/// then, with \p Sums, hoistAccumulators().
void tidy(clang::FunctionDecl *FD, bool Sums = true);

/// Keeps the sum a loop adds into one element of a local adjoint array in a
/// local variable, stored once after the loop (Accumulators.cpp).
void hoistAccumulators(clang::FunctionDecl *FD);

} // namespace grad

#endif
