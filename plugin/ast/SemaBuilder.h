//===- SemaBuilder.h - Building AST nodes through Sema ----------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Thin helpers that build every generated node through Sema, so types,
/// conversions and overloads are checked as for user code. A failed build
/// returns null and marks the builder failed (Sema has diagnosed it);
/// helpers accept null operands and propagate them.
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_SEMABUILDER_H
#define CLANG_GRAD_SEMABUILDER_H

#include "clang/AST/Expr.h"
#include "clang/Basic/TokenKinds.h"
#include "clang/AST/OperationKinds.h"
#include "clang/Sema/Ownership.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/ArrayRef.h"

namespace clang {
class Sema;
class CXXScopeSpec;
class LookupResult;
} // namespace clang

namespace grad {

class SemaBuilder {
public:
  SemaBuilder(clang::Sema &S, clang::SourceLocation Loc);

  clang::Sema &S;
  clang::ASTContext &Ctx;
  clang::SourceLocation Loc;
  bool Failed = false;

  clang::Expr *ref(clang::ValueDecl *D);
  /// A reference to a function, namespace-qualified so that printed code
  /// finds it from anywhere.
  clang::Expr *funcRef(clang::FunctionDecl *FD);
  clang::Expr *binop(clang::BinaryOperatorKind Op, clang::Expr *L,
                     clang::Expr *R);
  clang::Expr *unop(clang::UnaryOperatorKind Op, clang::Expr *E);
  clang::Expr *paren(clang::Expr *E);
  clang::Expr *floatLit(llvm::StringRef Value, clang::QualType T);
  clang::Expr *floatLit(double Value, clang::QualType T);
  clang::Expr *intLit(int64_t Value, clang::QualType T);
  clang::Expr *boolLit(bool Value);
  clang::Expr *cond(clang::Expr *C, clang::Expr *T, clang::Expr *F);
  clang::Expr *call(clang::Expr *Fn, llvm::ArrayRef<clang::Expr *> Args);
  /// Calls `std::Name` (falling back to `::Name`) with overload resolution.
  clang::Expr *callStd(llvm::StringRef Name,
                       llvm::ArrayRef<clang::Expr *> Args,
                       llvm::ArrayRef<clang::TemplateArgumentLoc> TArgs = {});
  /// The looked-up name \p R qualified by \p SS, with \p TArgs if any.
  clang::Expr *nameRef(clang::CXXScopeSpec &SS, clang::LookupResult &R,
                       llvm::ArrayRef<clang::TemplateArgumentLoc> TArgs);
  /// \p A as written in source (a literal for a value, a type for a type).
  clang::TemplateArgumentLoc argLoc(const clang::TemplateArgument &A);
  clang::Expr *staticCast(clang::QualType T, clang::Expr *E);
  clang::Expr *reinterpretCast(clang::QualType T, clang::Expr *E);
  clang::Expr *constCast(clang::QualType T, clang::Expr *E);
  /// `{e1, e2, ...}`; null (and Failed) when an element is null, which an
  /// earlier error left behind (Sema would crash on it).
  clang::Expr *initList(llvm::ArrayRef<clang::Expr *> Elems);
  clang::Expr *addrOf(clang::Expr *E);
  clang::Expr *deref(clang::Expr *E);
  clang::Expr *zero(clang::QualType T);

  /// A local variable; \p Direct initialises it as `T Name(Init)`.
  clang::VarDecl *var(clang::DeclContext *DC, llvm::StringRef Name,
                      clang::QualType T, clang::Expr *Init,
                      bool Direct = false);
  clang::Stmt *declStmt(clang::VarDecl *VD);
  /// `[[clang::noinline]] St`: calls in \p St are not inlined.
  clang::Stmt *noInline(clang::Stmt *St);
  /// `return E;` in the function being built.
  clang::Stmt *returnStmt(clang::Expr *E);
  clang::Stmt *assign(clang::Expr *L, clang::Expr *R);
  clang::Stmt *addAssign(clang::Expr *L, clang::Expr *R);
  clang::Stmt *block(llvm::ArrayRef<clang::Stmt *> Stmts);
  clang::Stmt *ifStmt(clang::Expr *C, clang::Stmt *Then, clang::Stmt *Else);

  clang::Expr *subscript(clang::Expr *Base, clang::Expr *Idx);
  /// Base.Name(Args...) (or Base->Name when \p Arrow).
  clang::Expr *memberCall(clang::Expr *Base, llvm::StringRef Name,
                          llvm::ArrayRef<clang::Expr *> Args,
                          bool Arrow = false);
  clang::Expr *memberCall(clang::Expr *Base, clang::DeclarationName Name,
                          llvm::ArrayRef<clang::Expr *> Args,
                          bool Arrow = false);
  /// `::grad::Name<T>` instantiated and complete, or null when the runtime
  /// header does not declare it.
  clang::QualType runtimeType(llvm::StringRef Name, clang::QualType T);
  /// `::grad::Name<Args...>` for template arguments of any kind
  /// (`::grad::detail::Name<Args...>` if \p Detail).
  clang::QualType
  runtimeType(llvm::StringRef Name,
              llvm::ArrayRef<clang::TemplateArgumentLoc> Args,
              bool Detail = false);
  /// The class `::grad::detail::Name` (not a template), or null.
  clang::QualType runtimeDetailType(llvm::StringRef Name);
  clang::TemplateArgumentLoc typeArg(clang::QualType T);
  clang::TemplateArgumentLoc exprArg(clang::Expr *E);
  /// True if the runtime declares `::grad::detail::Name`.
  bool hasRuntime(llvm::StringRef Name);
  /// Calls `::grad::detail::Name<TArgs...>(Args...)` (or ::grad::Name when
  /// \p Detail is false), deducing the remaining template arguments.
  /// A string literal (an array of const char).
  clang::Expr *str(llvm::StringRef Text);
  clang::Expr *callRuntime(llvm::StringRef Name,
                           llvm::ArrayRef<clang::TemplateArgumentLoc> TArgs,
                           llvm::ArrayRef<clang::Expr *> Args,
                           bool Detail = true);
  /// Calls `::grad::Name(Args...)` with overload resolution.
  clang::Expr *callGrad(llvm::StringRef Name,
                        llvm::ArrayRef<clang::Expr *> Args);
  clang::Expr *member(clang::Expr *Base, llvm::StringRef Name,
                      bool Arrow = false);
  clang::NamespaceDecl *gradNamespace(bool Detail);
  clang::Expr *condition(clang::Expr *E);
  clang::Stmt *forStmt(clang::Stmt *Init, clang::Expr *Cond,
                       clang::Expr *Inc, clang::Stmt *Body);
  clang::Stmt *whileStmt(clang::Expr *Cond, clang::Stmt *Body);
  clang::Stmt *doStmt(clang::Stmt *Body, clang::Expr *Cond);
  clang::Stmt *breakStmt();
  clang::Stmt *continueStmt();
  clang::Stmt *gotoStmt(clang::LabelDecl *L);
  clang::LabelDecl *label(clang::DeclContext *DC, llvm::StringRef Name);
  clang::Stmt *labelStmt(clang::LabelDecl *L, clang::Stmt *Sub);
  clang::Expr *emptyInitList();
  /// `new T(Args...)`, or `new T{...}` when \p Braces (then \p Args is
  /// that one init list), or `new T` (no \p Args); `::new` with \p Global.
  clang::Expr *newObject(clang::TypeSourceInfo *T,
                         llvm::ArrayRef<clang::Expr *> Args, bool Braces,
                         bool Global);
  /// `T{Args...}` (\p List) or `T(Args...)`; \p Args may be one ready
  /// init list when \p List.
  clang::Expr *construct(clang::QualType T, llvm::ArrayRef<clang::Expr *> Args,
                         bool List);
  /// True if printing \p Child as operand of \p Parent needs parentheses.
  static bool needsParens(const clang::Expr *Child, int ParentPrec,
                          bool IsRHS);

private:
  clang::Expr *check(clang::ExprResult R);
  /// `KIND_cast<T>(E)` (static_cast, reinterpret_cast, const_cast).
  clang::Expr *namedCast(clang::tok::TokenKind Kind, clang::QualType T,
                         clang::Expr *E);
  clang::Expr *wrapOperand(clang::Expr *E, int ParentPrec, bool IsRHS);
  /// Each lvalue in \p Args for a `T &&` parameter of the function \p Fn
  /// names: `static_cast<T &&>(a)`.
  void bindRValueParams(clang::Expr *Fn,
                        llvm::SmallVectorImpl<clang::Expr *> &Args);
};

} // namespace grad

#endif
