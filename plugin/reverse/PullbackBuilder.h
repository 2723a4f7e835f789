//===- PullbackBuilder.h - Reverse-mode body builder ------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Builds one pullback body. The forward sweep (ForwardSweep.cpp) replays the
/// primal in A-normal form: every value the reverse sweep reads is bound to
/// a temporary declared at the top of the pullback, and nothing else is
/// computed (no result that only feeds the discarded return value). The
/// reverse sweep (Statements.cpp) walks the statements backwards and
/// accumulates adjoints into locals that are stored to the adjoint
/// parameters once, at the end. Straight-line code uses no tape and no heap.
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_PULLBACKBUILDER_H
#define CLANG_GRAD_PULLBACKBUILDER_H

#include "analysis/Activity.h"
#include "analysis/Complex.h"
#include "lift/Lift.h"
#include "lift/Requests.h"
#include "ast/Abi.h"
#include "analysis/Facts.h"
#include "ast/Rules.h"
#include "ast/Replay.h"
#include "ast/SemaBuilder.h"
#include "reverse/Shadow.h"

#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringSet.h"
#include <vector>

namespace clang {
class Sema;
class CXXForRangeStmt;
class CXXMethodDecl;
}

namespace grad {

class DerivativeRequests;
using Stmts = std::vector<clang::Stmt *>;

/// Which function a PullbackBuilder builds: the pullback, or one half of a
/// split derivative (Split.cpp).
enum class SplitHalf { None, Forward, Reverse };

class PullbackBuilder : private ShadowRoots {
public:
  PullbackBuilder(DerivativeRequests &D, PullbackEntry &Entry,
                  const clang::FunctionDecl *Def,
                  SplitHalf Half = SplitHalf::None);
  /// Builds and attaches the body; false after reporting an error.
  bool build();
  const Activity &activity() const { return Act; }
  /// True if the lvalue or pointer \p E may denote differentiated storage.
  bool storageActive(const clang::Expr *E);
  /// The argument (or object) through which \p CE may write
  /// differentiated storage, or null.
  const clang::Expr *writtenStorage(const clang::CallExpr *CE);

private:
  /// Adjoints held in locals, sent on to what they belong to after a call.
  using Deferred =
      llvm::SmallVector<std::pair<const clang::Expr *, clang::VarDecl *>, 4>;

  // SiteCheck.cpp
  /// Notes that the builder modelled \p P: an expression it propagated an
  /// adjoint through, an assignment, a local, a return, a heap object.
  void modelled(const void *P) { Modelled.insert(P); }
  /// After the body is built: every derivative site of the primal
  /// (analysis/Sites.h) was modelled; an internal error at each one that
  /// was not (default deny: nothing falls through to a constant).
  bool checkSites();
  llvm::DenseSet<const void *> Modelled;

  // ForwardSweep.cpp
  /// Rebuilds \p E for the forward sweep. With \p Need, the value is also
  /// recorded so that val(E) can read it in the reverse sweep.
  clang::Expr *fwd(const clang::Expr *E, bool Need);
  /// Rebuilds an expression that carries no derivative: no temporaries.
  clang::Expr *plain(const clang::Expr *E);
  clang::Expr *rebuild(const clang::Expr *E, bool Need, bool Plain);
  // Some of its cases: `c ? a : b` without derivatives; braces or a
  // tuple factory listing the elements \p Els of \p K; braces of a
  // struct or an array.
  clang::Expr *rebuildPlainConditional(const clang::ConditionalOperator *CO,
                                       bool Need);
  clang::Expr *rebuildBracedElements(const clang::Expr *K,
                                     llvm::ArrayRef<const clang::Expr *> Els,
                                     bool Plain);
  clang::Expr *rebuildAggregateBraces(const clang::InitListExpr *IL,
                                      bool Plain);
  // The cases of rebuild (ForwardSweep.cpp).
  clang::Expr *rebuildLiteral(const clang::Expr *K);
  clang::Expr *rebuildUnary(const clang::UnaryOperator *UO, bool Need,
                            bool Plain);
  clang::Expr *rebuildBinary(const clang::BinaryOperator *BO, bool Need,
                             bool Plain);
  clang::Expr *rebuildCallForm(const clang::CallExpr *CE, bool Need,
                               bool Plain);
  clang::Expr *rebuildCall(const clang::CallExpr *CE, bool Need, bool Plain);
  // Its cases: a call that writes differentiated memory; a member call
  // (`v.size()`, `m.eval(x)`); a member operator; a free function (by a
  // rule, or its pullback).
  clang::Expr *rebuildWritingCall(const clang::CallExpr *CE,
                                  const clang::FunctionDecl *FD, bool Need);
  clang::Expr *rebuildMemberCallExpr(const clang::CXXMemberCallExpr *MC,
                                     const clang::FunctionDecl *FD, bool Need,
                                     bool Plain);
  clang::Expr *rebuildMemberOperator(const clang::CXXOperatorCallExpr *OC,
                                     const clang::FunctionDecl *FD, bool Need,
                                     bool Plain);
  clang::Expr *rebuildFreeCall(const clang::CallExpr *CE,
                               const clang::FunctionDecl *FD, bool Need,
                               bool Plain);
  clang::Expr *rebuildRuleCall(const clang::CallExpr *CE, clang::Expr *Callee,
                               const Rule &Ru, bool Need);
  /// The arguments of \p CE up to its default ones, rebuilt (\p NeedArg:
  /// which are recorded); false after an error.
  bool rebuildArgs(const clang::CallExpr *CE,
                   llvm::function_ref<bool(unsigned)> NeedArg, bool Plain,
                   llvm::SmallVectorImpl<clang::Expr *> &Args);
  /// The call shape of \p CE (analysis/CallShapes.def) allows rebuilding
  /// it (\p Plain: no derivative); false after an error.
  bool shapeAllowed(const clang::CallExpr *CE, bool Plain);
  /// A call of a local lambda (`sq(x)`, `[&](double a) {...}(x)`) as a call
  /// of the lambda's lifted function (its parameters, then its captures),
  /// which is differentiated like any callee; null (after an error) if the
  /// lambda cannot be lifted, and \p CE itself if it is not such a call.
  const clang::CallExpr *lambdaCall(const clang::CallExpr *CE);
  /// True if the argument for the non-const reference parameter \p I of
  /// \p FD in \p CE reaches (or may reach: \p Maybe) the same storage as
  /// another argument that the callee only reads through (a pointer or
  /// reference to const); false, with \p Writer set, if one it writes
  /// through does.
  bool sharedRefArgument(const clang::CallExpr *CE,
                         const clang::FunctionDecl *FD, unsigned I,
                         const clang::ParmVarDecl *&Writer, bool &Maybe);
  llvm::DenseMap<const clang::CallExpr *, const clang::CallExpr *> LambdaCalls;
  /// The derivative's copies of numbers a lambda captures by copy and the
  /// function assigns after the lambda (Lift.h captureCopy), declared where
  /// the lambda is (outside loops): the lifted calls read them.
  llvm::DenseMap<std::pair<const clang::LambdaExpr *, const clang::VarDecl *>,
                 clang::VarDecl *>
      CaptureCopies;
  /// Declares those copies for the lambda \p L, the initializer of the
  /// local \p F, at its declaration.
  void declareCaptureCopies(const clang::VarDecl *F,
                            const clang::LambdaExpr *L, Stmts &Fwd,
                            Stmts &Rev);
  /// `new T(e)`, `new T{a, b}`, `new S(a, b)` (one object) with its
  /// initializer rebuilt (values the reverse sweep reads recorded); null
  /// for anything else.
  clang::Expr *rebuildNewObject(const clang::CXXNewExpr *NE);
  /// Braces `{a, b}` (of a class or array type) rebuilt, as braces.
  clang::Expr *rebuildBraces(const clang::InitListExpr *IL, bool Plain);
  /// methodCall, reporting a call it cannot decompose and a lambda among
  /// the arguments (passed to a member function).
  bool calledMethod(const clang::CallExpr *CE, const clang::CXXMethodDecl *&MD,
                    const clang::Expr *&Obj, bool &Arrow,
                    llvm::SmallVectorImpl<const clang::Expr *> &Args);
  /// Decomposes obj.m(args) and obj(args) (operator()).
  bool methodCall(const clang::CallExpr *CE, const clang::CXXMethodDecl *&MD,
                  const clang::Expr *&Obj, bool &Arrow,
                  llvm::SmallVectorImpl<const clang::Expr *> &Args) const;
  clang::Expr *rebuildMethodCall(const clang::CallExpr *CE, bool Need);
  // Its steps (Methods.cpp): the object and how it is kept for the
  // reverse sweep; the refusals of objects it cannot get back (true after
  // the error); the object kept by value at the call (Kept; false after an
  // error).
  struct MethodObject;
  MethodObject methodObject(const clang::CXXMethodDecl *MD,
                            const clang::Expr *Obj, bool Arrow);
  bool methodObjectRefused(const clang::CallExpr *CE,
                           const clang::CXXMethodDecl *MD,
                           const clang::Expr *Obj, const MethodObject &MO);
  bool keepMethodObject(const clang::CallExpr *CE, const MethodObject &MO,
                        clang::VarDecl *&Kept);
  /// `this` in the pullback of a member function.
  clang::Expr *thisExpr();
  /// `s.step(x)` with a non-const member function of a plain struct: a side
  /// effect of its statement, reversed through the method's pullback on a
  /// copy of the object as it was before the call.
  clang::Expr *rebuildMutatingCall(const clang::CallExpr *CE, bool Need);
  /// What such a call returns, as the forward sweep keeps it (void for a
  /// discarded `*this`); null after an error.
  clang::QualType mutatingResultType(const clang::CallExpr *CE,
                                     const clang::CXXMethodDecl *MD,
                                     const std::string &Name);
  /// The call as a side effect of its statement: the forward sweep now, the
  /// method's pullback after the statement's reverse.
  clang::Expr *hoistMethodCall(const clang::CallExpr *CE, PullbackEntry *PE,
                               clang::Expr *Call, clang::QualType RT);
  /// True if \p E (a node of the primal's body) is evaluated only for its
  /// side effects.
  bool discarded(const clang::Expr *E);
  /// `T(args...)` or `T{args...}` as written, the arguments rebuilt.
  clang::Expr *rebuildConstruction(const clang::CXXConstructExpr *CC,
                                   bool Plain);
  /// Emits a call that is a side effect of its statement; its value (if
  /// \p RT is not void) goes to a hoisted temporary, with an adjoint
  /// \p Seed for a floating value.
  clang::Expr *hoistCall(const clang::CallExpr *CE, clang::Expr *Call,
                         clang::QualType RT, clang::VarDecl *&Seed);
  /// Zero again after the reverse call used it (a number or an object).
  clang::Stmt *resetSeed(clang::VarDecl *Seed);
  /// `T(args)` through a constructor that computes members or has a body
  /// (Constructors.cpp): as written in the forward sweep; the reverse
  /// sweep calls its `constructor_pullback` on an object of zero bytes.
  clang::Expr *rebuildUserConstruction(const clang::CXXConstructExpr *CC,
                                       bool Need, bool Plain);
  void backpropUserConstruction(const clang::CXXConstructExpr *CC,
                                clang::Expr *Adj, Stmts &Out);
  llvm::DenseMap<const clang::CXXConstructExpr *, PullbackEntry *>
      Constructions;
  /// In a constructor's pullback: its member initialisers as assignments
  /// to `this->m` (members of plain structs member by member), to run
  /// before its body.
  bool constructorInits(const clang::CXXConstructorDecl *Ctor,
                        llvm::SmallVectorImpl<const clang::Stmt *> &Out);
  /// The arguments of a call of \p MD's pullback, up to `d_this`: the
  /// recorded values, the seed, the adjoint targets (\p Later: temporaries
  /// whose content goes to their arguments after the call).
  void methodPullbackArgs(const clang::CXXMethodDecl *MD,
                          const PullbackEntry &PE,
                          llvm::ArrayRef<const clang::Expr *> Args,
                          clang::Expr *Adj, PullbackSignature &CS,
                          llvm::SmallVectorImpl<clang::Expr *> &CallArgs,
                          llvm::SmallVector<std::pair<const clang::Expr *,
                                                      clang::VarDecl *>,
                                            4> &Later,
                          Stmts &Out);
  /// A member call's arguments for the forward sweep, recorded for its
  /// pullback (temporary structs by value).
  bool rebuildMethodArgs(const clang::CXXMethodDecl *MD,
                         llvm::ArrayRef<const clang::Expr *> Args,
                         llvm::SmallVectorImpl<clang::Expr *> &Out);
  /// A method's argument for a non-const reference parameter \p P: the
  /// lvalue itself, its value before the call recorded for the pullback.
  bool writableReferenceArg(const clang::CXXMethodDecl *MD,
                            const clang::ParmVarDecl *P, const clang::Expr *A,
                            llvm::SmallVectorImpl<clang::Expr *> &Out);
  // Complex.cpp
  clang::Expr *rebuildComplexCall(const clang::CallExpr *CE,
                                  const ComplexCall &CC, bool Need,
                                  bool Plain);
  /// The reverse of one std::complex call, by kind of operation
  /// (Complex.cpp).
  struct ComplexPullback;
  void backpropComplexCall(const clang::CallExpr *CE, const ComplexCall &CC,
                           clang::Expr *Adj, Stmts &Out);
  void backpropComplexConstruction(const clang::CXXConstructExpr *CC,
                                   clang::Expr *Adj, Stmts &Out);
  /// `z op= w` and the setters `z.real(v)`, `z.imag(v)` on a std::complex:
  /// the value they give \p Target (`z op w`, `complex(v, z.imag())`, built
  /// once from the statement's own operands), or null.
  const clang::Expr *complexUpdate(const clang::Expr *E,
                                   const clang::Expr *&Target);
  llvm::DenseMap<const clang::Expr *,
                 std::pair<const clang::Expr *, const clang::Expr *>>
      ComplexUpdates;
  /// Member calls whose object's value at the call is kept (a temporary,
  /// or an object written in the function): the copy.
  llvm::DenseMap<const clang::CallExpr *, clang::VarDecl *> KeptObjects;
  /// Member calls on an object that owns its elements, kept on the
  /// thread's saved objects (`::grad::detail::keep(m)` before the call,
  /// `kept<T>()` in the reverse sweep): the object's type.
  llvm::DenseMap<const clang::CallExpr *, clang::QualType> KeptOwners;
  /// `keep(Obj)` for the call \p CE on an object of type \p T that owns its
  /// elements, in the forward sweep (after the arguments: the copy is the
  /// object as the call's body sees it, and the reverse sweep takes it back
  /// before the arguments' own).
  bool keepOwner(const clang::CallExpr *CE, clang::Expr *Obj,
                 clang::QualType T);
  clang::Expr *rebuildObject(const clang::Expr *Obj);
  void backpropMethodCall(const clang::CallExpr *CE, clang::Expr *Adj,
                          Stmts &Out);
  // Its steps (Methods.cpp): the refusal of an argument that is part of
  // the object (true after the error); the object kept at the call (Self;
  // false after an error); the object's adjoint, and a zero one when
  // nothing receives it.
  bool partOfObjectArgRefused(const clang::CXXMethodDecl *MD,
                              const clang::Expr *Obj,
                              llvm::ArrayRef<const clang::Expr *> Args);
  bool keptObject(const clang::CallExpr *CE, clang::VarDecl *&Self, Stmts &Out);
  clang::Expr *objectAdjoint(const clang::CallExpr *CE, const clang::Expr *Obj,
                             clang::VarDecl *Self, Deferred &Later, Stmts &Out);
  clang::Expr *scratchObjectAdjoint(const clang::Expr *Obj,
                                    clang::VarDecl *Self, Stmts &Out);
  clang::Expr *rebuildConditional(const clang::ConditionalOperator *CO,
                                  bool Need);
  clang::Expr *rebuildCast(const clang::ExplicitCastExpr *CE, bool Need,
                           bool Plain);
  clang::Expr *rebuildDeclRef(const clang::DeclRefExpr *DRE, bool Need,
                              bool Plain);
  /// Binds \p Value to a fresh hoisted temporary, records it as the value
  /// of \p Key and returns a reference to it.
  clang::Expr *record(const clang::Expr *Key, clang::Expr *Value);
  clang::VarDecl *hoist(llvm::StringRef Base, clang::QualType T);
  clang::Expr *val(const clang::Expr *E);
  /// An active `sin(x)` or `cos(x)` of a floating type is computed by the
  /// runtime's sin_cos, whose pair is recorded under the key returned here
  /// (null when the call is not such a call, or without the runtime).
  const clang::Expr *sinCosKey(const clang::CallExpr *CE, const Rule &Ru);
  /// The partial of such a call, read from the recorded pair.
  clang::Expr *sinCosPartial(const clang::CallExpr *CE, const Rule &Ru);
  /// Arithmetic over literals and unchanging variables: rebuilt in the
  /// reverse sweep instead of recorded.
  bool recomputable(const clang::Expr *E) const;
  /// For arithmetic over literals and variables never written after their
  /// declaration (the shape recomputable() accepts): the number of loops
  /// around the deepest declaration among them, which is also the first
  /// loop whose iterations all see the same value; -1 otherwise.
  int invariantLevel(const clang::Expr *E) const;
  /// How many loops enclose the declaration of each local (Loops.size()
  /// where it is declared).
  llvm::DenseMap<const clang::VarDecl *, unsigned> DeclDepth;
  clang::Expr *recompute(const clang::Expr *E);
  bool stable(const clang::VarDecl *VD) const;
  /// True if the data of the object \p V may be written after \p Read (a
  /// read of it), so that the reverse sweep cannot read it again.
  bool changesAfter(const clang::VarDecl *V, const clang::Expr *Read) const;
  clang::VarDecl *mapVar(const clang::VarDecl *VD) const;
  /// True if \p P is a parameter of the primal as the builder sees it.
  bool ownParam(const clang::ParmVarDecl *P) const;

  // Statements.cpp
  void stmt(const clang::Stmt *S, Stmts &Fwd, Stmts &Rev);
  void stmtImpl(const clang::Stmt *S, Stmts &Fwd, Stmts &Rev);
  void compound(const clang::CompoundStmt *CS, Stmts &Fwd, Stmts &Rev);
  void declStmt(const clang::DeclStmt *DS, Stmts &Fwd, Stmts &Rev);
  void exprStmt(const clang::Expr *E, Stmts &Fwd, Stmts &Rev);
  /// `++x`, `v[i]--`, `++(t += y)`: an increment as a statement.
  void incrementStmt(const clang::UnaryOperator *UO, Stmts &Fwd, Stmts &Rev);
  /// A call whose value is discarded: its side effects, if any.
  void discardedCall(const clang::CallExpr *CE, Stmts &Fwd);
  /// A local array or std::vector, with its adjoint storage.
  void storageDecl(const clang::VarDecl *VD, Stmts &Fwd, Stmts &Blocks);
  /// The kind of a local array, container or struct, and its rebuilt
  /// initializer (Declarations.cpp).
  struct LocalStorage;
  LocalStorage classifyStorage(clang::QualType T) const;
  /// True if \p T owns its elements (isElementOwner); else, in \p Why,
  /// what stands in the way of a copy as its shadow.
  bool ownsElements(clang::QualType T, std::string &Why) const;
  /// The initializer of a storage local, rebuilt; false after an error.
  bool storageInitializer(const clang::VarDecl *VD, LocalStorage &L);
  /// The adjoint of a storage local computed by an expression (or a
  /// tensor), and of one initialised element by element.
  void computedStorageShadow(const clang::VarDecl *VD, clang::VarDecl *NV,
                             const LocalStorage &L, Stmts &Fwd, Stmts &Blocks);
  void elementStorageShadow(const clang::VarDecl *VD, clang::VarDecl *NV,
                            const LocalStorage &L, Stmts &Fwd, Stmts &Blocks);
  /// False (after an error) if the definition \p Def of the local pointer
  /// or reference \p VD points into the elements of a container member of
  /// a class object (`&m.data[k]`): no offset from the object reaches them.
  bool aliasIntoObjectBytes(const clang::VarDecl *VD, const clang::Expr *Def);
  /// A local object that owns its elements (isElementOwner): declared as
  /// written, its shadow a copy with the floating data zeroed, kept in a
  /// `::grad::detail::slot` (saved per iteration inside loops).
  void elementOwnerDecl(const clang::VarDecl *VD, Stmts &Fwd, Stmts &Blocks);
  /// The shadow in \p Slot of such a local, kept for the reverse sweep:
  /// saved per iteration in a loop, marked as made in a forward half.
  void keepOwnerShadow(const clang::VarDecl *VD, clang::VarDecl *Slot,
                       Stmts &Fwd);
  // The steps of declStmt; each returns false after an error.
  /// A local struct, enum, typedef, using or static_assert.
  bool localTypeDecl(const clang::DeclStmt *DS, const clang::Decl *Dc);
  /// One local variable, by kind (the ones below).
  bool localDecl(const clang::DeclStmt *DS, const clang::VarDecl *VD,
                 Stmts &Fwd, Stmts &Blocks);
  /// True (after an error) for a static, volatile, or iterator local.
  bool localRefused(const clang::DeclStmt *DS, const clang::VarDecl *VD);
  /// A local without derivatives: declared as written.
  bool inactiveLocalDecl(const clang::VarDecl *VD, Stmts &Fwd);
  /// A local pointer or reference with a shadow.
  bool aliasDecl(const clang::VarDecl *VD, Stmts &Fwd, Stmts &Blocks);
  /// A local number with its adjoint.
  bool scalarDecl(const clang::DeclStmt *DS, const clang::VarDecl *VD,
                  Stmts &Fwd, Stmts &Blocks);
  /// `::grad::detail::slot<T> Name_s; T &Name_ = Name_s.get();` in the
  /// prologue: storage for a shadow that is a copy of an object, made
  /// (emplace) where the object gets its value. Returns {slot, reference},
  /// or nulls without the runtime.
  std::pair<clang::VarDecl *, clang::VarDecl *> shadowSlot(llvm::StringRef Name,
                                                           clang::QualType T);
  /// `Slot.emplace(Value)`, then the floating data of the slot's object
  /// (\p Shadow) zero: a shadow of type \p T sized like \p Value.
  void copyShadow(clang::VarDecl *Slot, clang::Expr *Value, clang::QualType T,
                  llvm::function_ref<clang::Expr *()> Shadow, Stmts &Out);
  /// `Shadow = 0` shaped like \p Value of type \p T: a std::vector's size,
  /// a tensor's shape (zeros_like).
  clang::Stmt *zeroShapedLike(clang::Expr *Shadow, clang::Expr *Value,
                              clang::QualType T);
  /// `v.size()` for a std::vector, 1 for an element owner: what a block's
  /// exit records for \p VD (mapped to \p V).
  clang::Expr *exitMark(clang::VarDecl *V, const clang::VarDecl *VD);
  void assignment(const clang::BinaryOperator *BO, Stmts &Fwd, Stmts &Rev);
  /// The target of an active floating assignment (Statements.cpp).
  struct AssignTarget;
  /// Refuses a right operand that reads what an effect in the left operand
  /// \p LHS changes (C++17 evaluates it first); true if refused.
  bool refuseReadOfLeftEffect(const clang::BinaryOperator *BO,
                              const clang::Expr *LHS);
  /// `(t *= x) *= y`, `(++x) *= 2`, `(a, t) = e`: emits the inner effects
  /// of \p LHS and returns the target they leave.
  const clang::Expr *innerEffectsOfTarget(const clang::Expr *LHS);
  /// Refuses an assignment to \p LHS, which is not a variable or element.
  void refuseUnassignableTarget(const clang::Expr *LHS);
  /// `=`, `+=`, `-=`, `*=`, `/=` on an active floating target.
  void floatingAssignment(const clang::BinaryOperator *BO, AssignTarget &AT,
                          Stmts &Fwd, Stmts &Rev);
  /// `*=`, `/=`: the old value recorded, the adjoints scaled.
  void scaleAssignment(const clang::BinaryOperator *BO, AssignTarget &AT,
                       Stmts &Fwd, Stmts &R);
  /// `a = b` on objects of a plain class type.
  void recordAssignment(const clang::Expr *LHS, const clang::Expr *RHS,
                        Stmts &Fwd, Stmts &Rev);
  void fuseZeroAccumulate(Stmts &R, size_t Zero, clang::VarDecl *A);
  // Branches.cpp: if and switch.
  void ifStmt(const clang::IfStmt *IS, Stmts &Fwd, Stmts &Rev);
  /// A statement with an init-statement or a condition variable, as a
  /// block that declares them first.
  void headerScope(const clang::Stmt *Init, const clang::Stmt *CondVar,
                   const clang::Stmt *St, Stmts &Fwd, Stmts &Rev);
  llvm::SmallPtrSet<const clang::Stmt *, 4> HeadersSplit;
  /// Guards \p Rev (the reverse of statements that came after jumps with
  /// ids from some start up to \p Before) so that it runs only if none of
  /// those jumps was taken (\p Flag is the jump scope's flag).
  void unlessJumped(clang::VarDecl *Flag, unsigned Before, Stmts &Rev);
  void switchStmt(const clang::SwitchStmt *SS, Stmts &Fwd, Stmts &Rev);
  /// A switch's case groups and runs (Branches.cpp).
  struct SwitchLowering;
  /// Peels the case and default labels off \p St into \p L's groups;
  /// false after refusing a case range.
  bool peelSwitchLabels(const clang::Stmt *&St, SwitchLowering &L);
  /// Splits the switch's body into case groups; sets \p NestedBreak for a
  /// `break` nested in a group's statements. False after an error.
  bool switchGroups(const clang::SwitchStmt *SS,
                    const clang::CompoundStmt *Body, SwitchLowering &L,
                    bool &NestedBreak);
  /// c == v for the values of groups [From, To] (none of them the default).
  clang::Expr *switchMatches(SwitchLowering &L, unsigned From, unsigned To);
  /// Inside run \p Run, whether group \p K runs: the run was entered at
  /// one of its groups up to K. With the default among those, the
  /// complement (entered at none of the groups after K).
  clang::Expr *switchReached(SwitchLowering &L, unsigned Run, unsigned K);
  /// A run's forward and reverse statements: the groups in order, and
  /// their reverses in reverse order, each under its test but the last.
  void switchRun(SwitchLowering &L, unsigned Run, Stmts &F, Stmts &R);
  /// \p SS (with a `break` nested in a case's statements) inside a loop
  /// that runs once.
  void switchOnce(const clang::SwitchStmt *SS, Stmts &Fwd, Stmts &Rev);
  llvm::SmallPtrSet<const clang::SwitchStmt *, 2> OnceSwitches;
  // Returns.cpp (also returnValueVar, referenceReturn, finishSplit below).
  void returnStmt(const clang::ReturnStmt *RS, Stmts &Fwd, Stmts &Rev);
  /// Accumulates the adjoint \p Adj (used once) of \p E into its inputs.
  void backprop(const clang::Expr *E, clang::Expr *Adj, Stmts &Out);
  /// A member \p K of temporary \p Temp: a zero object with that
  /// member's adjoint, sent to what built the temporary.
  void backpropTemporaryMember(const clang::Expr *K, const clang::Expr *Temp,
                               clang::Expr *Adj, clang::QualType T,
                               Stmts &Out);
  /// Constructions, braces and tuples: their parts' adjoints; false if
  /// \p K is none of them.
  bool backpropAggregate(const clang::Expr *K, clang::Expr *Adj,
                         clang::QualType T, Stmts &Out);
  /// The operands of +, -, *, / and the comma operator.
  void backpropBinary(const clang::BinaryOperator *BO, clang::Expr *Adj,
                      clang::QualType T, Stmts &Out);
  /// `c ? a : b`: the branch taken on the recorded condition.
  void backpropConditional(const clang::ConditionalOperator *CO,
                           clang::Expr *Adj, clang::QualType T, Stmts &Out);
  void backpropCall(const clang::CallExpr *CE, clang::Expr *Adj, Stmts &Out);
  /// Dst += Adj for objects of class type \p T (member by member for
  /// plain structs, element by element for containers).
  void accumulateObject(clang::Expr *Dst, clang::Expr *Adj, clang::QualType T,
                        Stmts &Out);
  /// \p E itself when it names a variable, else a local reference bound to
  /// it (declared in \p Out).
  clang::ValueDecl *bindRef(clang::Expr *E, clang::QualType T, bool Const,
                            Stmts &Out);
  /// Braces `{a, b, c}` of a class or array type: each initializer
  /// receives the adjoint of the member or element it initialised.
  void backpropBraces(const clang::InitListExpr *IL,
                      llvm::function_ref<clang::Expr *()> Adj, Stmts &Out);
  /// A local holding \p Adj, reusable by reference.
  clang::VarDecl *bind(clang::Expr *Adj, clang::QualType T, Stmts &Out);
  clang::VarDecl *adjointOf(const clang::VarDecl *VD);
  /// The variable's name in the derivative (`_b` for the object a
  /// structured binding decomposes).
  llvm::StringRef localName(const clang::VarDecl *VD);
  llvm::DenseMap<const clang::VarDecl *, std::string> LocalNames;
  /// The builder's variable for a primal local or structured binding.
  clang::ValueDecl *mapDecl(const clang::ValueDecl *D) const;
  /// After the object of a structured binding is declared: a reference
  /// for each of its names.
  void declareBindings(const clang::VarDecl *VD, Stmts &Fwd);
  llvm::DenseMap<const clang::BindingDecl *, clang::VarDecl *> BindingVars;
  std::string fresh(llvm::StringRef Base);

  // LoopForms.cpp: loops lowered onto loop().
  /// A `for` or `while` with a condition variable, as a loop whose body
  /// declares it and breaks when it converts to false.
  const clang::Stmt *withoutConditionVariable(const clang::Stmt *L);
  void rangeFor(const clang::CXXForRangeStmt *RF, Stmts &Fwd, Stmts &Rev);
  /// A range-based for loop as rangeFor reads it (LoopForms.cpp).
  struct RangeLoop;
  /// The range, rebuilt for the forward sweep.
  clang::Expr *rangeOf(const RangeLoop &RL);
  /// The range's shadow.
  clang::Expr *rangeShadowOf(const RangeLoop &RL);
  /// The variable (or `this`) a range that is not a mapped variable is
  /// read through: a member path or an element path; false after
  /// refusing the range.
  bool rangeForRoot(RangeLoop &RL);
  /// Refuses elements of a type the loop cannot take as it binds them;
  /// true if they are modelled.
  bool rangeElementsModelled(const RangeLoop &RL, bool ArrayCopy);
  /// True if the reverse sweep may re-read the element from the range.
  bool rangeElementReread(const RangeLoop &RL);
  /// The loop variable in the reverse sweep: element \p RK of the range.
  clang::VarDecl *rangeElementInReverse(const RangeLoop &RL,
                                        clang::VarDecl *RK);
  struct LoopInfo; // (Loops.cpp, below)
  /// The reverse loop: each element's adjoint back into the range's.
  clang::Stmt *rangeForReverse(const RangeLoop &RL, LoopInfo *LI,
                               clang::VarDecl *RK, clang::VarDecl *RV,
                               Stmts &BodyRev);
  // Loops.cpp
  struct LoopInfo {
    clang::VarDecl *Count = nullptr;
    clang::VarDecl *Flag = nullptr; ///< jump id, popped per reverse iteration
    unsigned NextId = 1;
    bool Nested = false;
    size_t BodyFrame = 0;
  };
  /// Values recorded by one statement: pushed at its end inside loops.
  struct Frame {
    llvm::SmallVector<clang::VarDecl *, 4> Recorded;
    /// A jump out of this statement pushed Recorded as it was then: only
    /// the statement itself may still record into this frame.
    bool JumpedOut = false;
    /// Reverse blocks of the side effects inside the statement's
    /// expressions (calls that write memory, assignments and increments
    /// inside expressions), in forward order: they run after the
    /// statement's own reverse, last first.
    std::vector<Stmts> SideRev;
    /// std::vectors declared directly in this block inside a loop, each
    /// with the variable (also in Recorded) that holds its size where the
    /// block is left: at its end or at a jump out of it. The block's
    /// reverse starts by giving the shadow that size.
    llvm::SmallVector<std::pair<clang::VarDecl *, const clang::VarDecl *>, 1>
        ExitSizes;
    /// The statement's own expressions call a function that writes memory
    /// (its reverse is in SideRev): every call differentiated in two
    /// halves there is hoisted too, so that the reverse halves pop the
    /// stack in the reverse of the order the forward halves pushed it.
    bool HoistSplits = false;
  };
  /// True if an expression of \p St itself (not of a nested statement)
  /// calls a function that writes differentiated memory through an
  /// argument or returns a writable reference into one.
  bool hasHoistedCall(const clang::Stmt *St);
  void loop(const clang::Stmt *L, Stmts &Fwd, Stmts &Rev);
  /// `i < n` (or `i > n`, `i != n`) on a loop's canonical index over a
  /// recomputable bound, matching the step's direction; or null.
  const clang::BinaryOperator *recomputableBound(const clang::VarDecl *Index,
                                                 int Step,
                                                 const clang::Expr *Cond);
  /// The loop's index declaration; its start recorded in \p IndexStart
  /// unless the trip count is recomputed (\p Bound).
  clang::Stmt *loopIndexInit(const clang::VarDecl *Index, bool Bound,
                             Stmts &Outer, clang::VarDecl *&IndexStart);
  /// `_n = max(0, b - a)` (+1 for <= and >=): the trip count, recomputed.
  clang::Stmt *recomputeTripCount(LoopInfo *LI, const clang::VarDecl *Index,
                                  const clang::BinaryOperator *Bound,
                                  int Step);
  /// A counted loop's body, forward and reverse; each iteration run again
  /// before its reverse if the loop is \p Recomputable (its bound is).
  void countedLoopBody(const clang::Stmt *Body, LoopInfo *LI,
                       const clang::VarDecl *Index,
                       const clang::ForStmt *Recomputable, Stmts &BodyFwd,
                       Stmts &BodyRev, Stmts &Again);
  /// A loop's condition and increment without effects, rebuilt plain.
  void plainLoopHeader(const clang::Expr *Cond, const clang::Expr *Inc,
                       clang::Expr *&FCond, clang::Expr *&FInc);
  /// The reverse of one iteration of a counted loop: the count down, the
  /// reverse index, the jump id, the recomputed iteration, the reverse.
  Stmts countedLoopReverseBody(LoopInfo *LI, clang::VarDecl *RI,
                               Stmts &Again, Stmts &BodyRev);
  /// The index of the reverse iteration, from the start and the count.
  clang::VarDecl *reverseLoopIndex(LoopInfo *LI, const clang::VarDecl *Index,
                                   clang::VarDecl *IndexStart, int Step);
  /// A new loop's bookkeeping (trip count; jump id if \p Jumps), not yet
  /// on the Loops stack.
  LoopInfo *newLoop(bool Jumps);
  /// A loop whose condition or increment changes differentiated values.
  void loopWithEffects(const clang::Stmt *L, const clang::Stmt *Init,
                       const clang::Expr *Cond, const clang::Expr *Inc,
                       const clang::Stmt *Body, Stmts &Fwd, Stmts &Rev);
  /// The reverse of one iteration of loopWithEffects's loop: the undo of
  /// the condition, body and increment in the order they ran.
  Stmts effectLoopReverseBody(LoopInfo *LI, bool IsDo, const clang::Expr *Cond,
                              Stmts &CondRev, Stmts &IncRev, Stmts &BodyRev);
  /// One evaluation of a loop condition or increment with side effects;
  /// returns its value (null for an increment).
  clang::Expr *loopHeaderExpr(const clang::Expr *E, Stmts &Fwd, Stmts &Rev);
  void jump(const clang::Stmt *J, Stmts &Fwd, Stmts &Rev);
  /// Pushes the values of frames [From, end), innermost first.
  void flush(size_t From, Stmts &Out);
  clang::Stmt *push(clang::VarDecl *V);
  clang::Stmt *pushValue(clang::Expr *E, clang::QualType T);
  clang::Stmt *pop(clang::VarDecl *V);
  /// Pushes a statement's recorded values at its end (\p Fwd) and pops
  /// them at the start of its reverse block (\p Rev): push_all / pop_all
  /// for several.
  void pushFrame(llvm::ArrayRef<clang::VarDecl *> Vs, Stmts &Fwd, Stmts &Rev);
  /// A local grad::tape<T> (the stateful map driver's record).
  clang::VarDecl *tapeFor(clang::QualType T);
  /// The stack (`grad::detail::stack &_stack`): a split half's last
  /// parameter; in a full pullback the thread's stack, declared on first
  /// use, with its top restored on exit.
  clang::VarDecl *stackVar();
  /// A split half's `_stack` parameter (null in a full pullback).
  clang::ParmVarDecl *stackParam() const;
  /// The jump-id variable and counter of the innermost loop or function.
  std::pair<clang::VarDecl *, unsigned *> jumpScope();
  /// Reverse blocks of a statement sequence, guarded after jumps.
  void sequence(llvm::ArrayRef<const clang::Stmt *> Body, Stmts &Fwd,
                Stmts &Rev);

  // Arrays.cpp: access paths, aliases and the roots of shadows.
  /// The variable whose storage \p E indexes (x in x[i], v in v[i], r for
  /// a local reference r).
  const clang::VarDecl *indexedVar(const clang::Expr *E) const;
  bool isElementAccess(const clang::Expr *E) const;
  clang::Expr *rebuildElement(const clang::Expr *E, bool Need, bool Plain);
  clang::Expr *rebuildPathImpl(const clang::Expr *E, bool Need, bool Plain,
                               bool NeedIdx);
  clang::Expr *rebuildBase(const clang::Expr *Base, bool NeedIdx);
  /// The path re-read in the reverse sweep (storage never written).
  clang::Expr *valPath(const clang::Expr *E);
  clang::Expr *valBase(const clang::Expr *BaseE);
  /// In the reverse sweep, alias \p VD declared where the reverse sweep
  /// cannot name it: its storage's base plus its recorded offset (`(A +
  /// _o0)` for `const double *Ai = A + i * n`), or null.
  clang::Expr *aliasValue(const clang::VarDecl *VD);
  /// \p AtRead: \p E is a read in the body, and storage that no write
  /// changes after it counts as read-only there.
  bool readOnly(const clang::Expr *E, bool AtRead = false) const;
  // Verify.cpp: run-time checks of what the analyses assume.
  /// "FILE:L:C: in 'f': What" for a check's message.
  std::string checkSite(clang::SourceLocation Loc, llvm::StringRef What) const;
  /// Verify mode, outside split halves and recomputed iterations.
  bool verifying() const;
  /// The forward sweep's read \p Read of read-only \p K, kept for
  /// verifyReread (verify mode); returns the value to use.
  clang::Expr *verifyRecord(const clang::Expr *K, clang::Expr *Read);
  struct CallPlan;
  /// Verify mode, in an iteration that may be run again for its reverse:
  /// \p Read, a read of memory the function was given, mixed into the
  /// iterations' hashes (IterationHashes); returns the value to use.
  clang::Expr *verifyMix(const clang::Expr *K, clang::Expr *Read);
  /// Verify mode, before the body of a loop whose iterations may be run
  /// again (\p Recomputable): its hash, reset at each iteration's start.
  clang::VarDecl *verifyIterationStart(const clang::ForStmt *Recomputable,
                                       const clang::VarDecl *Index,
                                       LoopInfo *LI, Stmts &BodyFwd);
  /// verifyMix for a read whose value the reverse sweep does not need.
  clang::Expr *verifyMixRead(const clang::Expr *K, clang::Expr *Read);
  /// Verify mode, the iterations of \p L run again: the hash of the first
  /// run travels on the stack; the run again compares its own with it
  /// (`verify_iteration`).
  void verifyIteration(const clang::ForStmt *L, clang::VarDecl *Hash,
                       Stmts &BodyFwd, Stmts &Again);
  /// verifyRecord's keeping, whatever \p K's side effects.
  clang::Expr *verifyKeep(const clang::Expr *K, clang::Expr *Read);
  /// Verify mode: a call of \p FD is run again before its pullback and
  /// compared with its value at the call (a free function returning a
  /// number, reading memory, writing nothing).
  bool verifiesCall(const clang::FunctionDecl *FD) const;
  /// \p Call, the call \p CE as the forward sweep makes it, its value kept
  /// when verifiesCall.
  clang::Expr *verifyCallValue(const clang::CallExpr *CE,
                               const clang::FunctionDecl *FD,
                               clang::Expr *Call);
  /// Before the pullback of the call \p CE (not split): `verify_recall(
  /// g(args), kept, "...")`.
  void verifyRecall(const clang::CallExpr *CE, const CallPlan &P,
                    Stmts &Out);
  /// \p Now, the reverse sweep's re-read of \p K, compared with what the
  /// forward sweep read (verify mode).
  clang::Expr *verifyReread(const clang::Expr *K, clang::Expr *Now);
  /// Checks at the entry of a pullback or forward half: distinct scalar
  /// references; for a [[grad]] function's pullback, adjoint shapes and,
  /// in verify mode, distinct parameters.
  void entryChecks(Stmts &Out);
  /// Always, at a user pullback's entry: adjoint containers have the
  /// shape of their parameters (`check_shape`).
  void shapeChecks(Stmts &Out);
  /// Pointer or reference parameters to one type do not start at the same
  /// address: two references to one number, one not const, always (\p
  /// ScalarRefs, `check_distinct`); the others, one of them written, in
  /// verify mode (`verify_distinct`).
  void distinctChecks(Stmts &Out, bool ScalarRefs);
  /// `auto _verify_ = make_verify_tape(_stack, "...")`, or null.
  clang::VarDecl *verifyTape(clang::VarDecl *Stack);
  /// Parameters, globals and top-level locals are visible to the reverse
  /// sweep.
  bool inScopeInReverse(const clang::VarDecl *VD) const;
  /// The adjoint lvalue of element access \p E (d_x[i], (*d_v)[i]).
  clang::Expr *adjointElement(const clang::Expr *E);
  clang::Expr *adjointStorage(const clang::VarDecl *VD);
  /// push_back, resize, insert, ... on a std::vector (Containers.cpp).
  bool isContainerMutation(const clang::CallExpr *CE) const;
  /// Emits the mutation into the forward sweep, its undo on the shadow
  /// as a side effect of the statement; returns the forward call.
  clang::Expr *containerMutation(const clang::CallExpr *CE);
  /// The call being modelled by containerMutation (Containers.cpp).
  struct VectorMutation;
  /// The values that went into a vector, each with its adjoint's variable.
  using MutationFlows =
      llvm::SmallVector<std::pair<const clang::Expr *, clang::VarDecl *>, 4>;
  /// Records the vector's size before the call, for the reverse sweep.
  clang::VarDecl *recordMutatedSize(VectorMutation &M);
  /// insert(pos, ...): records the position (and \p CountExpr) as indices.
  void recordMutationPosition(VectorMutation &M, clang::Expr *CountExpr);
  /// The forward call's arguments for each kind of mutation; false after
  /// an error.
  bool forwardMutationOperands(VectorMutation &M);
  /// assign({x, y}), insert(pos, {x, y}): the braced values, forward.
  bool forwardBracedElements(VectorMutation &M);
  /// v.swap(w): refuses a w that is not a like vector variable.
  bool forwardSwapOperand(VectorMutation &M);
  /// insert of one value, a count of one value, or a pointer range.
  bool forwardInsertOperands(VectorMutation &M);
  /// erase(pos) and erase(first, last), with indices for the reverse.
  bool forwardEraseOperands(VectorMutation &M);
  /// The reverse sweep's undo of the mutation on the shadow.
  void undoMutation(VectorMutation &M, Stmts &R, MutationFlows &Flows);
  /// The braced values' adjoints back; the shadow as it was.
  void undoBracedElements(VectorMutation &M, Stmts &R, MutationFlows &Flows);
  /// insert of a count or a range: the adjoints back, the elements erased.
  void undoCountedInsert(VectorMutation &M, Stmts &R, MutationFlows &Flows);
  /// erase: zero elements back at the position.
  void undoErase(VectorMutation &M, Stmts &R);
  /// resize, assign, clear: the new elements' adjoints summed, old size.
  void undoResize(VectorMutation &M, Stmts &R, MutationFlows &Flows);
  /// `shadow(p)[k] += shadow(v)[At + k]` for k < \p N: the adjoints of
  /// elements copied from memory go back to it.
  void mutatedElementsToRange(VectorMutation &M, clang::Expr *At,
                              clang::Expr *N, Stmts &R);
  /// `m = other;`, `m = make(x);` on a local whose shadow is a copy (an
  /// object keeping its elements in a container member, a vector of
  /// vectors) (Declarations.cpp): the old
  /// shadow is saved and a new one made from the new value; the reverse
  /// sweep sends the new value's adjoint to what it came from and restores
  /// the old shadow.
  bool isObjectAssignment(const clang::CallExpr *CE) const;
  clang::Expr *objectAssignment(const clang::CallExpr *CE);
  /// True if \p VD's shadow is the caller's adjoint (a container passed
  /// by reference): sized by the caller for the value on exit.
  bool shadowFromCaller(const clang::VarDecl *VD) const;
  /// After a call that may change the size of std::vector \p Obj: its
  /// local shadow follows (forward sweep).
  void resizeShadow(const clang::Expr *Obj, Stmts &Out);
  /// Loop-local vectors declared in \p Body (a block, or an if or switch
  /// header): registers their exit sizes in the current frame, before the
  /// statements are built.
  void recordExitSizes(llvm::ArrayRef<const clang::Stmt *> Body, Stmts &Fwd);
  /// At the block's end: the sizes, and the shadows resized to them first
  /// in the block's reverse.
  void restoreExitSizes(Stmts &Fwd, Stmts &Rev);
  /// At jump \p J leaving frame \p F: the sizes of the vectors declared
  /// before it.
  void exitSizesAtJump(const clang::Stmt *J, size_t F, Stmts &Fwd);
  /// False, after an error at \p At, if \p VD is a vector declared in a
  /// loop whose size is not restored per iteration.
  bool loopLocalSized(const clang::VarDecl *VD, const clang::Expr *At);
  /// The local shadow of by-value container parameter \p P, shaped like
  /// its entry value.
  clang::Expr *localParamShadow(const clang::ParmVarDecl *P);
  /// Aliases (local pointers and references): the base of the storage
  /// root \p R as a pointer to \p Pointee (primal or shadow side);
  /// \p Elements tells whether offsets count elements or bytes; \p Path
  /// leads to a container member of R whose elements the alias points into
  /// (Activity::memberPathOf).
  clang::Expr *aliasBase(const clang::VarDecl *R, clang::QualType Pointee,
                         bool Shadow, bool &Elements,
                         llvm::ArrayRef<const clang::FieldDecl *> Path = {});
  /// The offset of alias \p VD into its storage, now (forward sweep).
  clang::Expr *aliasOffset(const clang::VarDecl *VD);
  /// At the declaration of an alias never re-seated: one offset for all
  /// uses (inside loops, recorded with the enclosing block).
  void declareAlias(const clang::VarDecl *VD);
  /// `double *a = *pa;` (Activity::isLoadedAlias): its shadow is the pointer
  /// loaded from the same place in shadow memory, kept in a variable of the
  /// pullback at the declaration.
  void declareLoadedAlias(const clang::VarDecl *VD);
  llvm::DenseMap<const clang::VarDecl *, clang::VarDecl *> LoadedShadows;
  /// A use of an alias whose shadow the reverse sweep needs: its offset.
  void noteAliasUse(const clang::DeclRefExpr *Use);
  /// A definition `q = e` (or the initializer) of a pointer that points
  /// into several storages: records which one, in q's root index.
  void noteAliasDef(const clang::VarDecl *VD, const clang::Expr *RHS,
                    Stmts &Out);
  /// The bases of the storages of multi-root pointer \p VD, combined by its
  /// root index \p Index (primal or shadow side), or null. When one of them
  /// is not an array of the pointee (`c ? x : s.m`: a scalar and a struct)
  /// the bases are `char` pointers and \p Bytes is set: offsets from them
  /// are in bytes.
  clang::Expr *multiRootBase(const clang::VarDecl *VD, clang::Expr *Index,
                             bool Shadow, bool &Bytes);
  /// The shadow of an alias at \p Use: root shadow plus offset.
  clang::Expr *aliasShadow(const clang::DeclRefExpr *Use);
  /// True if \p VD's shadow is its root's shadow plus an offset recorded
  /// per use (aliases, pointer parameters the body moves).
  bool tracksOffset(const clang::VarDecl *VD) const;
  /// A pointer parameter's value on entry (saved when it is re-seated).
  clang::VarDecl *entryPointer(const clang::VarDecl *P);
  llvm::DenseMap<const clang::VarDecl *, clang::VarDecl *> AliasOffsets;
  llvm::DenseMap<const clang::DeclRefExpr *, clang::VarDecl *> AliasUses;
  llvm::DenseMap<const clang::VarDecl *, clang::VarDecl *> EntryPointers;
  /// Pointer results of helpers (`*argmax(a, n)`): their offset into the
  /// argument they point into, recorded where they are computed.
  llvm::DenseMap<const clang::Expr *, clang::VarDecl *> ResultOffsets;
  /// ... and the variable holding the pointer in the forward sweep.
  llvm::DenseMap<const clang::Expr *, clang::VarDecl *> ResultPointers;
  /// The forward sweep of the pointer a helper returns into its argument
  /// \p Arg, with its offset recorded for the reverse sweep.
  clang::Expr *pointerResult(const clang::CallExpr *CE, const clang::Expr *Arg,
                             bool NeedIdx);
  /// Uses of aliases of heap memory allocated in loops: the shadow pointer.
  llvm::DenseMap<const clang::DeclRefExpr *, clang::VarDecl *> AliasPtrs;
  /// Multi-root pointers: the current root index, and at each use the
  /// recorded (index, offset).
  llvm::DenseMap<const clang::VarDecl *, clang::VarDecl *> RootIndex;
  /// For a definition `t = a` (or `a + 1`) of a pointer into the storages
  /// \p Rs, where a points into several storages: the index of a's storage
  /// among \p Rs now; null if \p P is not such a pointer.
  clang::Expr *rootIndexOf(const clang::Expr *P,
                           llvm::ArrayRef<const clang::VarDecl *> Rs);
  /// Errors for the pointers made to point into other memory that the
  /// pullback cannot follow (Aliases.cpp).
  void reportReseated();
  llvm::DenseMap<const clang::DeclRefExpr *,
                 std::pair<clang::VarDecl *, clang::VarDecl *>>
      MultiUses;
  /// Pointers owning heap memory allocated outside loops.
  llvm::DenseSet<const clang::VarDecl *> StableOwners;
  /// The declaration of a pointer owning heap memory: its shadow.
  void ownerDecl(const clang::VarDecl *VD, Stmts &Blocks);

  // ShadowRoots (Arrays.cpp).
  clang::Expr *indexValue(const clang::Expr *E) override;
  clang::Expr *rootShadow(const clang::DeclRefExpr *Ref) override;
  clang::Expr *thisShadow(const clang::Expr *Use) override;
  clang::Expr *resultOffset(const clang::Expr *Call) override;
  std::nullptr_t noShadow(const clang::Stmt *S,
                          llvm::StringRef What) override;

  // Containers.cpp: initializers and mutations of arrays and containers.
  struct StorageInit {
    clang::Expr *FwdInit = nullptr;
    bool Direct = false;
    /// Initializers that carry derivatives, by element index path.
    llvm::SmallVector<
        std::pair<llvm::SmallVector<unsigned, 2>, const clang::Expr *>, 8>
        Elems;
    /// v(n, x): every element is x.
    const clang::Expr *Fill = nullptr;
    /// v(p, p + n): the elements come from the memory at p.
    const clang::Expr *RangeFrom = nullptr;
  };
  bool storageInit(const clang::VarDecl *VD, const clang::Expr *Init,
                   StorageInit &SI);
  // Its cases (StorageInit.cpp), false after an error: a pair from two
  // values; a constructor copying its parameters into members; any other
  // constructor (`v(n, x)`, `v(p, p + n)`), and its floating argument A
  // (position I of N) that fills every element.
  bool pairStorageInit(clang::QualType T,
                       llvm::ArrayRef<const clang::Expr *> Els,
                       StorageInit &SI);
  bool memberwiseStorageInit(
      clang::QualType T, const clang::CXXConstructExpr *CE,
      llvm::ArrayRef<std::pair<const clang::FieldDecl *, const clang::Expr *>>
          MW,
      StorageInit &SI);
  bool constructorStorageInit(clang::QualType T,
                              const clang::CXXConstructExpr *CE,
                              StorageInit &SI);
  bool fillStorageArg(clang::QualType T, const clang::CXXConstructExpr *CE,
                      unsigned N, unsigned I, const clang::Expr *A,
                      StorageInit &SI);
  clang::Expr *rebuildInitList(const clang::InitListExpr *IL,
                               llvm::SmallVector<unsigned, 2> Prefix,
                               StorageInit &SI);
  void reverseStorageInit(const StorageInit &SI, clang::VarDecl *A,
                          Stmts &Out);

  // Calls.cpp: calls to differentiated functions.
  struct CallPlan {
    PullbackEntry *PE = nullptr;
    /// Forward half now, reverse half later (else: the primal now, the
    /// pullback later).
    bool Split = false;
    /// Writes memory: a side effect of its statement, reversed after it;
    /// its value (if any) has the adjoint local Seed.
    bool Hoisted = false;
    clang::VarDecl *Seed = nullptr;
  };
  llvm::DenseMap<const clang::Expr *, CallPlan> Plans;
  /// Calls the forward sweep already emitted as side effects (container
  /// mutations).
  llvm::DenseSet<const clang::Expr *> SideEffectCalls;
  /// Which parameters get adjoints at this call: every differentiable
  /// scalar, and pointers, references and objects whose memory carries
  /// derivatives here.
  WrtMask callMask(const clang::FunctionDecl *FD,
                   llvm::ArrayRef<const clang::Expr *> Args);
  /// The const member function \p MD's parameters, and its object only if
  /// \p Obj reaches differentiated data (`r(a, b)` with `r` holding
  /// references to data only: no adjoint object).
  WrtMask objectMask(const clang::FunctionDecl *MD, const clang::Expr *Obj);
  /// True if \p A (a value, pointer or lvalue) reaches differentiated data.
  bool memoryActive(const clang::Expr *A);
  /// True if memory the callee reads through an argument may change before
  /// the reverse sweep (or cannot be re-read then).
  bool memoryUnstable(const clang::FunctionDecl *FD,
                      llvm::ArrayRef<const clang::Expr *> Args);
  /// The first argument of memoryUnstable's kind (or null).
  const clang::Expr *unstableArg(const clang::FunctionDecl *FD,
                                 llvm::ArrayRef<const clang::Expr *> Args);
  /// A member call's pullback runs the method's body again in the reverse
  /// sweep: an error if memory its pointer or reference arguments reach may
  /// have changed by then.
  bool memberArgsStable(const clang::CXXMethodDecl *MD,
                        llvm::ArrayRef<const clang::Expr *> Args);
  /// True if the memory that argument \p I of \p CE points to keeps its
  /// values from the call until the reverse sweep passes the call again,
  /// and nothing the callee writes through its other arguments reaches it.
  bool stableMemory(const clang::CallExpr *CE, unsigned I) const;
  /// The entry whose halves \p CE calls: \p PE, or its variant that reads
  /// again the pointer-to-const arguments stableMemory() finds.
  PullbackEntry *stableHalves(const clang::CallExpr *CE, PullbackEntry &PE);
  /// The forward sweep of a call to a function differentiated through its
  /// own derivative.
  clang::Expr *rebuildUserCall(const clang::CallExpr *CE,
                               const clang::FunctionDecl *FD, bool Need);
  // Its steps (Calls.cpp): the refusals before the callee is
  // differentiated (true after an error); the plan (split, hoisted; false
  // after an error); the arguments, recorded; a hoisted call's forward half
  // and the reverse it leaves for after the statement.
  bool userCallRefused(const clang::CallExpr *CE, const clang::FunctionDecl *FD,
                       bool IntoArg);
  bool planUserCall(const clang::CallExpr *CE, const clang::FunctionDecl *FD,
                    bool IntoArg, CallPlan &P);
  void userCallArgs(const clang::CallExpr *CE, const clang::FunctionDecl *FD,
                    const CallPlan &P,
                    llvm::SmallVectorImpl<clang::Expr *> &Args);
  clang::Expr *hoistUserCall(const clang::CallExpr *CE,
                             const clang::FunctionDecl *FD, clang::Expr *Call,
                             bool IntoArg);
  /// True if \p K, passed for a parameter of type \p PT, is a temporary
  /// struct (by value or const reference): recorded, with a local adjoint.
  bool temporaryObject(clang::QualType PT, const clang::Expr *K) const;
  /// The zero adjoint of such a temporary \p K of type \p T (as many
  /// elements as its braces).
  clang::Expr *temporaryZero(clang::QualType T, const clang::Expr *K);
  /// Its reverse: the callee's pullback or reverse half.
  void backpropUserCall(const clang::CallExpr *CE, clang::Expr *Adj,
                        Stmts &Out);
  // Its steps (Calls.cpp), false after an error: the values the call was
  // made with; the adjoint argument of parameter I (of pointee type AT);
  // a scalar passed by reference that may share memory with another
  // argument (Done if it was passed).
  struct CallAdjoints;
  bool userCallValues(const clang::CallExpr *CE, const clang::FunctionDecl *FD,
                      const CallPlan &P,
                      llvm::SmallVectorImpl<clang::Expr *> &Args);
  bool adjointArgument(const clang::CallExpr *CE, const clang::FunctionDecl *FD,
                       unsigned I, clang::QualType AT, CallAdjoints &CA,
                       Stmts &Out);
  bool sharedRefAdjoint(const clang::CallExpr *CE,
                        const clang::FunctionDecl *FD, unsigned I,
                        clang::QualType AT, CallAdjoints &CA, Stmts &Out,
                        bool &Done);
  bool sharedRefArgumentError(const clang::CallExpr *CE,
                              const clang::FunctionDecl *FD,
                              const clang::Expr *A,
                              const clang::ParmVarDecl *Other, bool Maybe);
  /// Blocks hoisting side effects out of expressions (branches of `?:`,
  /// right operands of `&&` and `||`, loop conditions).
  unsigned NoHoist = 0;
  const char *NoHoistWhy = nullptr;
  struct NoHoistScope {
    PullbackBuilder &P;
    const char *Saved;
    bool On;
    NoHoistScope(PullbackBuilder &P, const char *Why)
        : P(P), Saved(P.NoHoistWhy), On(Why != nullptr) {
      if (On) {
        ++P.NoHoist;
        P.NoHoistWhy = Why;
      }
    }
    ~NoHoistScope() {
      if (On) {
        --P.NoHoist;
        P.NoHoistWhy = Saved;
      }
    }
  };
  /// Side effects inside expressions (Effects.cpp): run before the
  /// statement, reversed after it; the value is the target after the
  /// effect (or before it, for x++).
  clang::Expr *hoistAssignment(const clang::BinaryOperator *BO, bool Need);
  clang::Expr *hoistIncrement(const clang::UnaryOperator *UO, bool Need);
  /// The expressions hoisted out of their statement (backprop sends their
  /// adjoint to their target).
  llvm::DenseSet<const clang::Expr *> HoistedEffects;

  // Map.cpp
  /// "map", "broadcast", "sum", "dot" or "matmul" for calls to the runtime
  /// primitives, else empty.
  llvm::StringRef runtimeName(const clang::CallExpr *CE) const;
  clang::Expr *rebuildRuntime(const clang::CallExpr *CE, llvm::StringRef Name,
                              bool Need, bool Plain);
  // Its steps (Map.cpp): a reduction (`sum`, `dot`, ...); the remark on
  // how a map's callable is lowered; the refusal of a stateful callable
  // changing what the reverse sweep cannot restore (true after the error);
  // the callable with its captures bound (null after an error).
  clang::Expr *rebuildReduction(const clang::CallExpr *CE, llvm::StringRef Name,
                                bool Need, bool Plain);
  void remarkMapLowering(const clang::CallExpr *CE, const LambdaInfo &Info,
                         llvm::StringRef Name);
  bool statefulCapturesRefused(const clang::CallExpr *CE,
                               const LambdaInfo &Info, llvm::StringRef Name);
  clang::Expr *mapCallable(const clang::CallExpr *CE, const LambdaInfo &Info,
                           clang::FunctionDecl *Elem, bool Active);
  void backpropRuntime(const clang::CallExpr *CE, llvm::StringRef Name,
                       clang::Expr *Adj, Stmts &Out);
  void backpropMap(const clang::CallExpr *CE, llvm::StringRef Name,
                   clang::Expr *Adj, Stmts &Out);
  /// Its reverse lowering: the callable's pullback, called per element
  /// with the seed, the packed arguments and their adjoints (false after
  /// an error); the captures and their adjoints.
  bool reverseLoweredMap(const clang::CallExpr *CE, LambdaInfo &Info,
                         llvm::ArrayRef<clang::Expr *> SeedAndPacks,
                         Stmts &Out);
  void mapCaptureAdjoints(const clang::CallExpr *CE, const LambdaInfo &Info,
                          const PullbackSignature &CS,
                          llvm::SmallVectorImpl<clang::Expr *> &Caps,
                          llvm::SmallVectorImpl<clang::Expr *> &DCaps,
                          Stmts &Out);
  /// &adjoint of \p Arg: its adjoint storage, or a zeroed temporary whose
  /// content is propagated later (or nullptr when \p Optional and inactive).
  clang::Expr *addressOf(clang::Expr *E);
  clang::Expr *adjointTarget(const clang::Expr *Arg, Stmts &Out,
                             Deferred &Later, bool Optional);

  // Code without derivatives, replayed as written (Replay.cpp, glue in
  // Inactive.cpp).
  clang::Expr *replay(const clang::Expr *E);
  /// The replayer of this builder's locals (and of capture-free lambdas).
  Replayer replayer();
  /// True if \p E (an initializer or argument) mentions a pointer, array or
  /// object that reaches differentiated storage.
  bool pointsIntoActive(const clang::Expr *E);
  /// The first place that stores a pointer into differentiated memory in
  /// the local \p VD (its initializer, an assignment to it or to a part of
  /// it, a call on it or given it with such a pointer), or null.
  const clang::Expr *activePointerStore(const clang::VarDecl *VD);
  /// \p E as a statement whose value is discarded.
  clang::Stmt *replayStmt(const clang::Expr *E);
  /// A local without derivatives, declared and initialised as written.
  clang::VarDecl *replayDecl(const clang::VarDecl *VD);
  /// True if \p St writes no differentiated storage and does not jump out
  /// of itself (return, break, ...): the forward sweep replays it as
  /// written and it has no reverse.
  bool replayable(const clang::Stmt *St);
  /// True if \p E mentions differentiated storage (an active variable or an
  /// active `this`).
  bool mentionsActive(const clang::Stmt *E);
  /// \p E as the user wrote it (for diagnostics).
  std::string spelled(const clang::Expr *E) const;

  /// Reports an unsupported construct; returns null.
  std::nullptr_t unsupported(const clang::Stmt *S, llvm::StringRef What);
  std::nullptr_t unsupported(const clang::Decl *D, llvm::StringRef What);
  std::nullptr_t unsupportedAt(clang::SourceLocation Loc,
                               llvm::StringRef What);

  DerivativeRequests &D;
  PullbackEntry &Entry;
  clang::Sema &S;
  clang::ASTContext &Ctx;
  const clang::FunctionDecl *Primal;
  clang::FunctionDecl *PB;
  PullbackSignature Sig;
  SemaBuilder B;
  Activity Act;
  bool Failed = false;
  /// Whether the runtime declares grad::detail::sin_cos: 0 not looked up
  /// yet, 1 yes, 2 no.
  unsigned HasSinCos = 0;

  llvm::DenseMap<const clang::VarDecl *, clang::VarDecl *> VarMap;
  llvm::DenseMap<const clang::VarDecl *, clang::VarDecl *> Adjoints;
  /// The slots holding the shadows of element owners (elementOwnerDecl).
  llvm::DenseMap<const clang::VarDecl *, clang::VarDecl *> OwnerSlots;
  /// In a split derivative, the slots of element owners declared outside
  /// loops, each with the flag set where it is declared: saved at the end
  /// of the forward half, restored where the reverse half starts.
  llvm::SmallVector<std::pair<clang::VarDecl *, clang::VarDecl *>, 1>
      SplitOwners;
  llvm::DenseMap<const clang::Expr *, clang::VarDecl *> Values;
  llvm::DenseSet<const clang::VarDecl *> TopLevelLocals;
  llvm::DenseSet<const clang::VarDecl *> Immutable;
  llvm::DenseSet<const LambdaInfo *> Remarked;
  llvm::DenseMap<const clang::CallExpr *, clang::VarDecl *> StatefulTape;
  llvm::DenseMap<std::pair<const clang::CallExpr *, const clang::VarDecl *>,
                 clang::VarDecl *>
      CapSnap;
  /// The forward statement list being filled by fwd().
  Stmts *Cur = nullptr;
  Stmts Prologue;
  /// Verify mode: what the forward sweep read where the reverse sweep
  /// reads again (verifyRecord).
  llvm::DenseMap<const clang::Expr *, clang::VarDecl *> VerifyValues;
  /// Verify mode: the temporaries of VerifyValues.
  llvm::DenseSet<const clang::VarDecl *> VerifyTemps;
  /// Verify mode: the hashes of what the iterations being built (of the
  /// loops around whose iterations may be run again) read of their
  /// caller's memory, outermost first.
  llvm::SmallVector<clang::VarDecl *, 2> IterationHashes;
  /// Declarations of local structs and enums, first in the derivative.
  Stmts LocalTypes;
  llvm::DenseSet<const clang::Decl *> LocalTypeSet;
  /// Variables declared by statements that failed (see stmt()).
  llvm::DenseSet<const clang::VarDecl *> Poisoned;
  /// By-value container parameters with a shadow of their own (written in
  /// the body, or not in the wrt list): added to the caller's adjoint at
  /// the end.
  llvm::SmallVector<std::pair<const clang::ParmVarDecl *, clang::VarDecl *>, 2>
      LocalParamShadows;
  /// Statements at the start of the forward sweep (dropped with it in a
  /// reverse half).
  Stmts FwdStart;
  llvm::StringSet<> Names;
  /// Returns that end the function on their path (last statement, or
  /// last in both branches of a final `if`): no jump needed.
  llvm::SmallPtrSet<const clang::Stmt *, 4> TailReturns;
  /// The pullback's parameters by ABI index; in the forward half of a
  /// split derivative, the seed and adjoints are placeholders that only
  /// the (discarded) reverse sweep mentions.
  llvm::SmallVector<clang::ParmVarDecl *, 8> Params;
  clang::ParmVarDecl *param(int I) const { return Params[I]; }
  SplitHalf Half;
  /// Temporaries in creation order: a split derivative's frame.
  std::vector<clang::VarDecl *> Hoisted;
  /// The primal's value, in the forward half.
  clang::VarDecl *RetVal = nullptr;
  /// RetVal, declared on first use.
  clang::VarDecl *returnValueVar();
  /// `_value = V;` (a class without a plain zero: kept in a slot,
  /// `_value.emplace(V)`), and what the forward half returns.
  clang::Stmt *setReturnValue(clang::Expr *V);
  /// A call whose forward-half value initialises a declaration as written
  /// (`Mat n = scale(m, x);`): not recorded again.
  const clang::Expr *DeclaredCall = nullptr;
  clang::Expr *returnedValue();
  bool RetSlot = false;
  /// Checks what a function returning a non-const reference returns (a
  /// reference parameter or `*this`); false after reporting it.
  bool referenceReturn(const clang::Expr *RV, Stmts &Fwd);
  clang::VarDecl *Stack = nullptr;
  /// The primal parameters a reverse half does not take (placeholders).
  llvm::SmallPtrSet<const clang::ParmVarDecl *, 4> Dropped;
  /// True (after reporting, unless a construct was reported) if building
  /// failed.
  bool failedBuilding(llvm::StringRef What);
  /// Assembles the body of a split half.
  bool finishSplit(Stmts &Fwd, Stmts &Rev, Stmts &Epilogue);
  /// Each local vector's adjoint with the temporary for its final size.
  using SplitSizes = llvm::SmallVector<
      std::pair<const clang::VarDecl *, clang::VarDecl *>, 4>;
  /// The adjoints the forward sweep touches, and the sizes of those that
  /// are vectors; false after refusing a container of containers.
  bool splitForwardAdjoints(
      Stmts &Fwd, llvm::SmallVectorImpl<const clang::VarDecl *> &FwdAdjoints,
      SplitSizes &Sizes);
  /// The temporaries the reverse half may read before it assigns them.
  llvm::SmallVector<clang::Expr *, 16>
  splitFrame(Stmts &Rev, Stmts &Epilogue, const SplitSizes &Sizes);
  /// The forward half's body: its locals, the sweep, the frame pushed,
  /// the value; false after an error.
  bool forwardHalfBody(Stmts &Fwd,
                       llvm::ArrayRef<const clang::VarDecl *> FwdAdjoints,
                       const SplitSizes &Sizes,
                       llvm::ArrayRef<clang::Expr *> Frame, Stmts &All);
  /// The reverse half's body: the frame popped, the sizes restored, the
  /// sweep; false if it would read a dropped parameter.
  bool reverseHalfBody(Stmts &Rev, Stmts &Epilogue, const SplitSizes &Sizes,
                       llvm::ArrayRef<clang::Expr *> Frame, Stmts &All);
  // The steps of build() (Statements.cpp).
  void bindParams();
  bool reportActivityProblems(const clang::CompoundStmt *Body);
  void detectEarlyReturns(const clang::CompoundStmt *Body, Stmts &Fwd);
  bool bindPrimalParams();
  void storeAdjoints(Stmts &Epilogue);
  bool assemble(const Stmts &Fwd, const Stmts &Rev, const Stmts &Epilogue);
  std::vector<Frame> Frames;
  std::vector<LoopInfo *> Loops;
  std::vector<std::unique_ptr<LoopInfo>> LoopStore;
  llvm::DenseMap<const clang::Type *, clang::VarDecl *> Tapes;
  bool EarlyReturn = false;
  clang::VarDecl *RetFlag = nullptr;
  unsigned NextRetId = 1;
  clang::LabelDecl *FwdEnd = nullptr;
  /// Canonical loop indices, recomputed in the reverse loop.
  llvm::DenseMap<const clang::VarDecl *, clang::VarDecl *> RevIndex;

  // Recompute.cpp: iterations run again just before their reverse.
  /// True if each iteration of the counted loop \p L (index \p Index) can
  /// run again in the reverse sweep with the same result: it reads only
  /// what nothing changes during the loop and after it (parameters and
  /// globals the function never writes, locals no later write changes,
  /// indices of enclosing counted loops) and storage it writes first
  /// itself (`v = e;`, or `for (int c = 0; c < n; ++c) a[c] = e;` before
  /// reads of `a` at indices below n); writes only locals declared in the
  /// body or at the function's top level; calls only math functions.
  /// Otherwise sets \p Why. \p Ops: its operations, weighted.
  bool iterationRecomputable(const clang::ForStmt *L,
                             const clang::VarDecl *Index, std::string &Why,
                             unsigned &Ops) const;
  /// Builds the body of \p L again as the reverse sweep would recompute
  /// it; if that saves enough tape traffic, the forward body loses its
  /// pushes, \p Again gets the recomputation and \p BodyRev the reverse
  /// that reads its values.
  bool recomputeIterations(const clang::ForStmt *L,
                           const clang::VarDecl *Index, Stmts &BodyFwd,
                           Stmts &BodyRev, Stmts &Again);
  /// Values \p Sts push on the stack (a loop's body counted 8 times).
  unsigned pushCount(llvm::ArrayRef<clang::Stmt *> Sts) const;
  /// \p S without its pushes on the stack (null if it is one).
  clang::Stmt *withoutPushes(clang::Stmt *S);
  /// The loop whose body is being built as the reverse sweep recomputes
  /// it (readOnly() may then read its scratch in place).
  const clang::ForStmt *RecomputeRoot = nullptr;
  unsigned RecomputedLoops = 0;
};

/// True if \p VD is a pointer or reference to memory that holds no
/// floating data (`int *idx = new int[n]`, `const char *msg`, `int &k`):
/// declared as written, without a shadow.
bool plainPointer(const clang::VarDecl *VD);

} // namespace grad

#endif
