#!/usr/bin/env bash
# The README's second command: run every test (lit + FileCheck suite,
# GoogleTest runtime tests, install test) of the build in build/.
#
#   scripts/test.sh [extra ctest arguments...]     e.g. -R lit, -j2, -V
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

[[ -f build/CTestTestfile.cmake ]] || {
  echo "test.sh: no build in build/: run scripts/quickstart.sh first" >&2
  exit 1
}
exec ctest --test-dir build --output-on-failure "$@"
