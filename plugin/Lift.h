//===- Lift.h - Lambdas passed to map and broadcast -------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Classifies the callable passed to grad::map / grad::broadcast from its
/// AST and lifts it into ordinary functions the pullback can call:
/// - forward: capture-free and pure (writes only its locals, reads no
///   mutable global, calls only functions with derivative rules). Lowered
///   with dual numbers: a tangent function gives value and all partials in
///   one pass.
/// - reverse: captures differentiable state, reads mutable globals or calls
///   other functions. The element function (captures as trailing
///   parameters) is differentiated like any callee; its pullback also
///   accumulates the captures' adjoints.
/// - stateful: writes captured or global state. Reverse lowering that
///   replays elements in order and restores the state each saw.
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_LIFT_H
#define CLANG_GRAD_LIFT_H

#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <string>

namespace grad {

enum class Lowering { Forward, Reverse, Stateful };

struct LiftedCapture {
  clang::VarDecl *Var = nullptr; ///< null for `this`
  bool ByRef = false;
  bool Written = false;
  /// The lambda captures `this`: the lifted function takes the object as
  /// `const C &self` (members read as `self.m`).
  bool This = false;
  std::string name() const {
    return This ? "this" : Var->getNameAsString();
  }
};

struct LambdaInfo {
  const clang::LambdaExpr *Lambda = nullptr;
  /// The call operator, or the function passed by name.
  const clang::FunctionDecl *Callee = nullptr;
  Lowering Kind = Lowering::Forward;
  std::string Reason;
  llvm::SmallVector<LiftedCapture, 4> Caps;
  /// The element function: Callee's parameters, then the captures.
  clang::FunctionDecl *Lifted = nullptr;
  /// Tangent functions by number of seeded slots.
  llvm::DenseMap<unsigned, clang::FunctionDecl *> Tangents;
  bool Failed = false;
};

/// The callable \p E refers to: a lambda expression (possibly through a
/// local variable initialised with one) or a function name; else null.
const clang::LambdaExpr *findLambda(const clang::Expr *E);
const clang::FunctionDecl *findFunction(const clang::Expr *E);

/// The class whose `this` the lambda of \p Info captures, or null.
clang::QualType capturedThisType(const LambdaInfo &Info);

/// Fills Kind, Reason and Caps.
void classify(LambdaInfo &Info);

/// A variable \p L captures by copy that the function \p F may assign
/// after the closure is made and before the call \p Call (a write between
/// them, or in a loop around the call that does not hold the lambda), or
/// null. The lifted call reads the variable at the call, the closure holds
/// its value at the lambda.
const clang::VarDecl *copyChangedBeforeCall(const clang::FunctionDecl *F,
                                            const clang::LambdaExpr *L,
                                            const clang::CallExpr *Call);
/// The error for such a call of \p Lambda ("lambda 'f'").
std::string copyChangedName(const std::string &Lambda,
                            const clang::VarDecl *V);

/// True if \p St contains a lambda expression (lifted for map/broadcast,
/// not replayed).
bool containsLambda(const clang::Stmt *St);

/// "map", "broadcast", "sum", "dot" or "matmul" for calls to the runtime's
/// primitives `grad::NAME`, else empty (Map.cpp).
llvm::StringRef runtimePrimitive(const clang::CallExpr *CE);

/// The first call to grad::map or grad::broadcast in the body of \p FD or
/// of a function it calls (with a body, outside namespaces std and grad;
/// lambdas included), or null (Map.cpp).
const clang::CallExpr *mapCallReached(const clang::FunctionDecl *FD);

} // namespace grad

#endif
