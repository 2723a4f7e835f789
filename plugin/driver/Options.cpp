//===- Options.cpp - Plugin arguments ---------------------------*- C++ -*-===//
//
// Part of clang-grad.
//
//===----------------------------------------------------------------------===//

#include "lift/Options.h"

namespace grad {

bool Options::parse(llvm::StringRef Arg) {
  if (Arg == "dump")
    Dump = true;
  else if (Arg == "remarks")
    Remarks = true;
  else if (Arg == "no-promotion-warnings")
    NoPromotionWarnings = true;
  else if (Arg == "verify")
    Verify = true;
  else if (Arg == "print-activity")
    PrintActivity = true;
  else if (Arg == "no-runtime-include")
    NoRuntimeInclude = true;
  else if (Arg == "no-recompute")
    Recompute = false;
  else if (Arg == "recompute-always")
    RecomputeAlways = true;
  else if (Arg == "no-reread-halves")
    RereadHalves = false;
  else if (Arg == "no-sincos")
    SinCos = false;
  else if (Arg == "no-hoist-sums")
    HoistSums = false;
  else if (Arg == "no-trim-frames")
    TrimFrames = false;
  else if (Arg == "no-loop-invariants")
    LoopInvariants = false;
  else if (Arg == "no-inline-halves")
    InlineHalves = false;
  else if (Arg == "test-replay-assignments")
    TestReplayAssignments = true;
  else
    return false;
  return true;
}

} // namespace grad
