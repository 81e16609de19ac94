#!/usr/bin/env bash
# JAX beside calx on the tensor benchmarks' workloads, in one run, on the same numbers, one
# thread each (issue 26, "Benchmarks"):
#
#   bash bench/peers/run.sh [path/to/bench_<name> ...]
#
# Makes a venv with jax from PyPI (CALX_PEERS_VENV, default build/peers-venv; skipped with
# a message, exit 0, when jax cannot be installed), runs each benchmark binary (default:
# build/bench/bench_tensors, bench_tensor_chains, bench_kmeans and bench_indexing) with
# CALX_BENCH_DUMP so that it writes its inputs and calx's results, then the binary's peer,
# bench/peers/<name>.py (bench_tensors: tensors.py, the MLP and least squares at 48, 256 and
# 1024; bench_tensor_chains: tensor_chains.py, logsumexp and an RK4 step; bench_kmeans:
# kmeans.py; bench_indexing: indexing.py, take and its vjp; common.py holds what they
# share), which checks JAX's results against calx's (exit 1 when they differ) and prints
# both times. Both sides are pinned to CPU 0; XLA runs one thread.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
venv=${CALX_PEERS_VENV:-$root/build/peers-venv}
benches=("$@")
if [ ${#benches[@]} -eq 0 ]; then
  for name in tensors tensor_chains kmeans indexing; do benches+=("$root/build/bench/bench_$name"); done
fi

if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import jax" 2>/dev/null; then
  if ! { python3 -m venv "$venv" && "$venv/bin/pip" install -q jax numpy; }; then
    echo "bench/peers: jax could not be installed (no network or no wheel for this machine); skipped"
    exit 0
  fi
fi

status=0
for bench in "${benches[@]}"; do
  name=$(basename "$bench")
  peer="$here/${name#bench_}.py"
  echo "== $bench"
  if [ ! -f "$peer" ]; then
    echo "bench/peers: no JAX peer for $name (no $peer)"
    status=1
    continue
  fi
  folder=$(mktemp -d)
  if ! CALX_BENCH_DUMP=$folder taskset -c 0 "$bench" --benchmark_repetitions=10 --benchmark_enable_random_interleaving=true \
    --benchmark_report_aggregates_only=true --benchmark_out="$folder/calx.json" --benchmark_out_format=json \
    >"$folder/bench.log" 2>&1; then
    cat "$folder/bench.log"
    exit 1
  fi
  PYTHONDONTWRITEBYTECODE=1 XLA_FLAGS="--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1" \
    taskset -c 0 "$venv/bin/python" "$peer" "$folder" || status=1
  rm -rf "$folder"
done
exit $status
