#!/bin/sh
# Builds and runs every benchmark, one at a time, and prints the median
# ratios (bench/ratios.py). Usage: bench/run.sh [BUILD_DIR] [extra
# benchmark flags]. BUILD_DIR defaults to build/ in the source tree; it is
# configured if it has no build files yet. JSON results go to
# BUILD_DIR/bench/results/. OpenBLAS runs single-threaded
# (OPENBLAS_NUM_THREADS=1 unless set) so that BLAS and the other kernels
# see the same one core. Repetitions of a binary's benchmarks are
# interleaved at random, so that no kernel is always measured right after
# the same other one (that order moved ratios by up to 0.3 here).
set -eu
Src=$(cd "$(dirname "$0")/.." && pwd)
Build=${1:-$Src/build}
[ $# -gt 0 ] && shift
if [ ! -f "$Build/CMakeCache.txt" ]; then
  cmake -S "$Src" -B "$Build" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
Benches="loops gmm map deep ba forward jacobian"
# bench_matmul exists only if BLAS was found.
if cmake --build "$Build" --target help | grep -q bench_matmul; then
  Benches="$Benches matmul"
fi
Targets=""
for B in $Benches; do Targets="$Targets bench_$B"; done
cmake --build "$Build" --target $Targets
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}
Out=$Build/bench/results
mkdir -p "$Out"
Jsons=""
for B in $Benches; do
  Exe=$Build/bin/bench_$B
  echo "== bench_$B" >&2
  "$Exe" --benchmark_repetitions=5 --benchmark_enable_random_interleaving=true \
    --benchmark_report_aggregates_only=true \
    --benchmark_out="$Out/$B.json" --benchmark_out_format=json "$@" >&2
  Jsons="$Jsons $Out/$B.json"
done
python3 "$Src/bench/ratios.py" $Jsons
