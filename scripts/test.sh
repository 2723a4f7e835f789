#!/usr/bin/env bash
# The README's second command: run every test (lit + FileCheck suite,
# GoogleTest runtime tests, install test) of the build in build/.
#
#   scripts/test.sh [extra ctest arguments...]     e.g. -R lit, -j2, -V
#
# With no arguments the lit suite runs first with lit's own progress (one
# line per test, failures in full), then the other ctest entries; the last
# line is a summary of the counts. With arguments, ctest runs everything
# (or what they select) as before.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

[[ -f build/CTestTestfile.cmake ]] || {
  echo "test.sh: no build in build/: run scripts/quickstart.sh first" >&2
  exit 1
}
if [[ $# -gt 0 ]]; then
  exec ctest --test-dir build --output-on-failure "$@"
fi

lit_cmd=$(ctest --test-dir build -N -V -R '^lit$' 2>/dev/null |
  sed -n 's/^[0-9]*: Test command: //p' | head -n 1)
lit_status=0
if [[ -n "$lit_cmd" ]]; then
  echo "== lit (FileCheck suite)"
  # lit prints one line per test as it finishes.
  PYTHONUNBUFFERED=1 eval "$(printf '%s' "$lit_cmd" | sed 's/"-sv"/"-v"/; s/ -sv / -v /')" | tee build/lit-output.txt | grep --line-buffered -E '^(PASS|FAIL|XFAIL|XPASS|UNRESOLVED|UNSUPPORTED|TIMEOUT): |^\*\*\*|^Total|^  (Passed|Failed)' || lit_status=$?
  # grep's status is not lit's: read lit's summary.
  if grep -qE '^  (Failed|Unresolved|Timed Out)' build/lit-output.txt; then
    lit_status=1
  else
    lit_status=0
  fi
fi
echo "== other tests (ctest)"
ctest_status=0
ctest --test-dir build --output-on-failure -E '^lit$' || ctest_status=$?
lit_pass=$(sed -n 's/^  Passed *: *\([0-9]*\).*/\1/p' build/lit-output.txt 2>/dev/null | tail -n 1)
lit_fail=$(sed -n 's/^  Failed *: *\([0-9]*\).*/\1/p' build/lit-output.txt 2>/dev/null | tail -n 1)
echo "test.sh: lit ${lit_pass:-0} passed, ${lit_fail:-0} failed; other tests $([[ $ctest_status -eq 0 ]] && echo passed || echo FAILED)"
[[ $lit_status -eq 0 && $ctest_status -eq 0 ]]
