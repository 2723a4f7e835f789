#!/usr/bin/env bash
# The README's first command: set up a Debian 12 machine, build clang-grad
# into build/, then build and run the examples.
#
#   scripts/quickstart.sh [extra cmake configure arguments...]
#
# Installs the missing system packages with apt-get (as root, or through sudo
# when not root). Set GRAD_SKIP_APT=1 to skip that step.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

packages=(
  clang-19 libclang-19-dev llvm-19-dev llvm-19-tools
  libclang-rt-19-dev ninja-build cmake libopenblas-dev libgtest-dev
  libbenchmark-dev python3 g++ clangd-19 universal-ctags
)

log() { printf '==> %s\n' "$*"; }
die() { printf 'quickstart: error: %s\n' "$*" >&2; exit 1; }

is_installed() {
  local status
  # shellcheck disable=SC2016 # ${Status} is dpkg-query's field, not ours
  status="$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" || return 1
  [[ "$status" == "install ok installed" ]]
}

install_packages() {
  if [[ "${GRAD_SKIP_APT:-0}" == 1 ]]; then
    log "GRAD_SKIP_APT=1: not checking system packages"
    return
  fi
  if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
    log "no dpkg/apt-get here: install these yourself: ${packages[*]}"
    return
  fi

  local missing=() p
  for p in "${packages[@]}"; do
    is_installed "$p" || missing+=("$p")
  done
  if ((${#missing[@]} == 0)); then
    log "system packages: all present"
    return
  fi

  local sudo=()
  if ((EUID != 0)); then
    command -v sudo >/dev/null 2>&1 ||
      die "missing packages (${missing[*]}) and not root, and sudo is not available"
    sudo=(sudo)
  fi
  log "installing: ${missing[*]}"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q "${missing[@]}"
}

install_packages

log "configuring build/"
cmake -G Ninja -B build -DCMAKE_BUILD_TYPE=Release "$@"

log "building"
cmake --build build

log "examples"
"$repo_root/scripts/run-examples.sh"

log "done: the plugin is build/lib/ClangGrad.so; run the tests with scripts/test.sh"
