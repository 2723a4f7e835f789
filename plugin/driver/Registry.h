//===- Registry.h - The driver's per-TU tables ------------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The per-translation-unit tables shared by the attribute handlers and the
/// AST consumer: which declarations are `[[grad]]`, and the memo tables of
/// the derivatives declared so far, and the functions that declare them.
/// The ABI they follow is ast/Abi.h; the analysis caches are
/// analysis/Facts.h (State extends both).
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_REGISTRY_H
#define CLANG_GRAD_REGISTRY_H

#include "analysis/Facts.h"
#include "ast/Abi.h"

namespace clang {
class Scope;
} // namespace clang

namespace grad {

/// The driver's per-translation-unit state (the same object as
/// AstFacts::get and Facts::get of its ASTContext).
class State : public Facts {
public:
  static State &get(clang::ASTContext &Ctx);
  static void release(clang::ASTContext &Ctx);

  /// The pushforwards by canonical primal.
  llvm::DenseMap<const clang::FunctionDecl *,
                 std::vector<PushforwardEntry *>>
      Pushforwards;
  std::vector<std::unique_ptr<PushforwardEntry>> ForwardEntries;
  /// Hessian-vector products by canonical primal.
  llvm::DenseMap<const clang::FunctionDecl *, std::unique_ptr<HvpEntry>>
      Hvps;
  /// Vector pullbacks by canonical primal.
  llvm::DenseMap<const clang::FunctionDecl *,
                 std::unique_ptr<VectorPullbackEntry>>
      VectorPullbacks;
  /// Attribute locations already diagnosed (an attribute on a member
  /// function is handled more than once).
  llvm::DenseSet<unsigned> ReportedAttrs;
  /// Pullbacks by canonical primal.
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<PullbackEntry *>>
      Pullbacks;
  std::vector<std::unique_ptr<PullbackEntry>> Entries;
  /// The entries of each pullback function (several primals can share one
  /// only as redeclarations).
  llvm::DenseMap<const clang::FunctionDecl *,
                 llvm::SmallVector<PullbackEntry *, 1>>
      ByPullback;
  llvm::DenseSet<const clang::FunctionDecl *> Generated;
  /// Pullback templates by canonical primal template, in declaration order.
  llvm::DenseMap<const clang::FunctionTemplateDecl *, unsigned> TemplateIndex;
  std::vector<PullbackTemplate> Templates;
  unsigned SplitCount = 0;
  /// Primal specializations already reported as not differentiable.
  llvm::DenseSet<const clang::FunctionDecl *> BadSpecializations;

  PullbackEntry *find(const clang::FunctionDecl *Primal, const WrtMask &Wrt);
  PullbackEntry *add(clang::FunctionDecl *Primal, clang::FunctionDecl *PB,
                     const WrtMask &Wrt, bool User);
  /// A variant of \p Base whose halves re-read the parameters in \p Stable
  /// (not found by find(): only calls that chose it call it).
  PullbackEntry *addStableVariant(PullbackEntry &Base, const WrtMask &Stable);
  /// The pullback template of \p Primal's primary template, or null.
  PullbackTemplate *templateOf(const clang::FunctionDecl *Primal);
};

/// Finds a user-declared (not generated) function named \p Sig.Name in the
/// primal's context with exactly \p Sig.Type; sets \p Mismatch to a
/// same-named user function of another type if no exact one exists.
clang::FunctionDecl *findUserPullback(clang::Sema &S,
                                      const clang::FunctionDecl *Primal,
                                      const PullbackSignature &Sig,
                                      clang::FunctionDecl *&Mismatch);

/// True if another overload of \p Primal has \p Candidate's type as its
/// pullback type (then \p Candidate is no mismatched custom pullback).
bool isPullbackOfOverload(clang::Sema &S, const clang::FunctionDecl *Primal,
                          const clang::FunctionDecl *Candidate);

/// Declares (or finds) the pullback of \p Primal for \p Wrt in the primal's
/// context, pushing it on \p Sc's scope chain when \p Sc is given.
PullbackEntry *declarePullback(clang::Sema &S, clang::FunctionDecl *Primal,
                               const WrtMask &Wrt, clang::Scope *Sc,
                               clang::SourceLocation Loc,
                               llvm::StringRef NameOverride = {});

/// The context in which \p Primal's derivatives are declared and looked up.
clang::DeclContext *lookupContext(const clang::FunctionDecl *Primal);
/// The scope of \p Sc's chain whose entity is \p Target, or null.
clang::Scope *scopeFor(clang::Sema &S, clang::Scope *Sc,
                       clang::DeclContext *Target);
/// Declares the forward and reverse halves of \p E's split derivative
/// (with internal linkage if \p Internal).
void declareSplit(clang::Sema &S, PullbackEntry &E, bool Internal);

/// Declares NAME_pullback as a function template for the `[[grad]]`
/// function template \p Pattern (its templated declaration); false after
/// reporting why not.
bool declarePullbackTemplate(clang::Sema &S, clang::FunctionDecl *Pattern,
                             const WrtMask &Wrt, clang::Scope *Sc,
                             clang::SourceLocation Loc);

/// The primal specialization matching \p Spec, a specialization of the
/// pullback template \p T, instantiated (declaration and definition) when
/// needed; null if it cannot be.
clang::FunctionDecl *primalSpecialization(clang::Sema &S,
                                          const PullbackTemplate &T,
                                          clang::FunctionDecl *Spec,
                                          clang::SourceLocation Loc);

} // namespace grad

#endif
