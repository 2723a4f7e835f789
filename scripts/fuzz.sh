#!/usr/bin/env bash
# ===- fuzz.sh - Run the libFuzzer target over the core for a time budget ---===#
#
# Part of clang-grad.
#
# ===------------------------------------------------------------------------===#
#
# Usage: scripts/fuzz.sh SECONDS [extra libFuzzer flags...]
#        scripts/fuzz.sh --repro FILE...     re-run saved inputs
#
# Builds grad-fuzz-plugin (tools/fuzz-plugin, GRAD_BUILD_FUZZER=ON, with
# ASan and UBSan) in $BUILD and fuzzes for SECONDS with -timeout=10 and
# -rss_limit_mb=4096, starting from the seed corpus
# tools/fuzz-plugin/corpus. New inputs go to $WORK/corpus (the seed corpus
# is never written); crashes, timeouts and OOMs are kept as
# $WORK/artifacts/{crash,timeout,oom,leak}-<sha1>. Exits 1 if any artifact
# was written.
#
# Environment:
#   BUILD  build directory (default: <repo>/build-asan, shared with
#          scripts/sanitize.sh; the fuzzer option instruments the core there)
#   WORK   corpus and artifacts (default: <repo>/build-asan/fuzz)
#   JOBS   parallel fuzzing processes (default: 1; -fork=JOBS when > 1)
#   NO_BUILD  if set, use the fuzzer already built in $BUILD
set -uo pipefail

Root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD=${BUILD:-$Root/build-asan}
WORK=${WORK:-$BUILD/fuzz}
JOBS=${JOBS:-1}
Seeds="$Root/tools/fuzz-plugin/corpus"

# Build (configure on first use), sharing the sanitizer build's flags.
if [ ! -f "$BUILD/build.ninja" ] ||
   ! grep -q '^GRAD_BUILD_FUZZER:BOOL=ON' "$BUILD/CMakeCache.txt"; then
  cmake -G Ninja -S "$Root" -B "$BUILD" -DGRAD_ENABLE_SANITIZERS=ON \
    -DGRAD_BUILD_FUZZER=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g -DNDEBUG" \
    "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g -DNDEBUG" >/dev/null || exit 2
fi
[ -n "${NO_BUILD:-}" ] ||
  ninja -C "$BUILD" -j "${BUILD_JOBS:-2}" grad-fuzz-plugin || exit 2
Fuzzer="$BUILD/bin/grad-fuzz-plugin"

# allow_user_poisoning=0: LLVM headers inlined into this ASan binary poison
# BumpPtrAllocator slabs that the uninstrumented libclang-cpp then hands out
# without unpoisoning (false use-after-poison; docs/reliability.md).
export ASAN_OPTIONS=detect_leaks=1:allow_user_poisoning=0:abort_on_error=0:print_summary=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

if [ "${1:-}" = --repro ]; then
  shift
  exec "$Fuzzer" -timeout=10 -rss_limit_mb=4096 "$@"
fi

Seconds=${1:?usage: fuzz.sh SECONDS [libFuzzer flags...]}
shift
mkdir -p "$WORK/corpus" "$WORK/artifacts"
Before=$(ls "$WORK/artifacts" | wc -l)
Fork=()
[ "$JOBS" -gt 1 ] && Fork=(-fork="$JOBS" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)

"$Fuzzer" -max_total_time="$Seconds" -timeout=10 -rss_limit_mb=4096 \
  -max_len=4096 -print_final_stats=1 -artifact_prefix="$WORK/artifacts/" \
  "${Fork[@]}" "$@" "$WORK/corpus" "$Seeds" 2>&1 | tee "$WORK/fuzz-$(date +%s).log" |
  grep -E '^(#[0-9]+ +(INITED|DONE|pulse)|stat::|==[0-9]+==|SUMMARY|artifact_prefix|Test unit written|.*(ERROR|WARNING): libFuzzer|INFO: fuzzed for)'

After=$(ls "$WORK/artifacts" | wc -l)
echo "fuzz.sh: corpus $(ls "$WORK/corpus" | wc -l) inputs," \
  "artifacts $After in $WORK/artifacts ($((After - Before)) new)"
[ "$After" -eq "$Before" ]
