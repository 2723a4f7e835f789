//===- PullbackNotes.cpp - Signatures in overload diagnostics ---*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "driver/PullbackNotes.h"
#include "ast/Diagnostics.h"
#include "driver/Registry.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace grad {
namespace {

/// The generated pullback \p FD is, or null.
const FunctionDecl *generated(const NamedDecl *ND, const State &St) {
  if (const auto *FTD = dyn_cast_or_null<FunctionTemplateDecl>(ND))
    ND = FTD->getTemplatedDecl();
  const auto *FD = dyn_cast_or_null<FunctionDecl>(ND);
  if (!FD)
    return nullptr;
  if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern())
    FD = Pattern;
  return St.Generated.count(FD) ? FD : nullptr;
}

/// For a pullback restricted by a wrt list: which differentiable
/// parameters have adjoints and which do not.
std::string wrtNote(const FunctionDecl *PB, const State &St) {
  auto It = St.ByPullback.find(PB);
  if (It == St.ByPullback.end() || It->second.empty())
    return "";
  const PullbackEntry &E = *It->second.front();
  WrtMask Full = fullMask(E.Primal);
  std::string With, Without;
  for (unsigned I = 0; I < E.Primal->getNumParams() && I < Full.size(); ++I) {
    if (!Full[I])
      continue;
    std::string &Into = I < E.Wrt.size() && E.Wrt[I] ? With : Without;
    Into += (Into.empty() ? "'" : ", '") +
            E.Primal->getParamDecl(I)->getNameAsString() + "'";
  }
  if (Without.empty())
    return "";
  return "the wrt list of '" + nameOf(E.Primal) +
         "' gives adjoint parameters " +
         (With.empty() ? std::string("to none of its parameters")
                       : "only to " + With) +
         " (none to " + Without + ")";
}

/// Forwards everything to the client it replaces; after a note that names
/// a generated pullback, adds one with the pullback's declaration.
class NotingConsumer : public DiagnosticConsumer {
public:
  NotingConsumer(CompilerInstance &CI, DiagnosticConsumer *Inner,
                 std::unique_ptr<DiagnosticConsumer> Owned)
      : CI(CI), Inner(Inner), Owned(std::move(Owned)) {}

  void BeginSourceFile(const LangOptions &LO, const Preprocessor *PP) override {
    Inner->BeginSourceFile(LO, PP);
  }
  void EndSourceFile() override { Inner->EndSourceFile(); }
  void finish() override { Inner->finish(); }
  void clear() override {
    DiagnosticConsumer::clear();
    Inner->clear();
  }
  bool IncludeInDiagnosticCounts() const override {
    return Inner->IncludeInDiagnosticCounts();
  }

  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    Inner->HandleDiagnostic(Level, Info);
    if (Level != DiagnosticsEngine::Note) {
      // A new diagnostic: the names it mentions are what its notes'
      // candidates are called.
      Names.clear();
      Shown.clear();
      for (unsigned I = 0; I < Info.getNumArgs(); ++I)
        if (Info.getArgKind(I) == DiagnosticsEngine::ak_declarationname)
          Names.push_back(DeclarationName::getFromOpaqueInteger(
              Info.getRawArg(I)));
        else if (Info.getArgKind(I) == DiagnosticsEngine::ak_nameddecl)
          Names.push_back(
              reinterpret_cast<const NamedDecl *>(Info.getRawArg(I))
                  ->getDeclName());
      return;
    }
    if (!CI.hasASTContext() || !Info.hasSourceManager() ||
        !Info.getLocation().isValid())
      return;
    const State &St = State::get(CI.getASTContext());
    // The note names the pullback (callee notes) or sits at its location
    // (overload candidates) and the diagnostic it belongs to names it.
    llvm::SmallVector<const FunctionDecl *, 2> Found;
    for (unsigned I = 0; I < Info.getNumArgs(); ++I)
      if (Info.getArgKind(I) == DiagnosticsEngine::ak_nameddecl)
        if (const FunctionDecl *FD = generated(
                reinterpret_cast<const NamedDecl *>(Info.getRawArg(I)), St))
          Found.push_back(FD);
    if (Found.empty() && !Names.empty())
      for (const FunctionDecl *FD : St.Generated)
        if (FD->getLocation() == Info.getLocation() &&
            llvm::is_contained(Names, FD->getDeclName()))
          Found.push_back(FD);
    // Declaration order, each once per diagnostic.
    llvm::sort(Found, [](const FunctionDecl *A, const FunctionDecl *B) {
      return A->getID() < B->getID();
    });
    for (const FunctionDecl *PB : Found) {
      if (!Shown.insert(PB).second)
        continue;
      std::string Text;
      llvm::raw_string_ostream OS(Text);
      PrintingPolicy Policy(CI.getLangOpts());
      Policy.TerseOutput = true;
      if (const FunctionTemplateDecl *FTD = PB->getDescribedFunctionTemplate())
        FTD->print(OS, Policy);
      else
        PB->print(OS, Policy);
      note(Info.getLocation(), Info.getSourceManager(),
           "'" + PB->getNameAsString() + "' is declared by clang-grad as '" +
               Text + "'");
      if (std::string W = wrtNote(PB, St); !W.empty())
        note(Info.getLocation(), Info.getSourceManager(), W);
    }
  }

private:
  /// Reports a note through an engine of its own (the main engine is busy
  /// with the diagnostic being handled), to the same client.
  void note(SourceLocation Loc, SourceManager &SM, const std::string &Text) {
    DiagnosticsEngine &Main = CI.getDiagnostics();
    if (!Side) {
      Side = std::make_unique<DiagnosticsEngine>(
          Main.getDiagnosticIDs(), &Main.getDiagnosticOptions(), Inner,
          /*ShouldOwnClient=*/false);
      NoteID = Side->getCustomDiagID(DiagnosticsEngine::Note, "%0");
    }
    if (!Side->hasSourceManager())
      Side->setSourceManager(&SM);
    Side->setLastDiagnosticIgnored(false);
    Side->Report(Loc, NoteID) << Text;
  }

  CompilerInstance &CI;
  DiagnosticConsumer *Inner;
  std::unique_ptr<DiagnosticConsumer> Owned;
  std::unique_ptr<DiagnosticsEngine> Side;
  unsigned NoteID = 0;
  llvm::SmallVector<DeclarationName, 2> Names;
  llvm::SmallPtrSet<const FunctionDecl *, 4> Shown;
};

} // namespace

void installPullbackNotes(CompilerInstance &CI) {
  DiagnosticsEngine &DE = CI.getDiagnostics();
  if (dynamic_cast<NotingConsumer *>(DE.getClient()))
    return;
  DiagnosticConsumer *Old = DE.getClient();
  std::unique_ptr<DiagnosticConsumer> Owned = DE.takeClient();
  DE.setClient(new NotingConsumer(CI, Old, std::move(Owned)),
               /*ShouldOwnClient=*/true);
}

} // namespace grad
