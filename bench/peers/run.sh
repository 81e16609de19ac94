#!/usr/bin/env bash
# JAX beside calx on bench/tensors.cpp's workloads, in one run, on the same numbers, one
# thread each (issue 26, "Benchmarks"):
#
#   bash bench/peers/run.sh [path/to/bench_tensors ...]
#
# Makes a venv with jax from PyPI (CALX_PEERS_VENV, default build/peers-venv; skipped with
# a message, exit 0, when jax cannot be installed), runs each bench_tensors (default
# build/bench/bench_tensors: the MLP and least squares at 48, 256 and 1024)
# with CALX_BENCH_DUMP so that it writes its inputs and calx's results, then
# bench/peers/tensors.py, which checks JAX's derivatives against calx's (exit 1 when they
# differ) and prints both times. Both sides are pinned to CPU 0; XLA runs one thread.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
venv=${CALX_PEERS_VENV:-$root/build/peers-venv}
benches=("$@")
[ ${#benches[@]} -eq 0 ] && benches=("$root/build/bench/bench_tensors")

if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import jax" 2>/dev/null; then
  if ! { python3 -m venv "$venv" && "$venv/bin/pip" install -q jax numpy; }; then
    echo "bench/peers: jax could not be installed (no network or no wheel for this machine); skipped"
    exit 0
  fi
fi

status=0
for bench in "${benches[@]}"; do
  folder=$(mktemp -d)
  echo "== $bench"
  if ! CALX_BENCH_DUMP=$folder taskset -c 0 "$bench" --benchmark_repetitions=10 --benchmark_enable_random_interleaving=true \
    --benchmark_report_aggregates_only=true --benchmark_out="$folder/calx.json" --benchmark_out_format=json \
    >"$folder/bench.log" 2>&1; then
    cat "$folder/bench.log"
    exit 1
  fi
  XLA_FLAGS="--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1" \
    taskset -c 0 "$venv/bin/python" "$here/tensors.py" "$folder" || status=1
  rm -rf "$folder"
done
exit $status
