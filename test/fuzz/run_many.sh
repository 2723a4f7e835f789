#!/usr/bin/env bash
# ===- run_many.sh - Run the random-program generator for many seeds --------===#
#
# Part of clang-grad.
#
# ===------------------------------------------------------------------------===#
#
# Usage: test/fuzz/run_many.sh N [FIRST_SEED]
#
# Generates, compiles (with the plugin) and runs seeds FIRST_SEED ..
# FIRST_SEED+N-1 (default first seed 1000, away from the lit seeds) and prints
# one line per failing seed plus a summary. Exits 1 if any seed failed.
#
# Environment:
#   FUNCTIONS  functions per program (default 25)
#   FEATURES   --features for gen.py (default: gen.py's default set)
#   JOBS       parallel seeds (default: nproc)
#   OUT        directory for the work files (default: a fresh mktemp -d);
#              a failing seed keeps seed-S.cpp and seed-S.log there
#   BUILD      build directory with lib/ClangGrad.so (default: <repo>/build)
#   CXX        compiler (default: clang++-19)
#   FLAGS      extra compiler flags for the build that is checked (e.g.
#              -fplugin-arg-grad-recompute-always)
#   COMPARE_FLAGS  also build each seed with these extra flags (e.g.
#              -fplugin-arg-grad-no-recompute) and fail the seed unless both
#              builds print the same digest (every adjoint, bit for bit)

set -u
N=${1:?usage: run_many.sh N [FIRST_SEED]}
FIRST=${2:-1000}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
FUNCTIONS=${FUNCTIONS:-25}
FEATURES=${FEATURES:-default}
JOBS=${JOBS:-$(nproc)}
BUILD=${BUILD:-$ROOT/build}
COMPARE_FLAGS=${COMPARE_FLAGS:-}
FLAGS=${FLAGS:-}
CXX=${CXX:-clang++-19}
OUT=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/grad-fuzz.XXXXXX")}
mkdir -p "$OUT"

if [ ! -f "$BUILD/lib/ClangGrad.so" ]; then
  echo "run_many.sh: no plugin at $BUILD/lib/ClangGrad.so (build it first)" >&2
  exit 2
fi

# One seed: writes $OUT/seed-S.status as "STATUS FUNCTIONS POINTS FAILURES".
one() {
  local S=$1 Base="$OUT/seed-$1"
  python3 "$HERE/gen.py" --seed "$S" --functions "$FUNCTIONS" \
    --features "$FEATURES" -o "$Base.cpp" || { echo "gen 0 0 0" >"$Base.status"; return; }
  # shellcheck disable=SC2086
  if ! "$CXX" -std=c++20 -O1 -Werror -fplugin="$BUILD/lib/ClangGrad.so" $FLAGS \
      -I"$ROOT/runtime/include" -I"$ROOT/test/Inputs" "$Base.cpp" -o "$Base" \
      >"$Base.log" 2>&1; then
    echo "compile 0 0 0" >"$Base.status"
    return
  fi
  timeout 120 "$Base" >>"$Base.log" 2>&1
  local RC=$?
  local Sum
  Sum=$(sed -n 's/^checked \([0-9]*\) functions, \([0-9]*\) points, \([0-9]*\) failures.*/\1 \2 \3/p' "$Base.log")
  if [ $RC -eq 0 ] && [ -n "$Sum" ] && [ -n "${COMPARE_FLAGS:-}" ]; then
    # The same program built with COMPARE_FLAGS: the same adjoints.
    # shellcheck disable=SC2086
    if ! "$CXX" -std=c++20 -O1 -Werror -fplugin="$BUILD/lib/ClangGrad.so" \
        $COMPARE_FLAGS -I"$ROOT/runtime/include" -I"$ROOT/test/Inputs" \
        "$Base.cpp" -o "$Base.cmp" >>"$Base.log" 2>&1; then
      echo "compare-compile ${Sum}" >"$Base.status"
      return
    fi
    local D1 D2
    D1=$(grep '^digest' "$Base.log")
    D2=$(timeout 120 "$Base.cmp" | grep '^digest')
    rm -f "$Base.cmp"
    if [ "$D1" != "$D2" ]; then
      echo "digest $D1 with COMPARE_FLAGS: $D2" >>"$Base.log"
      echo "differs ${Sum}" >"$Base.status"
      rm -f "$Base"
      return
    fi
  fi
  if [ $RC -eq 0 ] && [ -n "$Sum" ]; then
    echo "ok $Sum" >"$Base.status"
    rm -f "$Base" "$Base.cpp" "$Base.log"
  else
    echo "run ${Sum:-0 0 0}" >"$Base.status"
    rm -f "$Base"
  fi
}
export -f one
export OUT HERE ROOT FUNCTIONS FEATURES BUILD CXX COMPARE_FLAGS FLAGS

START=$(date +%s)
seq "$FIRST" $((FIRST + N - 1)) | xargs -P "$JOBS" -I{} bash -c 'one {}'

Programs=0 Functions=0 Points=0 Failures=0 Bad=0
for S in $(seq "$FIRST" $((FIRST + N - 1))); do
  read -r Status F P X <"$OUT/seed-$S.status"
  Programs=$((Programs + 1))
  Functions=$((Functions + F))
  Points=$((Points + P))
  Failures=$((Failures + X))
  if [ "$Status" != ok ]; then
    Bad=$((Bad + 1))
    echo "FAIL seed $S ($Status): $OUT/seed-$S.cpp, log $OUT/seed-$S.log"
  fi
  rm -f "$OUT/seed-$S.status"
done
echo "programs $Programs, functions checked $Functions, points $Points," \
  "failing checks $Failures, failing seeds $Bad ($(($(date +%s) - START)) s)"
[ "$Bad" -eq 0 ]
