//===- Consumer.h - Driving differentiation in one TU -----------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The Differentiator owns the work list of pullbacks to define; the
/// GradConsumer feeds it top-level declarations as the parser completes
/// them and hands every defined pullback to an emitter (CodeGen in the
/// plugin, a printer in grad-dump).
///
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_CONSUMER_H
#define CLANG_GRAD_CONSUMER_H

#include "driver/CallableViews.h"
#include "driver/Registry.h"
#include "lift/Lift.h"
#include "lift/Options.h"
#include "lift/Requests.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/DeclGroup.h"
#include "clang/Sema/SemaConsumer.h"
#include <functional>
#include <vector>

namespace clang {
class Sema;
class CompilerInstance;
} // namespace clang

namespace grad {

class Differentiator : public DerivativeRequests {
public:
  using Emitter = std::function<void(clang::FunctionDecl *)>;
  Differentiator(clang::Sema &S, const Options &Opts, Emitter Emit)
      : S(S), Opts(Opts), Emit(std::move(Emit)) {}

  clang::Sema &sema() override { return S; }
  const Options &options() const override { return Opts; }

  /// Defines the pullbacks that \p D (a definition just completed) allows.
  void handleDecl(clang::Decl *D);
  /// The pullback to call for \p Callee at \p Loc (while building
  /// \p Caller); null after reporting why there is none.
  /// \p Only restricts the adjoints to some parameters (default: all).
  PullbackEntry *calleePullback(const clang::FunctionDecl *Callee,
                                clang::SourceLocation Loc,
                                const PullbackEntry &Caller,
                                bool Queue = true,
                                const WrtMask *Only = nullptr) override;
  /// The pushforward to call for \p Callee at \p Loc while building
  /// \p Caller's (declared and queued here), with \p Lanes directions
  /// (the caller's); \p Linear for a vector pullback's callees
  /// (PushforwardEntry::Linear); null with \p Why.
  PushforwardEntry *calleePushforward(const clang::FunctionDecl *Callee,
                                      clang::SourceLocation Loc,
                                      const clang::FunctionDecl *Requester,
                                      std::string &Why,
                                      const WrtMask *Drop = nullptr,
                                      const WrtMask *Only = nullptr,
                                      unsigned Lanes = 0,
                                      bool Linear = false) override;
  /// Declares the forward and reverse halves of \p E (for calls that
  /// need them whatever useSplit decided) and queues their definition.
  /// Declares and queues \p E's halves (\p OtherUnits: only for callers
  /// in other translation units).
  void ensureHalves(PullbackEntry &E, bool OtherUnits = false) override;
  /// A caller in this translation unit uses \p E's halves: no longer only
  /// for other ones (halves that failed quietly are built again).
  void mineNow(PullbackEntry &E);
  /// Marks \p E's pullback as needed and queues its definition.
  void queue(PullbackEntry *E) override;
  /// True if calls of \p E's function use its split derivative (declared
  /// and queued here); Split.cpp.
  bool useSplit(PullbackEntry &E, clang::SourceLocation Loc) override;
  /// End of the translation unit: reports callees that never got a body.
  void finish();
  /// The "requested here" note for a failing pullback.
  void noteRequest(const PullbackEntry &E) override;
  void noteForwardRequest(const PushforwardEntry &E) override;
  /// True the first time an error of \p Primal's derivative is reported at
  /// \p Loc (its variants and halves are built separately).
  bool firstErrorAt(clang::SourceLocation Loc,
                    const clang::FunctionDecl *Primal) override {
    return ErrorsAt.insert({Loc.getRawEncoding(), Primal}).second;
  }
  /// Reports that the runtime is missing (once per translation unit).
  void needRuntime(clang::SourceLocation Loc, const PullbackEntry &E) override;

  // Lambdas.cpp.
  using DerivativeRequests::lambdaInfo;
  using DerivativeRequests::liftFunction;
  LambdaInfo *lambdaInfo(const clang::Expr *Callable,
                         const clang::FunctionDecl *Primal,
                         const PullbackEntry *Caller,
                         const clang::FunctionDecl *Op = nullptr) override;
  clang::FunctionDecl *liftFunction(LambdaInfo &Info, unsigned Slots,
                                    const clang::FunctionDecl *Primal,
                                    const PullbackEntry *Caller) override;

  // CallableViews.cpp.
  /// The view of \p Callee for the callables \p Bindings (one per
  /// parameter, empty for the parameters that hold none), made on first
  /// use; null View with a Refusal when there is none.
  const CallableView *callableView(const clang::FunctionDecl *Callee,
                                   llvm::ArrayRef<Binding> Bindings,
                                   const Requester &Caller);
  /// The view \p FD is, or null.
  const CallableView *viewOf(const clang::FunctionDecl *FD) const;
  /// Reports once why the lambda \p Arg passed to \p FD is refused.
  void refuseCallable(const clang::Expr *Arg, const clang::FunctionDecl *FD,
                      llvm::StringRef Why, const Requester &Caller);

  PullbackEntry *stableVariant(PullbackEntry &Base,
                               const WrtMask &Stable) override;
  const std::vector<std::unique_ptr<PullbackEntry>> &entries() override;
  bool isGenerated(const clang::FunctionDecl *FD) override;
  clang::FunctionDecl *userDerivative(const clang::FunctionDecl *Primal,
                                      const PullbackSignature &Sig) override;

  /// Every pullback defined so far, in definition order.
  const std::vector<clang::FunctionDecl *> &defined() const { return Done; }

private:
  llvm::DenseSet<std::pair<unsigned, const clang::FunctionDecl *>> ErrorsAt;
  /// Entries whose halves for other translation units failed quietly
  /// (defineSplit): warned about at the end of drain().
  std::vector<PullbackEntry *> QuietHalves;
  void define(PullbackEntry *E, const clang::FunctionDecl *Def);
  void defineSplit(PullbackEntry *E);
  /// Queues the definition of \p E's pullback if it is needed and its
  /// primal has a body.
  void enqueue(PullbackEntry *E);
  /// The pullback of a split function: both halves, one after the other.
  bool defineWrapper(PullbackEntry *E);
  void drain();
  /// Does \p FD call a function differentiated through its own derivative.
  bool callsFunctions(const clang::FunctionDecl *FD,
                      clang::SourceLocation Loc);
  /// Is the runtime's frame store declared.
  bool hasFrames();
  /// Are \p FD's halves inlined into their callers: a helper without
  /// `[[grad]]` whose body, with the bodies of the callees inlined into it,
  /// is small (Split.cpp).
  bool inlineHalves(const clang::FunctionDecl *FD);
  /// Statements and expressions of \p FD's body with its inlined callees',
  /// or -1 when its halves are not inlined.
  int inlinedSize(const clang::FunctionDecl *FD);
  llvm::DenseMap<const clang::FunctionDecl *, int> InlinedSizes;
  std::vector<PullbackEntry *> SplitWork;
  std::vector<PushforwardEntry *> ForwardWork;
  void enqueueForward(PushforwardEntry *E);
  void defineForward(PushforwardEntry *E, const clang::FunctionDecl *Def);
  /// Builds the Hessian-vector product of \p E's primal once its pullback
  /// \p E is defined.
  void defineHvp(const PullbackEntry &E);
  /// Builds the vector pullback of \p E's primal once its pullback \p E
  /// is defined.
  void defineVectorPullback(const PullbackEntry &E);
  /// \p FD (a generated function) has a body now: queues the pushforwards
  /// requested for it before.
  void definedGenerated(clang::FunctionDecl *FD);
  /// A generated function \p FD of \p Primal got its body: tidy it,
  /// record it, queue what waited for it, remark, dump, emit.
  void publish(clang::FunctionDecl *FD, const clang::FunctionDecl *Primal);
  llvm::DenseMap<const clang::FunctionDecl *, bool> CallsFunctions;
  bool FramesChecked = false, HasFrames = false;
  /// Declares the pullbacks for specializations of pullback templates the
  /// code called.
  void queueTemplateRequests();
  /// Defines the wanted pullbacks and halves, and what they need in
  /// turn, until nothing new is requested.
  void defineUntilNothingNew();
  /// Reports the pullbacks still undefined: callees without a body here.
  void reportBodilessPullbacks();
  /// Reports the pushforwards still undefined: callees without a body here.
  void reportBodilessPushforwards();

  clang::Sema &S;
  const Options &Opts;
  Emitter Emit;
  std::vector<PullbackEntry *> Work;
  std::vector<clang::FunctionDecl *> Done;
  bool Draining = false;
  bool RuntimeReported = false;
  llvm::DenseMap<const void *, std::unique_ptr<LambdaInfo>> Lambdas;
  unsigned NextLifted = 0;
  llvm::DenseMap<const clang::FunctionDecl *,
                 llvm::SmallVector<std::unique_ptr<CallableView>, 1>>
      Views;
  llvm::DenseMap<const clang::FunctionDecl *, const CallableView *> ViewOf;
  unsigned NextView = 0;
  void printDefinitionTo(clang::FunctionDecl *FD);
};

/// The AST consumer shared by the plugin and grad-dump.
class GradConsumer : public clang::SemaConsumer {
public:
  /// \p Emit receives each defined pullback; \p InGroup tells whether the
  /// declaration is inside the top-level group being handled (CodeGen will
  /// see it there).
  using Emitter = std::function<void(clang::FunctionDecl *, bool InGroup)>;
  GradConsumer(Options Opts, Emitter Emit)
      : Opts(std::move(Opts)), Emit(std::move(Emit)) {}
  ~GradConsumer() override;

  void InitializeSema(clang::Sema &S) override;
  void ForgetSema() override;
  bool HandleTopLevelDecl(clang::DeclGroupRef DG) override;
  void HandleInlineFunctionDefinition(clang::FunctionDecl *FD) override;
  void HandleTranslationUnit(clang::ASTContext &Ctx) override;

  Differentiator *differentiator() { return Diff.get(); }

private:
  void visit(clang::Decl *D);

  Options Opts;
  Emitter Emit;
  clang::Sema *S = nullptr;
  clang::ASTContext *Ctx = nullptr;
  std::unique_ptr<Differentiator> Diff;
  clang::DeclGroupRef CurrentGroup;
  bool InHandler = false;
};

} // namespace grad

#endif
