#!/usr/bin/env bash
# Compile every examples/*.cpp with the plugin from build/ and run it, as a
# user would from the source tree. Fails if any example fails to compile or
# exits non-zero (after trying all of them).
#
#   scripts/run-examples.sh [example.cpp...]   (default: examples/*.cpp)
#
# CXX overrides the compiler (default clang++-19).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

cxx="${CXX:-clang++-19}"
plugin=build/lib/ClangGrad.so
out_dir=build/examples

[[ -f "$plugin" ]] || {
  printf 'run-examples: %s not found: build first (scripts/quickstart.sh)\n' "$plugin" >&2
  exit 1
}

if (($# > 0)); then
  sources=("$@")
else
  shopt -s nullglob
  sources=(examples/*.cpp)
  shopt -u nullglob
fi
if ((${#sources[@]} == 0)); then
  echo "run-examples: no examples/*.cpp, nothing to do"
  exit 0
fi

mkdir -p "$out_dir"
failed=()
for src in "${sources[@]}"; do
  name="$(basename "$src" .cpp)"
  exe="$out_dir/$name"
  echo "--- example $name: compile"
  if ! "$cxx" -std=c++20 -O2 "-fplugin=$plugin" -Iruntime/include "$src" \
      -o "$exe" -lopenblas; then
    echo "*** example $name: COMPILE FAILED" >&2
    failed+=("$name")
    continue
  fi
  echo "--- example $name: run"
  rc=0
  "$exe" || rc=$?
  if ((rc != 0)); then
    echo "*** example $name: RUN FAILED (exit status $rc)" >&2
    failed+=("$name")
  fi
done

if ((${#failed[@]} > 0)); then
  echo "run-examples: ${#failed[@]} of ${#sources[@]} examples FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "run-examples: all ${#sources[@]} examples passed"
