#!/usr/bin/env bash
# Installs what calx needs to build and test, on Debian 12 (bookworm), non-interactively.
# Idempotent and fast when nothing is missing: apt is not touched then.
# Run as root, or as a user with sudo.
set -euo pipefail

packages=(
  build-essential  # make, libc headers
  g++              # g++ 12 on Debian 12: the main compiler
  cmake            # 3.25 on Debian 12 (calx needs >= 3.24)
  libboost-dev     # Boost.Hana (header-only)
  libxsimd-dev     # xsimd 8.1: the SIMD backend
  catch2           # Catch2 2.13: the unit tests
  libbenchmark-dev # Google Benchmark: bench/ (optional for a build, installed for CI)
  nlohmann-json3-dev # JSON for bench/gradbench/, the GradBench tool (optional for a build)
  libceres-dev     # Ceres Solver: calx/ceres.hpp, its tests and benchmark (optional)
  libeigen3-dev    # Eigen 3: calx/eigen.hpp, its tests, example and benchmark (optional)
  clang-14         # the second compiler CI builds the tests with
  pkgconf          # pkg-config: the install test checks calx.pc with it
  python3          # tests/fuzz/generate.py writes the fuzzer's programs (the fuzz tests)
  git
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "installed" ]] || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi

sudo=()
if ((EUID != 0)); then
  if command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
  else
    echo "install-deps: not root and no sudo; install these as root: ${missing[*]}" >&2
    exit 1
  fi
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -q
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
