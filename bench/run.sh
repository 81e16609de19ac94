#!/usr/bin/env bash
# Builds bench/ (standalone, against this checkout's headers) and runs the runtime benchmarks
# the way docs/performance.md reports them: repetitions in random interleaved order, the
# aggregates only, `ratio=` lines at the end, JSON next to the console output.
#
#   bash bench/run.sh                      # build in /tmp/bench-build, results in /tmp/bench-build/results
#   REPS=20 FILTER='vmap/black' bash bench/run.sh
#
# Environment: BUILD (build directory), CXX (compiler, default g++-12), REPS (repetitions,
# default 10), FILTER (--benchmark_filter regex, default all), OUT (results directory),
# BENCHES (which binaries, default "grad_scalar vmap_simd vmap_small user_ops tensors ode").
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${BUILD:-/tmp/bench-build}"
REPS="${REPS:-10}"
FILTER="${FILTER:-.}"
OUT="${OUT:-$BUILD/results}"
export CXX="${CXX:-g++-12}"

cmake -S "$ROOT/bench" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD" -j 2
mkdir -p "$OUT"
rev="${CALX_REV:-$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)}"
if git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1 && [[ -n "$(git -C "$ROOT" status --porcelain -- include)" ]]; then
  rev+=" + local changes in include/"
fi
echo "== calx $rev, $("$CXX" --version | head -1), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores"

for b in ${BENCHES:-grad_scalar vmap_simd vmap_small user_ops tensors ode}; do
  echo "== bench_$b, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  "$BUILD/bench_$b" --benchmark_filter="$FILTER" --benchmark_repetitions="$REPS" \
    --benchmark_enable_random_interleaving=true --benchmark_report_aggregates_only=true \
    --benchmark_out="$OUT/$b.json" --benchmark_out_format=json | tee "$OUT/$b.txt"
  echo "== load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
done
