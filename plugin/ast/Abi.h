//===- Abi.h - The derivatives' ABI and per-TU AST facts --------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The pullback ABI (which parameters get adjoints and of which type, the
/// seed, the signature), the entries that describe each derivative, and
/// AstFacts: the per-translation-unit object every layer reaches through
/// its ASTContext (the analysis extends it with its caches, analysis/Facts.h,
/// and the driver with its tables, driver/Registry.h).
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_AST_ABI_H
#define CLANG_GRAD_AST_ABI_H

#include "clang/AST/Decl.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include <memory>
#include <string>
#include <vector>

namespace clang {
class Sema;
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
/// The first reference member to floating data in the class \p T, its
/// members by value or its bases (`struct Residual { const double &k; }`),
/// or null: an object whose adjoint would have to refer to the adjoint of
/// what the member refers to.
const clang::FieldDecl *referenceMemberToFloating(clang::QualType T);
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
/// True if parameters of types \p A and \p B are two references to one
/// floating type, one of them not const: the pullback takes them as
/// distinct (the adjoint of a non-const one is stored back, not added), and
/// checks at its entry, always, that they are (Verify.cpp distinctChecks).
bool distinctScalarRefs(clang::ASTContext &Ctx, clang::QualType A,
                        clang::QualType B);


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

/// Gives \p FD the parameters of \p Sig, also in its type's TypeLoc.
void setParams(clang::ASTContext &Ctx, clang::FunctionDecl *FD,
               clang::TypeSourceInfo *TSI, const PullbackSignature &Sig);

/// True if the reverse half of a split derivative takes \p P (by-value
/// arithmetic and enum parameters; pointers, references and objects are
/// dropped).
bool keptInReverseHalf(const clang::ParmVarDecl *P);

/// The definition of \p FD, instantiated now (at \p Loc, or as at the end
/// of the translation unit) if it is a template instantiation not
/// instantiated yet; null if there is none.
const clang::FunctionDecl *instantiatedDefinition(clang::Sema &S,
                                                  const clang::FunctionDecl *FD,
                                                  clang::SourceLocation Loc,
                                                  bool AtEndOfTU = false);

/// What every layer knows about a translation unit, keyed by its
/// ASTContext. One object per context, of the most derived type the driver
/// asks for (driver/Registry.h State): AstFacts::get, Facts::get and
/// State::get return the same object.
class AstFacts {
public:
  virtual ~AstFacts() = default;
  /// The object of \p Ctx, made by Make on first use.
  static AstFacts &get(clang::ASTContext &Ctx);
  static void release(clang::ASTContext &Ctx);
  /// Makes the per-context object; the driver installs the one that makes
  /// its State (driver/Registry.cpp).
  static std::unique_ptr<AstFacts> (*Make)();

  /// The Sema of this translation unit (for instantiating adjoint types).
  clang::Sema *S = nullptr;
  /// `[[grad::nodiff]]` declarations.
  llvm::DenseSet<const clang::Decl *> Nodiff;
  bool isNodiff(const clang::Decl *D) const;
  /// `[[grad]]` requests, keyed by the declaration that carried them.
  llvm::DenseMap<const clang::FunctionDecl *, GradRequest> Requests;
  /// `[[grad::forward]]` requests.
  llvm::DenseMap<const clang::FunctionDecl *, GradRequest> ForwardRequests;
  /// The request of \p FD or of any of its redeclarations.
  const GradRequest *requestFor(const clang::FunctionDecl *FD) const;
};

} // namespace grad

#endif
