#!/usr/bin/env bash
# Refresh the committed grad-dump snapshots (test/dump/snapshots) after an
# intended change to the generated code; review `git diff` before committing.
# test/dump/snapshots.test fails while they differ from what grad-dump prints.
set -euo pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"
rm -rf test/dump/snapshots
exec python3 scripts/dump-snapshot.py --grad-dump build/bin/grad-dump \
  --out test/dump/snapshots test/dump examples
