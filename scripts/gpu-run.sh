#!/usr/bin/env bash
# Runs calx's CUDA binaries on a machine with a GPU: the device tests, the example, the
# benchmark at 2^24 points, and compute-sanitizer's memcheck over the tests. The binaries
# are built beforehand on a machine with nvcc and calx's dependencies (the GPU machine
# needs only the CUDA driver):
#
#   cmake -S . -B build-cuda -DCALX_ENABLE_CUDA=ON -DCMAKE_BUILD_TYPE=Release
#   cmake --build build-cuda -j2 --target test.cuda.vmap_device test.cuda.vmap_device_control \
#     test.cuda.eval_in_kernel test.cuda.tensor_in_kernel test.cuda.tensor_op_in_kernel test.cuda.divide cuda bench_cuda
#   bash scripts/gpu-run.sh --collect build-cuda gpu-bin     # copies them into gpu-bin/
#   # on the GPU machine, from the repository's root:
#   bash scripts/gpu-run.sh gpu-bin [log dir]
#
# Every step's output goes to steps.log in the log dir (default: $OUT, else gpu-log), the
# benchmark's also to bench.log; exits nonzero if any step failed.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/.."
tests=(test.cuda.vmap_device test.cuda.vmap_device_control test.cuda.eval_in_kernel test.cuda.tensor_in_kernel
  test.cuda.tensor_op_in_kernel test.cuda.divide)

if [[ "${1:-}" == --collect ]]; then
  build=${2:-build-cuda} bin=${3:-gpu-bin}
  mkdir -p "$bin"
  for t in "${tests[@]}"; do [[ -x "$build/tests/$t" ]] && cp "$build/tests/$t" "$bin/"; done
  cp "$build/examples/cuda" "$bin/example.cuda"
  cp "$build/bench/bench_cuda" "$bin/"
  ls -la "$bin"
  exit 0
fi

bin=${1:-gpu-bin}
log=${2:-${OUT:-gpu-log}}
mkdir -p "$log"
failed=0
step() {  # step NAME TIMEOUT COMMAND...: runs it, its output into the log, a line of status
  local name=$1 limit=$2
  shift 2
  local start=$SECONDS
  timeout "$limit" "$@" >"$log/step.out" 2>&1
  local rc=$?
  echo "== $name: rc=$rc, $((SECONDS - start)) s"
  tail -n 4 "$log/step.out"
  { echo "== $name: rc=$rc"; cat "$log/step.out"; } >>"$log/steps.log"
  [[ $name == bench* ]] && cat "$log/step.out" >>"$log/bench.log"
  rm -f "$log/step.out"
  [[ $rc -ne 0 ]] && failed=1
  return 0
}

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv
for t in "${tests[@]}"; do [[ -x "$bin/$t" ]] && step "$t" 120 "$bin/$t"; done
step example.cuda 60 "$bin/example.cuda"
step bench.small 60 "$bin/bench_cuda" 65536
step bench 180 "$bin/bench_cuda" 16777216
# A benchmark built from another commit, to compare on the same machine in the same run.
[[ -x "$bin/bench_cuda_before" ]] && step bench.before 180 "$bin/bench_cuda_before" 16777216
[[ -x "$bin/bench_cuda_before" ]] && step bench.again 180 "$bin/bench_cuda" 16777216
# CALX_GPU_PROFILE=1: Nsight Compute's summary of the Black-Scholes kernels, calx's and the
# hand-written one, f64 then f32 (the first two launches of each pair that match).
if [[ "${CALX_GPU_PROFILE:-0}" == 1 ]] && command -v ncu >/dev/null; then
  for p in d f; do
    step "ncu.$p" 150 ncu --kernel-name-base mangled -k "regex:EEE${p}EEvNS1_11device_loop|greeks_handI${p}E" -c 2 \
      --section SpeedOfLight --section Occupancy --metrics smsp__inst_executed.sum,dram__bytes.sum \
      "$bin/bench_cuda" 1048576
  done
fi
if command -v compute-sanitizer >/dev/null; then
  for t in "${tests[@]}"; do
    [[ -x "$bin/$t" ]] && step "memcheck.$t" 45 compute-sanitizer --tool memcheck --error-exitcode 9 "$bin/$t"
  done
fi
exit $failed
