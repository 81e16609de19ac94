#!/usr/bin/env bash
# Builds GradBench's `manual` tool from a GradBench checkout with its own flags (g++ -O3
# -march=native, cpp/common.mk with NATIVE=yes, one thread) and times it beside calx's tool on
# the workloads in data/ (compare.py). calx's tool is the CMake target calx_gradbench.
#
#   bash bench/gradbench/run.sh GRADBENCH_CHECKOUT CALX_TOOL [compare.py options]
#
# e.g. git clone https://github.com/gradbench/gradbench /tmp/gradbench (gradbench@f26651a7
# for the numbers in docs/performance.md) and CALX_TOOL=build/bench/calx_gradbench. manual's
# sources include "json.hpp": Debian's nlohmann-json3-dev stands in for it.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$1
tool=$(realpath "$2")
shift 2
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
echo '#include <nlohmann/json.hpp>' >"$bin/json.hpp"
evals=()
for data in "$here"/data/*.json; do
  e=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["eval"])' "$data")  # ht_simple.json is ht's
  [[ -x "$bin/$e" ]] ||
    ${CXX:-g++} -std=c++17 -O3 -Wall -Wno-unknown-pragmas -march=native -I"$src/cpp" -I"$bin" "$src/tools/manual/$e.cpp" -o "$bin/$e" -lm
  evals+=("$data")
done
echo "calx: $tool; manual: $src/tools/manual ($(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo '?')), ${CXX:-g++} -O3 -march=native"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) CPUs"
cd "$here"
taskset -c 0 python3 compare.py "$tool" "$bin" "${evals[@]}" "$@"
