#!/usr/bin/env bash
# Where each compiler runs out: the largest program calx traces with the compilers' default
# constant-evaluation limits, and with the limits calx::calx raises them to.
#  - statements: a straight-line function of n statements (bench/compile/run.sh's chain), and
#    its gradient; the largest n that compiles, searched by bisection;
#  - loop: a 1-D loop of n iterations unrolled while tracing, each one statement;
#  - derivative order: grad^k of Black-Scholes, the largest k that compiles (k <= 6).
# Prints a markdown table (docs/performance.md, "Compile limits").
#
#   bash bench/compile/limits.sh            # g++-12 and clang++-14, about 15 minutes
#   GXX= bash bench/compile/limits.sh       # clang only (an empty compiler is skipped)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
GXX="${GXX-g++-12}"
CLANGXX="${CLANGXX-clang++-14}"
WORK="$(mktemp -d /tmp/calx-limits.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
MAX_N="${MAX_N:-2000}"

prelude() {
  cat <<'EOF'
#include <calx/calx.hpp>
constexpr auto bs = [](auto S, auto K, auto T, auto r, auto sigma) {
  auto sqrt_t = calx::sqrt(T);
  auto vol = sigma * sqrt_t;
  auto d1 = (calx::log(S / K) + (r + 0.5 * (sigma * sigma)) * T) / vol;
  auto d2 = d1 - vol;
  auto N = [](auto z) { return 0.5 * calx::erfc(-z * 0.70710678118654752); };
  return S * N(d1) - K * calx::exp(-(r * T)) * N(d2);
};
EOF
}

gen_chain() {  # n statements, each reading the two before it; $2: plain or grad
  local n="$1" i
  prelude
  echo 'constexpr auto chain = [](auto x, auto y) {'
  echo '  auto v0 = x;'
  echo '  auto v1 = y;'
  for ((i = 2; i < n + 2; ++i)); do
    case $((i % 4)) in
      0) echo "  auto v$i = calx::sin(v$((i - 1))) * v$((i - 2)) + 0.5;" ;;
      1) echo "  auto v$i = v$((i - 1)) * 0.75 - calx::exp(-v$((i - 2)));" ;;
      2) echo "  auto v$i = calx::tanh(v$((i - 1)) + v$((i - 2)) * 1.5);" ;;
      3) echo "  auto v$i = v$((i - 1)) / (1.0 + v$((i - 2)) * v$((i - 2)));" ;;
    esac
  done
  echo "  return v$((n + 1));"
  echo '};'
  if [[ "$2" == grad ]]; then
    echo 'int main() { return calx::grad(chain, calx::argnums<0, 1>)(0.5, 0.25) == std::tuple{0.0, 0.0}; }'
  else
    echo 'int main() { return calx::trace(chain, 1.0, 1.0)(0.5, 0.25) > 0.0; }'
  fi
}

gen_loop() {  # a loop of n iterations, unrolled while tracing
  prelude
  cat <<EOF
constexpr auto loop = [](auto x, auto y) {
  auto s = x;
  for (int i = 0; i < $1; ++i) s = s * 0.999 + calx::sin(s) * y;
  return s;
};
int main() { return calx::trace(loop, 1.0, 1.0)(0.5, 0.25) > 0.0; }
EOF
}

gen_order() {  # grad^k of bs in S
  local k="$1" expr="bs" i
  for ((i = 0; i < k; ++i)); do expr="calx::grad($expr)"; done
  prelude
  echo "int main() { return $expr(100.0, 95.0, 0.5, 0.03, 0.2) > 0.0; }"
}

# compiles <compiler> <source> [flags...]: 0 if the source compiles (syntax only: evaluation
# at compile time is what is measured).
compiles() {
  local cxx="$1" src="$2"
  shift 2
  "$cxx" -std=c++20 -I"$ROOT/include" "$@" -fsyntax-only "$src" >"$WORK/log" 2>&1
}

# largest <generator> <kind> n in [lo, MAX_N] that compiles (bisection; "> MAX_N" if all do)
largest() {
  local gen="$1" kind="$2" cxx="$3"
  shift 3
  local lo=0 hi="$MAX_N" mid src="$WORK/t.cpp"
  $gen "$hi" "$kind" >"$src"
  if compiles "$cxx" "$src" "$@"; then echo "> $MAX_N"; return; fi
  while ((hi - lo > lo / 20 + 1)); do
    mid=$(((lo + hi) / 2))
    $gen "$mid" "$kind" >"$src"
    if compiles "$cxx" "$src" "$@"; then lo=$mid; else hi=$mid; fi
  done
  echo "$lo"
}

largest_order() {
  local cxx="$1" k best=-1 src="$WORK/o.cpp"
  shift
  for ((k = 0; k <= 6; ++k)); do
    gen_order "$k" >"$src"
    if compiles "$cxx" "$src" "$@"; then best=$k; else break; fi
  done
  echo "$best"
}

echo "| compiler | flags | statements | grad of statements | loop iterations | derivative order of Black-Scholes |"
echo "|---|---|---:|---:|---:|---:|"
for cxx in $GXX $CLANGXX; do
  [[ -z "$cxx" ]] && continue
  if [[ "$cxx" == *clang* ]]; then raised=(-fconstexpr-steps=100000000); else raised=(-fconstexpr-ops-limit=1073741824); fi
  for mode in default raised; do
    flags=()
    [[ "$mode" == raised ]] && flags=("${raised[@]}")
    echo "| $($cxx --version | head -1 | awk '{print $1, $NF}') | ${flags[*]:-defaults} |" \
      "$(largest gen_chain plain "$cxx" "${flags[@]}") |" \
      "$(largest gen_chain grad "$cxx" "${flags[@]}") |" \
      "$(largest gen_loop - "$cxx" "${flags[@]}") |" \
      "$(largest_order "$cxx" "${flags[@]}") |"
  done
done
echo
echo "calx $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown), $(date -u +%Y-%m-%d); largest size that compiles, to 5%."
