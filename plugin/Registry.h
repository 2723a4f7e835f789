//===- Registry.h - Pullback signatures and per-TU state --------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The pullback ABI (which parameters get adjoints and of which type, the
/// seed, the name) and the per-translation-unit state shared by the
/// attribute handlers and the AST consumer: which declarations are
/// `[[grad]]`, which are `[[grad::nodiff]]`, and the memo table of pullbacks.
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_REGISTRY_H
#define CLANG_GRAD_REGISTRY_H

#include "clang/AST/Decl.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include <string>
#include <vector>

namespace clang {
class Sema;
class Scope;
class BinaryOperator;
class CallExpr;
class ConditionalOperator;
class IfStmt;
} // namespace clang

namespace grad {

/// How a parameter takes part in differentiation (SPEC, "the ABI").
enum class ParamKind {
  None,      ///< integers, bool, enums, non-floating pointers: no adjoint
  Scalar,    ///< T, const T, const T&: adjoint T*
  ScalarRef, ///< T& (in/out): adjoint T*
  Pointer,   ///< const T*, T*, T[]: adjoint T* of the same extent
  Class,     ///< containers and structs with floating data: adjoint C*
};

struct ParamClass {
  ParamKind Kind = ParamKind::None;
  /// The type the adjoint pointer points to.
  clang::QualType AdjointPointee;
};

bool isFloating(clang::QualType T);
/// True for class types that carry floating data (containers, tensors,
/// structs with floating members), recursively.
bool hasFloatingData(clang::QualType T);
ParamClass classifyParam(clang::ASTContext &Ctx, clang::QualType T);

/// Which parameters of a primal get adjoints.
using WrtMask = llvm::SmallVector<bool, 8>;

/// The pullback's signature for \p Primal and \p Wrt.
struct PullbackSignature {
  std::string Name;
  clang::QualType Type;
  llvm::SmallVector<std::string, 8> ParamNames;
  llvm::SmallVector<clang::QualType, 8> ParamTypes;
  /// Index of the seed parameter, or -1 when the primal returns void.
  int SeedIndex = -1;
  /// For each primal parameter, the index of its adjoint parameter or -1.
  llvm::SmallVector<int, 8> AdjointIndex;
  /// Index of `Class *d_this`, or -1.
  int ThisIndex = -1;
  /// "void f_pullback(double x, double d_ret, double *d_x)".
  std::string str(const clang::ASTContext &Ctx) const;
};

/// Computes the signature; returns false and sets \p Why when the return
/// type cannot be differentiated.
bool computeSignature(clang::ASTContext &Ctx, const clang::FunctionDecl *Primal,
                      const WrtMask &Wrt, llvm::StringRef Name,
                      PullbackSignature &Sig, std::string &Why);

/// The mask with every differentiable, non-nodiff parameter set. For a
/// non-static member function of a class with floating data, one more
/// trailing entry stands for `this` (adjoint `Class *d_this`, last).
WrtMask fullMask(const clang::FunctionDecl *Primal);

/// True for `V &operator+=(V &, const V &)` and other functions returning a
/// non-const lvalue reference to floating data: the result names memory of
/// the caller, so the pullback has no seed and callers must discard it.
bool returnsWritableReference(const clang::FunctionDecl *FD);

/// True for a non-static member function whose object carries derivatives.
bool hasThisAdjoint(const clang::FunctionDecl *Primal);

/// "f_pullback" for f, "call_pullback" for operator(), "operator_plus_pullback"
/// for operator+ ("operator_plus_equal_pullback" for operator+=, and so on:
/// clang's operator names in snake case).
std::string pullbackName(const clang::FunctionDecl *Primal);

/// What `[[grad]]` said about a function.
struct GradRequest {
  WrtMask Wrt;
  clang::SourceLocation AttrLoc;
  /// `[[grad::forward("lanes=N")]]`: N (a vector pushforward too).
  unsigned Lanes = 0;
};

/// A pullback known for (primal, mask).
struct PullbackEntry {
  clang::FunctionDecl *Primal = nullptr;
  clang::FunctionDecl *Pullback = nullptr;
  WrtMask Wrt;
  bool UserProvided = false; ///< a user-declared NAME_pullback: never built
  bool Defined = false;      ///< body built (or being built)
  bool Failed = false;
  clang::SourceLocation RequestLoc; ///< first [[grad]] or call site
  const clang::FunctionDecl *Requester = nullptr;
  const PullbackEntry *RequesterEntry = nullptr;
  /// The split derivative (Split.cpp): `R _grad_f_fwd(args..., stack &)`
  /// computes the value and pushes a frame, `void _grad_f_rev(pullback
  /// args..., stack &)` pops it. Declared when a caller first uses it.
  clang::FunctionDecl *Fwd = nullptr, *Rev = nullptr;
  /// The halves take the caller's `grad::detail::stack &` as their last
  /// parameter (false only without the runtime, which is then an error).
  bool HalvesTakeStack = false;
  /// Whether callers use the split derivative: -1 not decided yet.
  int Split = -1;
  /// The halves (Fwd, Rev) have been built (or building them failed).
  bool HalvesDone = false;
  /// The halves are defined only for callers in other translation units
  /// (no caller here): a failure to build them is a warning, not an error.
  bool HalvesForOtherUnits = false;
  /// Building those halves failed (they stay declared, not defined).
  bool HalvesFailed = false;
  /// The pullback itself is needed (false for a callee only ever called
  /// through its split derivative).
  bool Wanted = true;
  /// For the halves of a variant (StableVariant of another entry): the
  /// pointer-to-const parameters whose memory every caller of these halves
  /// leaves unchanged until it calls the reverse half, and which nothing
  /// the function writes reaches. The halves read them again instead of
  /// recording what they read, and the reverse half takes them too.
  WrtMask Stable;
  /// The entry whose halves re-read some parameters (Stable), made for the
  /// first call that could use it; later calls use it when their stable
  /// parameters include its own.
  PullbackEntry *StableVariant = nullptr;

  /// True if the reverse half takes primal parameter \p I (numbers,
  /// enums and the Stable parameters).
  bool reverseHalfTakes(unsigned I) const;
};

/// A pushforward (forward mode, `[[grad::forward]]`) known for (primal,
/// mask): `grad::dual<R> f_pushforward(params..., tangents...)`.
struct PushforwardEntry {
  clang::FunctionDecl *Primal = nullptr;
  clang::FunctionDecl *Pushforward = nullptr;
  WrtMask Wrt;
  PullbackSignature Sig; ///< AdjointIndex: the tangent of each parameter
  /// Pointer parameters whose pointee values are never needed (adjoint
  /// outputs of a pullback differentiated for a Hessian-vector product):
  /// the pushforward writes only their tangents, and callers pass null.
  WrtMask Drop;
  /// Directions per tangent (`grad::lanes<T, Lanes>`); 0 for the scalar
  /// pushforward.
  unsigned Lanes = 0;
  /// The pushforward of a generated pullback (or reverse half) along its
  /// adjoints only, for a vector pullback (VectorPullbackEntry): linear in
  /// them, so their values are never computed. Every parameter with a
  /// tangent is dropped (callers pass null, or zero for a scalar), values
  /// without derivatives have no tangent, and the tape holds values only.
  bool Linear = false;
  bool UserProvided = false; ///< a user-declared NAME_pushforward
  bool Defined = false;
  bool Failed = false;
  clang::SourceLocation RequestLoc;
  const clang::FunctionDecl *Requester = nullptr;
};

/// A Hessian-vector product (`[[grad::hessian]]`): `void f_hvp(params...,
/// directions..., adjoints...)`, the pushforward of f's pullback.
struct HvpEntry {
  clang::FunctionDecl *Primal = nullptr;
  clang::FunctionDecl *Hvp = nullptr;
  WrtMask Wrt;
  /// For each primal parameter: its direction parameter (AdjointIndex) and
  /// its adjoint parameter (DirIndex + the number of directions).
  PullbackSignature Sig;
  llvm::SmallVector<int, 8> OutIndex;
  bool Defined = false;
  bool Failed = false;
  clang::SourceLocation AttrLoc;
};

/// A vector pullback (`[[grad("lanes=N")]]`): `void f_pullback(params...,
/// seed and adjoints as grad::lanes<T, N>)`, N seeds in one reverse sweep,
/// built as the linear pushforward of f's pullback along its seed and
/// adjoints (PushforwardEntry::Linear).
struct VectorPullbackEntry {
  clang::FunctionDecl *Primal = nullptr;
  clang::FunctionDecl *Fn = nullptr;
  WrtMask Wrt;
  unsigned Lanes = 0;
  bool Defined = false;
  bool Failed = false;
  clang::SourceLocation AttrLoc;
};

/// The pullback template of a `[[grad]]` function template: declared at the
/// attribute, with the primal's template parameters; each specialization
/// is defined from the matching primal specialization.
struct PullbackTemplate {
  clang::FunctionTemplateDecl *Primal = nullptr;
  clang::FunctionTemplateDecl *Pullback = nullptr;
  WrtMask Wrt;
  clang::SourceLocation AttrLoc;
  /// How many of the pullback template's specializations were handled.
  unsigned SeenSpecs = 0;
};

/// Per-translation-unit state, keyed by ASTContext.
class State {
public:
  static State &get(clang::ASTContext &Ctx);
  static void release(clang::ASTContext &Ctx);

  /// `[[grad]]` requests, keyed by the declaration that carried them.
  llvm::DenseMap<const clang::FunctionDecl *, GradRequest> Requests;
  llvm::DenseSet<const clang::Decl *> Nodiff;
  /// Local std::function variables: whose only uses are calls (Lift.cpp,
  /// initLambda).
  llvm::DenseMap<const clang::VarDecl *, bool> OnlyCalled;
  /// `[[grad::forward]]` requests and the pushforwards by canonical primal.
  llvm::DenseMap<const clang::FunctionDecl *, GradRequest> ForwardRequests;
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
  /// Conditional forms of std::min / max / clamp calls (Selectors.cpp),
  /// built on first use; null for calls that have none.
  mutable llvm::DenseMap<const clang::CallExpr *,
                         const clang::ConditionalOperator *>
      SelectorForms;
  mutable llvm::DenseSet<const clang::ConditionalOperator *> SelectorParts;
  /// Calls over iterators of contiguous containers as calls over pointers
  /// (Selectors.cpp pointerForm); null for calls that have none.
  mutable llvm::DenseMap<const clang::CallExpr *, const clang::CallExpr *>
      PointerForms;
  /// Expressions evaluated only for their side effects (expression
  /// statements, for-loop increments, the left of a comma, operands of a
  /// void cast) of the bodies noted so far: a reference result may only be
  /// dropped there, and a copy into an iterator or a memcpy has a pointer
  /// form with another result type only there.
  mutable llvm::DenseSet<const clang::Expr *> StatementCalls;
  /// `*std::max_element(v.begin(), v.end())` as the dereference of the
  /// same call over pointers (Selectors.cpp noteDerefForms), for the
  /// bodies noted so far; stripExpr sees through them.
  mutable llvm::DenseMap<const clang::Expr *, const clang::Expr *> DerefForms;
  mutable llvm::DenseSet<const clang::Stmt *> StatementBodies;
  /// Member function definitions whose every return points into their own
  /// object (CallResults.cpp objectArg): bit 0 set if so, bit 1 set if the
  /// body also reads members without floating data (`cols`).
  mutable llvm::DenseMap<const clang::FunctionDecl *, unsigned>
      ObjectAccessors;
  /// Notes the side-effect-only expressions of \p Body (once per body;
  /// before any builder or analysis of it asks for pointer forms).
  void noteStatementCalls(const clang::Stmt *Body) const;
  /// Paths.cpp pointedParam, by canonical helper (-1: none).
  mutable llvm::DenseMap<const clang::FunctionDecl *, int> PointedParams;
  /// Writes.cpp: helpers whose body writes nothing their caller sees.
  mutable llvm::DenseMap<const clang::FunctionDecl *, bool> WritesNothing;
  /// `(c ? a : b) op= e` statements as `if (c) a op= e; else b op= e;`.
  mutable llvm::DenseMap<const clang::BinaryOperator *, const clang::IfStmt *>
      ConditionalAssigns;
  /// Primal specializations already reported as not differentiable.
  llvm::DenseSet<const clang::FunctionDecl *> BadSpecializations;
  /// The Sema of this translation unit (for instantiating adjoint types).
  clang::Sema *S = nullptr;

  /// The request of \p FD or of any of its redeclarations.
  const GradRequest *requestFor(const clang::FunctionDecl *FD) const;
  bool isNodiff(const clang::Decl *D) const;
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
/// Gives \p FD the parameters of \p Sig, also in its type's TypeLoc.
void setParams(clang::ASTContext &Ctx, clang::FunctionDecl *FD,
               clang::TypeSourceInfo *TSI, const PullbackSignature &Sig);

/// True if \p FD has a non-const pointer or reference parameter to
/// floating data and may write through it (Paths.h writesNothing; with
/// \p Deep false, whatever its body does).
bool writesThroughParams(const clang::FunctionDecl *FD, bool Deep = true);

/// True if the reverse half of a split derivative takes \p P (by-value
/// arithmetic and enum parameters; pointers, references and objects are
/// dropped).
bool keptInReverseHalf(const clang::ParmVarDecl *P);

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

/// The definition of \p FD, instantiated now (at \p Loc, or as at the end
/// of the translation unit) if it is a template instantiation not
/// instantiated yet; null if there is none.
const clang::FunctionDecl *instantiatedDefinition(clang::Sema &S,
                                                  const clang::FunctionDecl *FD,
                                                  clang::SourceLocation Loc,
                                                  bool AtEndOfTU = false);

} // namespace grad

#endif
