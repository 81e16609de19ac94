#!/usr/bin/env bash
# Builds a chosen subset of calx's unit tests with AddressSanitizer and UndefinedBehaviorSanitizer
# and runs them: any report (an uninitialised or out-of-bounds read in a loop's kernel, undefined
# behaviour in a conversion) fails the run. Not part of CI: a loop test compiles in 2-4 minutes
# at -O1 with the sanitizers, past CI's budget (docs/testing.md).
#
#   bash scripts/sanitize.sh [g++|clang] [test names...]
#
# Default compiler g++ (g++-12), default tests the loop and branch tests. Environment:
# CALX_JOBS (default: all cores), CALX_BUILD_DIR (default: build-sanitize-gcc or -clang).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

compiler=${1:-g++}
shift || true
case "$compiler" in
  g++ | gcc) cxx=g++-12 name=gcc ;;
  clang | clang++) cxx=clang++-14 name=clang ;;
  *) echo "sanitize: unknown compiler '$compiler' (g++ or clang)" >&2; exit 2 ;;
esac
command -v "$cxx" >/dev/null || cxx=${cxx%-*}

tests=("$@")
if ((${#tests[@]} == 0)); then
  tests=(while_loop fori_loop scan scan_tensors loop_tensors loop_carries.while loop_carries.fori loop_carries.scan
         cond checkpoint)
fi

build_dir=${CALX_BUILD_DIR:-build-sanitize-$name}
jobs=${CALX_JOBS:-$(nproc 2>/dev/null || echo 2)}
sanitizers="address,undefined,float-cast-overflow"
flags="-O1 -g -fsanitize=$sanitizers -fno-sanitize-recover=all -fno-omit-frame-pointer"
# GCC 12 cannot evaluate a comparison of function pointers in a constant expression under
# these three checks (calx's op descriptions compare them while tracing): it refuses to
# compile. clang runs them.
[[ $cxx == g++* ]] && flags+=" -fno-sanitize=null,nonnull-attribute,returns-nonnull-attribute"

cmake -S . -B "$build_dir" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_FLAGS_DEBUG="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=$sanitizers" \
  -DCALX_BUILD_EXAMPLES=OFF -DCALX_BUILD_BENCHMARKS=OFF -DCALX_ENABLE_CUDA=OFF -DCALX_VERIFY_HEADERS=OFF >/dev/null

# A test split into parts for its compile budget (tests/<name>.<k>.cpp) is named by its base
# name and runs all its parts.
names=()
for t in "${tests[@]}"; do
  if [[ -f tests/$t.cpp ]]; then
    names+=("$t")
  else
    parts=(tests/"$t".[0-9]*.cpp)
    [[ -f ${parts[0]} ]] || { echo "sanitize: no test '$t' (tests/$t.cpp or tests/$t.<k>.cpp)" >&2; exit 2; }
    for f in "${parts[@]}"; do names+=("$(basename "$f" .cpp)"); done
  fi
done
targets=()
regex=""
for t in "${names[@]}"; do
  targets+=("test.$t")
  regex+="${regex:+|}^${t//./\\.}\$"
done
# One target per build, $jobs of them at once: a make build of several targets runs them one
# after the other, and each test is one translation unit.
cmake --build "$build_dir" --target calx_catch_main
printf '%s\n' "${targets[@]}" | xargs -P "$jobs" -I{} cmake --build "$build_dir" --target {}

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir "$build_dir" --output-on-failure --no-tests=error --parallel "$jobs" -R "$regex"
