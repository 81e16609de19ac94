#!/usr/bin/env bash
# calx's GradBench tool beside `manual` and GradBench's JAX tool, in one run, one thread each,
# on the workloads of the evals the JAX tool has (gmm, kmeans, llsq, lse, ode; its
# tools/jax/evals.txt):
#
#   bash bench/gradbench/peers.sh GRADBENCH_CHECKOUT CALX_TOOL [compare.py options]
#
# Makes a venv with jax and numpy from PyPI (CALX_GRADBENCH_VENV, default
# build/gradbench-venv; skipped with a message, exit 0, when jax cannot be installed), puts
# the checkout's python/gradbench on its path (the JAX tool imports GradBench's package),
# builds `manual` as run.sh does and runs compare.py with --jax. XLA runs one thread and the
# JAX tool pins itself to CPU 0, as GradBench runs it.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
src=$(realpath "$1")
tool=$(realpath "$2")
shift 2
venv=${CALX_GRADBENCH_VENV:-$root/build/gradbench-venv}
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import jax" 2>/dev/null; then
  if ! { python3 -m venv "$venv" && "$venv/bin/pip" install -q "jax~=0.4" "numpy~=1.0"; }; then
    echo "bench/gradbench: jax could not be installed (no network or no wheel for this machine); skipped"
    exit 0
  fi
fi
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
echo '#include <nlohmann/json.hpp>' >"$bin/json.hpp"
evals=()
for e in $(cat "$src/tools/jax/evals.txt"); do
  [ -f "$here/data/$e.json" ] || continue  # hello: not an eval of calx's
  ${CXX:-g++} -std=c++17 -O3 -Wall -Wno-unknown-pragmas -march=native -I"$src/cpp" -I"$bin" "$src/tools/manual/$e.cpp" -o "$bin/$e" -lm
  evals+=("$here/data/$e.json")
done
jax="env PYTHONPATH=$src/python/gradbench XLA_FLAGS='--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1'"
jax+=" $venv/bin/python $src/python/gradbench/gradbench/tools/jax/run.py"
echo "calx: $tool; manual and JAX: $src ($(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo '?')), jax $("$venv/bin/python" -c 'import jax; print(jax.__version__)')"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) CPUs"
cd "$here"
taskset -c 0 python3 compare.py "$tool" "$bin" "${evals[@]}" --jax "$jax" "$@"
