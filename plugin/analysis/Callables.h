//===- Callables.h - Which callable an expression names ---------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The callables an expression names (lambdas, also through locals and
/// std::function, and functions), how the callable of a map or broadcast
/// is lowered (lift/Lift.h explains the three lowerings), what its
/// captures are, and which calls are the runtime's primitives.
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_ANALYSIS_CALLABLES_H
#define CLANG_GRAD_ANALYSIS_CALLABLES_H

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
/// True if the local \p VD holds a lambda that captures nothing and is
/// named other than in calls `VD(...)` (given to std::count_if): the
/// derivatives declare it as written, besides lifting its calls.
bool captureFreeObject(const clang::VarDecl *VD);
/// "lambda passed to 'F' (why)", or "lambda 'f' passed to ..." for a local
/// lambda \p A given to \p FD: the refusal of a lambda passed where it
/// is not differentiated (\p Why with its parentheses, or empty).
std::string lambdaPassed(const clang::ASTContext &Ctx, const clang::Expr *A,
                         const clang::FunctionDecl *FD, llvm::StringRef Why);
const clang::FunctionDecl *findFunction(const clang::Expr *E);

/// For a call of a std::function's call operator that reached a builder
/// (one bound to a lambda in this function and then only called is lifted
/// before: Lift.h), the refusal naming the object, as in "call of the
/// std::function 'g', a parameter whose target the plugin cannot see
/// here (...)";
/// empty for any other call. A parameter's target is bound by the caller.
std::string unseenTarget(const clang::ASTContext &Ctx,
                         const clang::CallExpr *CE);

/// The first `*p` or `&e` in \p St (outside nested lambdas), or null.
const clang::Expr *pointerOperation(const clang::Stmt *St);

/// The class whose `this` the lambda of \p Info captures, or null.
clang::QualType capturedThisType(const LambdaInfo &Info);

/// Fills Kind, Reason and Caps.
void classify(LambdaInfo &Info);

/// What \p L captures by copy that the function may change before a call
/// (numbers and objects, not `const` ones, also through a reference), each
/// with the capture's initializer: a call must read the value the closure
/// holds, so the derivative keeps its own copy made at the lambda.
llvm::SmallVector<std::pair<const clang::VarDecl *, const clang::Expr *>, 2>
copiedCaptures(const clang::LambdaExpr *L);
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
/// primitives `grad::NAME`, else empty.
llvm::StringRef runtimePrimitive(const clang::CallExpr *CE);

/// The first call to grad::map or grad::broadcast in the body of \p FD or
/// of a function it calls (with a body, outside namespaces std and grad;
/// lambdas included), or null.
const clang::CallExpr *mapCallReached(const clang::FunctionDecl *FD);

} // namespace grad

#endif
