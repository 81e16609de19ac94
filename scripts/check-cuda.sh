#!/usr/bin/env bash
# Compiles calx's CUDA checks (tests/cuda/*.cu) with nvcc, compile-only: they evaluate calx
# programs inside __global__ kernels. Exits 0 with a note when nvcc is not installed.
#
#   bash scripts/check-cuda.sh [output dir, default: build-cuda]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

nvcc=$(command -v nvcc || true)
if [[ -z "$nvcc" && -x /usr/local/cuda/bin/nvcc ]]; then nvcc=/usr/local/cuda/bin/nvcc; fi
if [[ -z "$nvcc" ]]; then
  echo "check-cuda: nvcc not found (PATH, /usr/local/cuda/bin): skipped"
  exit 0
fi

out=${1:-build-cuda}
mkdir -p "$out"
arch=${CALX_CUDA_ARCH:-sm_90}
"$nvcc" --version | tail -n 1
for source in tests/cuda/*.cu; do
  object="$out/$(basename "${source%.cu}").o"
  echo "check-cuda: $source"
  "$nvcc" -std=c++20 --expt-relaxed-constexpr -arch="$arch" -I include -I tests -Werror cross-execution-space-call \
    -c "$source" -o "$object"
done
echo "check-cuda: ok"
