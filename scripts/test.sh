#!/usr/bin/env bash
# The test command: configure (Release, -O2), build everything with all cores, run CTest.
# Exits non-zero if anything fails.
#
#   bash scripts/test.sh [extra cmake configure arguments...]
#
# Environment: CALX_BUILD_DIR (default: build), CALX_JOBS (default: all cores),
# CXX (the compiler, as CMake reads it on a first configure).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

build_dir=${CALX_BUILD_DIR:-build}
jobs=${CALX_JOBS:-$(nproc 2>/dev/null || echo 2)}

# -O2 without -DNDEBUG: optimised like a user's build, with assert() still checked.
# CALX_COMPILE_BUDGET: every compile is timed, and the CTest compile_budget checks each
# translation unit against bench/compile/budget.txt (docs/performance.md).
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE=-O2 -DCALX_COMPILE_BUDGET=ON "$@"
cmake --build "$build_dir" --parallel "$jobs"
ctest --test-dir "$build_dir" --output-on-failure --no-tests=error --parallel "$jobs"
