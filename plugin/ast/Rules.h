//===- Rules.h - Derivative rules for <cmath> functions ---------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The plugin's expansion of runtime/include/grad/rules.def. Each row's
/// partials are C++ expressions over a tiny builder type, so the same text
/// the runtime evaluates builds AST here.
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_RULES_H
#define CLANG_GRAD_RULES_H

#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"

namespace clang {
class FunctionDecl;
}

namespace grad {

class SemaBuilder;

/// Which inputs a partial reads: bit I for argument I, bit 3 for the result.
enum : unsigned { UsesResult = 1u << 3 };

struct Rule {
  const char *Name;
  unsigned Arity;
  /// Inputs read by the partial for each argument.
  unsigned Uses[3];
  /// A unary row with a partial over x alone (GRAD_RULE1X): the runtime's
  /// detail::NAME_der computes a dual's derivative part without its value.
  bool HasPartialOverX = false;
};

/// The rule for a call to \p Callee (std::sin, sinf, ::sin, __builtin_sin,
/// std::min<double>...), or null.
const Rule *findRule(const clang::FunctionDecl *Callee);

/// The rules.def row GRAD_COMPLEX<Arity>(Name, ...) for the <complex>
/// overload of Name, or null.
const Rule *findComplexRule(llvm::StringRef Name, unsigned Arity);

/// Builds d(result)/d(argument \p Arg) of \p R. \p Args are the argument
/// values, \p Result the result value (may be null if the partial does not
/// read it), \p T the type of constants.
/// True for an active call of the sin or cos row on float, double or long
/// double: derivatives compute it with the runtime's sin_cos, which gives
/// both values from one call (the partial is the other one).
bool isSinCosCall(const clang::CallExpr *CE, const Rule &R);

clang::Expr *buildPartial(SemaBuilder &B, const Rule &R, unsigned Arg,
                          llvm::ArrayRef<clang::Expr *> Args,
                          clang::Expr *Result, clang::QualType T);

/// Every rule, for printing and tests.
llvm::ArrayRef<Rule> allRules();

} // namespace grad

#endif
