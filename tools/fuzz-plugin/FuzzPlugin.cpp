//===- FuzzPlugin.cpp - libFuzzer target for the clang-grad core -*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Feeds arbitrary bytes, as C++ source, through the same consumer as
/// grad-dump (parse, differentiate every [[grad]] function, print the
/// generated code). Any crash, sanitizer report or hang is a bug: the core
/// must answer every input with a diagnostic or a derivative.
///
/// The first byte picks how the rest is wrapped (seed files start with a
/// digit so they stay readable):
///   '0' (byte % 3 == 0): raw translation unit;
///   '1' (byte % 3 == 1): math prelude, then the text at file scope;
///   '2' (byte % 3 == 2): math prelude, then the text as the body of
///                        `[[grad]] double f(double x, double y, int n)`.
/// The prelude declares the <cmath> functions without including any header,
/// which keeps an execution in the tens of milliseconds.
///
//===----------------------------------------------------------------------===//

#include "driver/Consumer.h"
#include "ast/Printer.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/raw_ostream.h"
#include <cstddef>
#include <cstdint>
#include <string>

using namespace clang;

namespace {

/// Declarations the plugin's math rules recognise, without <cmath>.
constexpr const char *Prelude = R"cpp(
extern "C" {
double sin(double); double cos(double); double tan(double);
double asin(double); double acos(double); double atan(double);
double atan2(double, double); double sinh(double); double cosh(double);
double tanh(double); double exp(double); double log(double);
double sqrt(double); double pow(double, double); double fabs(double);
double fmin(double, double); double fmax(double, double);
double hypot(double, double); double erf(double); double cbrt(double);
float sinf(float); float expf(float); float sqrtf(float);
}
namespace std {
using ::sin; using ::cos; using ::tan; using ::asin; using ::acos;
using ::atan; using ::atan2; using ::sinh; using ::cosh; using ::tanh;
using ::exp; using ::log; using ::sqrt; using ::pow; using ::fabs;
using ::fmin; using ::fmax; using ::hypot; using ::erf; using ::cbrt;
}
)cpp";

/// grad-dump's DumpAction, printing to a null stream and discarding
/// diagnostics (they are still built and formatted).
class FuzzAction : public ASTFrontendAction {
public:
  bool BeginInvocation(CompilerInstance &CI) override {
    CI.getDiagnostics().setClient(
        new TextDiagnosticPrinter(llvm::nulls(), &CI.getDiagnosticOpts()),
        /*ShouldOwnClient=*/true);
    return true;
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef File) override {
    grad::Options Opts;
    Opts.Remarks = true; // exercise the lowering remarks too
    auto C = std::make_unique<grad::GradConsumer>(
        Opts, [](FunctionDecl *, bool) {});
    Consumer = C.get();
    return C;
  }

  void EndSourceFileAction() override {
    if (!Consumer || !Consumer->differentiator())
      return;
    if (getCompilerInstance().getDiagnostics().hasErrorOccurred())
      return;
    for (FunctionDecl *PB : Consumer->differentiator()->defined()) {
      grad::printPrototype(PB, llvm::nulls());
      grad::printDefinition(PB, llvm::nulls());
    }
  }

private:
  grad::GradConsumer *Consumer = nullptr;
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size == 0 || Size > 16 * 1024)
    return -1; // not added to the corpus
  std::string Text(reinterpret_cast<const char *>(Data) + 1, Size - 1);
  std::string Code;
  switch (Data[0] % 3) {
  case 0:
    Code = Text;
    break;
  case 1:
    Code = std::string(Prelude) + Text + "\n";
    break;
  default:
    Code = std::string(Prelude) +
           "[[grad]] double f(double x, double y, int n) {\n" + Text + "\n}\n";
    break;
  }
  std::vector<std::string> Args = {
      "-std=c++20",           "-fsyntax-only",
      "-Wno-unknown-attributes", "-ferror-limit=20",
      "-fno-caret-diagnostics", // also drops "N errors generated"
      "-resource-dir=" GRAD_RESOURCE_DIR, "-I" GRAD_RUNTIME_INCLUDE};
  clang::tooling::runToolOnCodeWithArgs(std::make_unique<FuzzAction>(), Code,
                                        Args, "input.cpp", "grad-fuzz-plugin");
  return 0;
}
