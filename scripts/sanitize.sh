#!/usr/bin/env bash
# ===- sanitize.sh - The AddressSanitizer + UBSan job -----------------------===#
#
# Part of clang-grad.
#
# ===------------------------------------------------------------------------===#
#
# Usage: scripts/sanitize.sh [lit filter regex]
#
# Builds the core, grad-dump and the runtime tests with
# -fsanitize=address,undefined (GRAD_ENABLE_SANITIZERS=ON) in $BUILD, then:
#   1. runs the runtime GoogleTests under ASan/UBSan/LSan;
#   2. runs the sanitized grad-dump (the core linked statically into an ASan
#      executable) over every C++ source of the lit suite and the fuzz seed
#      corpus, with leak detection: every crash or report fails the job;
#   3. runs the lit suite with the sanitized grad-dump for %dump and with
#      %gradxx/%cxx adding -fsanitize=address,undefined, so every test
#      program, including the code the plugin generates, runs sanitized,
#      and %gradxx adding -fplugin-arg-grad-verify (verify mode).
# The plugin used by %gradxx is a normal (unsanitized) ClangGrad.so: an ASan
# plugin cannot be dlopen'ed into the system clang++-19, which has no ASan
# runtime (docs/reliability.md). It is copied from $PLUGIN_BUILD first, so a
# rebuild there during the run does not disturb it.
#
# Environment:
#   BUILD         sanitizer build directory (default: <repo>/build-asan)
#   PLUGIN_BUILD  normal build with lib/ClangGrad.so (default: <repo>/build;
#                 built first with ninja if the library is missing)
#   JOBS          parallel jobs (default: 2)
#   NO_BUILD      if set, use $BUILD as it is (no ninja run)
# Exits non-zero on any failure or sanitizer report.
set -uo pipefail

Root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD=${BUILD:-$Root/build-asan}
PLUGIN_BUILD=${PLUGIN_BUILD:-$Root/build}
JOBS=${JOBS:-2}
Filter=${1:-}
Lit=/usr/lib/llvm-19/build/utils/lit/lit.py
Start=$(date +%s)
Failed=0

step() { echo "== sanitize.sh: $* ($(($(date +%s) - Start)) s)"; }
fail() { echo "sanitize.sh: FAIL: $*"; Failed=1; }

# Abort (not exit 1) on any report, so `not %dump ...` cannot hide one.
# allow_user_poisoning=0: see scripts/fuzz.sh and docs/reliability.md.
export ASAN_OPTIONS=detect_leaks=1:allow_user_poisoning=0:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1:print_summary=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:abort_on_error=1
# One leak in clang 19 itself (no clang-grad frame on the stack): the
# DeductionFailureInfo of a failed partial-specialization match while
# instantiating runtime templates at the end of the TU. docs/reliability.md.
mkdir -p "$BUILD"
printf 'leak:clang::MakeDeductionFailureInfo\n' >"$BUILD/lsan.supp"
export LSAN_OPTIONS=print_suppressions=0:suppressions=$BUILD/lsan.supp

step "configure and build $BUILD"
if [ ! -f "$BUILD/build.ninja" ]; then
  # GRAD_BUILD_FUZZER only adds coverage instrumentation to the core here;
  # it lets scripts/fuzz.sh share this build.
  cmake -G Ninja -S "$Root" -B "$BUILD" -DGRAD_ENABLE_SANITIZERS=ON \
    -DGRAD_BUILD_FUZZER=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g -DNDEBUG" \
    "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g -DNDEBUG" >/dev/null || exit 2
fi
[ -n "${NO_BUILD:-}" ] || ninja -C "$BUILD" -j "$JOBS" grad-dump runtime_tests || exit 2
if [ ! -f "$PLUGIN_BUILD/lib/ClangGrad.so" ]; then
  step "build the normal plugin in $PLUGIN_BUILD"
  [ -f "$PLUGIN_BUILD/build.ninja" ] ||
    cmake -G Ninja -S "$Root" -B "$PLUGIN_BUILD" >/dev/null || exit 2
  ninja -C "$PLUGIN_BUILD" -j "$JOBS" ClangGrad || exit 2
fi

step "runtime GoogleTests"
"$BUILD/bin/runtime_tests" --gtest_brief=1 >"$BUILD/sanitize-runtime.log" 2>&1 ||
  { tail -40 "$BUILD/sanitize-runtime.log"; fail "runtime_tests"; }

step "grad-dump over the lit sources and the fuzz corpus"
Dumped=0 Reports=0
Log="$BUILD/sanitize-dump.log"
: >"$Log"
while IFS= read -r F; do
  Out=$("$BUILD/bin/grad-dump" "$F" -- -std=c++20 -I"$Root/runtime/include" \
    -I"$Root/test/Inputs" -I"$(dirname "$F")/Inputs" 2>&1 >/dev/null)
  RC=$?
  Dumped=$((Dumped + 1))
  # A leak report's stack stops at the first frame of the (frame-pointer
  # less) libLLVM: re-run with the slow unwinder so the suppression of the
  # known clang leak can match, and keep the report if it still stands.
  if grep -q 'LeakSanitizer' <<<"$Out" && ! grep -qE 'AddressSanitizer: [a-z-]+ on|runtime error:' <<<"$Out"; then
    Out=$(ASAN_OPTIONS=$ASAN_OPTIONS:fast_unwind_on_malloc=0 "$BUILD/bin/grad-dump" "$F" -- -std=c++20 -I"$Root/runtime/include" \
      -I"$Root/test/Inputs" -I"$(dirname "$F")/Inputs" 2>&1 >/dev/null)
    RC=$?
  fi
  # rc 1 is an ordinary compile error (diagnostic tests); anything else, or
  # any sanitizer output, is a report.
  if [ $RC -gt 1 ] || grep -qE 'Sanitizer|runtime error:|LLVM ERROR|Stack dump' <<<"$Out"; then
    Reports=$((Reports + 1))
    fail "grad-dump $F (rc $RC)"
    { echo "=== $F (rc $RC)"; echo "$Out"; } >>"$Log"
  fi
done < <(find "$Root/test" -name '*.cpp' -not -path '*/install/*' | sort
         find "$Root/tools/fuzz-plugin/corpus" -name '*.cpp' | sort)
echo "grad-dump: $Dumped files, $Reports with reports (details: $Log)"

step "lit suite, sanitized test programs in verify mode"
Stage="$BUILD/lit-sanitize"
mkdir -p "$Stage/lib" "$Stage/bin" "$Stage/test"
cp "$PLUGIN_BUILD/lib/ClangGrad.so" "$Stage/lib/ClangGrad.so"
ln -sf "$BUILD/bin/grad-dump" "$Stage/bin/grad-dump"
sed -e "s|^config.grad_obj_root = .*|config.grad_obj_root = \"$Stage\"|" \
    -e 's|^config.grad_sanitize = .*|config.grad_sanitize = "ON"|' \
    "$BUILD/test/lit.site.cfg.py" >"$Stage/test/lit.site.cfg.py"
# (With verify on: every test program also checks what the plugin assumed,
# docs/reliability.md "Verify mode"; scripts/test.sh runs lit without it.)
LitArgs=(-sv -j "$JOBS" --param verify=1)
[ -n "$Filter" ] && LitArgs+=(--filter "$Filter")
# Leaks are checked in the steps above (grad-dump needs the slow unwinder
# to classify them, too slow for every %dump); here: memory errors and UB.
ASAN_OPTIONS=$ASAN_OPTIONS:detect_leaks=0 \
  python3 "$Lit" "${LitArgs[@]}" "$Stage/test" || fail "lit"

step "done: $([ $Failed = 0 ] && echo 'no failures, no reports' || echo FAILED)"
exit $Failed
