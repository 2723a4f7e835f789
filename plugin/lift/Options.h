//===- Options.h - Plugin arguments -----------------------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#ifndef CLANG_GRAD_OPTIONS_H
#define CLANG_GRAD_OPTIONS_H

#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace grad {

/// -fplugin-arg-grad-ARG switches (SPEC, "Plugin arguments").
struct Options {
  bool Dump = false;                ///< print generated code to stderr
  bool Remarks = false;             ///< lowering remarks
  bool Recompute = true;            ///< iterations recomputed (no-recompute)
  bool RecomputeAlways = false;     ///< whatever the cost (recompute-always)
  /// Split halves that read unchanged memory again (no-reread-halves).
  bool RereadHalves = true;
  /// sin and cos of one argument from one sincos call (no-sincos).
  bool SinCos = true;
  /// Sums into one element of a local adjoint array kept in a local
  /// across a loop (no-hoist-sums).
  bool HoistSums = true;
  /// A split derivative's frame holds only what the reverse half reads
  /// before assigning it (no-trim-frames).
  bool TrimFrames = true;
  /// Values computed alike by every iteration of a loop recorded once, not
  /// per iteration (no-loop-invariants).
  bool LoopInvariants = true;
  /// Halves of small helpers inlined into their callers (no-inline-halves).
  bool InlineHalves = true;
  bool NoPromotionWarnings = false; ///< silence the promotion warning
  /// Generated code checks at run time what the plugin assumed (verify).
  bool Verify = false;
  bool PrintActivity = false;       ///< the activity analysis, as remarks
  /// Do not include grad/core.h into the translation unit (the user
  /// includes the runtime).
  bool NoRuntimeInclude = false;
  /// For the tests of the site check only (test-replay-assignments):
  /// assignment statements are replayed as written, as a builder that
  /// forgot them would, and the check must refuse each.
  bool TestReplayAssignments = false;

  /// Applies one argument; false if it is unknown.
  bool parse(llvm::StringRef Arg);
};

} // namespace grad

#endif
