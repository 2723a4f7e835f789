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
/// The lambda the local \p VD is initialised with: `auto f = [..] {..}`,
/// or `std::function<R(A...)> f = [..](A...) {..}` with the lambda's call
/// signature and no use of f but calls `f(...)`; else null.
const clang::LambdaExpr *initLambda(const clang::VarDecl *VD);
const clang::FunctionDecl *findFunction(const clang::Expr *E);

/// The first `*p` or `&e` in \p St (outside nested lambdas), or null.
const clang::Expr *pointerOperation(const clang::Stmt *St);

/// The class whose `this` the lambda of \p Info captures, or null.
clang::QualType capturedThisType(const LambdaInfo &Info);

/// Fills Kind, Reason and Caps.
void classify(LambdaInfo &Info);
/// Gives \p Fn (declared with the parameters of \p Info's function, then
/// one per capture) the body of that function, over dual numbers of type
/// \p Dual when it is not null; false after reporting, at the construct and
/// naming \p Primal, what cannot be lifted.
bool cloneLifted(clang::Sema &S, const LambdaInfo &Info,
                 clang::FunctionDecl *Fn, clang::QualType Dual,
                 const clang::FunctionDecl *Primal);

/// What \p L captures by copy that the function may change before a call
/// (numbers and objects, not `const` ones, also through a reference), each
/// with the capture's initializer: a call must read the value the closure
/// holds, so the derivative keeps its own copy made at the lambda.
llvm::SmallVector<std::pair<const clang::VarDecl *, const clang::Expr *>, 2>
copiedCaptures(const clang::LambdaExpr *L);
/// A local `T NAME = INIT;` standing for the closure's copy of \p V (made
/// where the lambda is): the derivative declares it there, differentiates
/// it like a local of the function, and passes it to the lifted calls.
clang::VarDecl *captureCopy(clang::ASTContext &Ctx, const clang::VarDecl *V,
                            const clang::Expr *Init,
                            const clang::LambdaExpr *L, llvm::StringRef Name);
/// Why a call of \p L (called as \p Callee, named \p Lambda: "lambda
/// 'f'") cannot be lifted, or empty: it captures an array by value, or
/// something copiedCaptures lists that the derivative has no copy of
/// (\p Copied: a lambda made where no copy is declared, and not called
/// there).
std::string copiedCaptureProblem(const clang::LambdaExpr *L,
                                 const clang::Expr *Callee,
                                 llvm::ArrayRef<const clang::VarDecl *> Copied,
                                 const std::string &Lambda);

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
