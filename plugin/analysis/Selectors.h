//===- Selectors.h - std::min, std::max and std::clamp as '?:' --*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// std::min, std::max and std::clamp of floating scalars return a reference
/// to one of their arguments; `(c ? a : b) = e` assigns one of two lvalues. Their conditional forms, as libstdc++ defines
/// them, let the analyses and builders treat a call like the `?:` it is:
/// a reference bound to the result aliases one of two storages, and a call
/// with a comparator selects a value by that comparator.
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_SELECTORS_H
#define CLANG_GRAD_SELECTORS_H

#include "clang/AST/ExprCXX.h"

namespace grad {

class Facts;

/// Which selector a call is (std::min, std::max, std::clamp of floating
/// scalars), and whether with a comparator (\p Comp).
enum class Selector { None, Min, Max, Clamp };
Selector selectorKind(const clang::CallExpr *CE, bool &Comp);
/// The comparator argument \p A as the object to call: a lambda or
/// function object, without the copy that passing it by value makes.
clang::Expr *comparatorObject(const clang::Expr *A);
/// A std::vector or std::array of floating elements.
bool contiguousFloating(clang::QualType T);
/// A std::vector of floating elements.
bool floatingVector(clang::QualType T);

/// Builds the forms the lookups below memoise, on their first use. The
/// analysis asks and lift builds: lift/StdForms.cpp installs them when the
/// plugin loads (unset, no call has a form).
struct FormBuilders {
  const clang::ConditionalOperator *(*Selector)(const Facts &,
                                                const clang::CallExpr *) =
      nullptr;
  const clang::IfStmt *(*ConditionalAssign)(const Facts &,
                                            const clang::BinaryOperator *) =
      nullptr;
  const clang::CallExpr *(*Pointer)(const Facts &,
                                    const clang::CallExpr *) = nullptr;
  const clang::Expr *(*Deref)(const Facts &,
                              const clang::CXXOperatorCallExpr *) = nullptr;
  const clang::Expr *(*Functional)(const Facts &,
                                   const clang::CXXOperatorCallExpr *) =
      nullptr;
};
extern FormBuilders StdFormBuilders;

/// The conditional form of \p E if it is a call of std::min, std::max
/// (two operands) or std::clamp on floating scalars, with or without a
/// comparator, whose operands are reevaluable: `b < a ? b : a`,
/// `a < b ? b : a`, `v < lo ? lo : hi < v ? hi : v`, or the same with
/// `comp(b, a)`, `comp(a, b)`, `comp(v, lo)`, `comp(hi, v)` deciding.
/// Built once per call (operands shared with the call); null otherwise.
const clang::ConditionalOperator *selectorForm(const Facts &St,
                                               const clang::Expr *E);

/// True if \p CO is (part of) a selector form: its conditions only compare
/// or call a comparator, which the standard requires not to change
/// anything, so they may be evaluated again.
bool isSelectorForm(const Facts &St, const clang::ConditionalOperator *CO);

/// True if \p E is a selector call with a comparator (no derivative rule
/// applies: its form decides).
bool hasComparator(const Facts &St, const clang::Expr *E);

/// True if \p E may be evaluated again, or in another order with another
/// such expression: it assigns nothing and calls nothing that may write
/// memory or answer differently (a function with a non-const pointer or
/// reference parameter, a non-const member function, a call through a
/// pointer, a function without a visible body other than the `<cmath>`
/// ones: `rand()`). Other calls (a comparator, `std::cos`, a function of
/// values defined in the file) are evaluated again.
bool reevaluable(const clang::Expr *E, const clang::ASTContext &Ctx);

/// The statement `(c ? a : b) op= e` (any assignment operator, nested
/// `?:` too) as `if (c) a op= e; else b op= e;`, built once, when both
/// `c` and `e` are reevaluable (C++ evaluates `e` first; here `c` is);
/// null otherwise.
const clang::IfStmt *conditionalAssignment(const Facts &St,
                                           const clang::Expr *E);

/// A call of a standard algorithm over iterators of a std::vector or
/// std::array of floating elements (`std::fill(v.begin(), v.end(), x)`,
/// `std::accumulate(a.cbegin(), a.cend(), 0.0)`, `v.begin() + k`) as the
/// same call over pointers into their elements (`v.data()`, `v.data() +
/// v.size()`, `v.data() + k`), whose body the plugin differentiates; and
/// `a.fill(x)` on a std::array as `std::fill(a.data(), a.data() +
/// a.size(), x)`. Only calls whose result is `void` or a number (an
/// iterator result would change type). Copies of floating elements
/// (`std::copy`, `std::copy_n`, `memcpy`, `memmove`, `memset` to zero) are
/// calls of the runtime's element loops (`grad::detail::copy_elements`,
/// ...); a copy into an iterator and a memcpy have one only where their
/// value is unused (State::StatementCalls, noted for the body first).
/// Built once per call; null otherwise.
const clang::CallExpr *pointerForm(const Facts &St, const clang::Expr *E);

/// Notes in St.DerefForms, for each dereference in \p Body of an
/// algorithm's iterator result over iterators of a std::vector or
/// std::array of floating elements (`*std::max_element(v.begin(),
/// v.end())`, `*std::min_element(a.begin() + 1, a.end(), comp)`), the
/// dereference of the same call over pointers into the elements, whose
/// pointer result the plugin follows into its argument; likewise the index
/// of the element found (`std::max_element(v.begin(), v.end()) -
/// v.begin()`), a difference of pointers.
void noteDerefForms(const Facts &St, const clang::Stmt *Body);

} // namespace grad

#endif
