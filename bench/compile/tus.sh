#!/usr/bin/env bash
# Compile time and peak memory of every example, benchmark, tool and test translation unit of
# calx, with g++-12 and clang++-14, as a markdown table (the build's own record of every
# compile, with the budgets, is the CTest compile_budget: docs/performance.md). Flags: the benchmarks' (-std=c++20 -O2
# -march=native) plus the constant-evaluation limits calx::calx sets; benchmarks also get
# Google Benchmark's include path (a system header) and tests/ (bench_user_ops includes
# tests/_include/user_ops.hpp). Each TU is compiled to an object file once per compiler.
#
#   bash bench/compile/tus.sh                  # markdown on stdout
#   OUT=/tmp/tus.md bash bench/compile/tus.sh
#
# Environment: GXX, CLANGXX (compilers; an empty value skips one), OUT (also write here).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
GXX="${GXX-g++-12}"
CLANGXX="${CLANGXX-clang++-14}"
OUT="${OUT:-}"
WORK="$(mktemp -d /tmp/calx-tus.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT

COMMON=(-std=c++20 -O2 -march=native -I"$ROOT/include" -I"$ROOT/tests" -I"$ROOT/bench")

measure() { # measure <compiler> <limit flag> <source>: "wall s / peak MiB" or "FAIL"
  local log="$WORK/log"
  if /usr/bin/time -v "$1" "$2" "${COMMON[@]}" -c "$3" -o "$WORK/o.o" >"$log" 2>&1; then
    awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; ++i) s = s * 60 + p[i] }
                /Maximum resident set size/ { m = $2 / 1024 }
                END { printf "%.1f s / %.0f MiB", s, m }' "$log"
  else
    echo "FAIL"
  fi
}

table="| translation unit | g++-12 | clang++-14 |"$'\n'"|---|---:|---:|"
for src in "$ROOT"/examples/*.cpp "$ROOT"/bench/*.cpp "$ROOT"/tools/*.cpp "$ROOT"/tests/*.cpp; do
  rel="${src#"$ROOT"/}"
  g="skipped"
  c="skipped"
  [[ -n "$GXX" ]] && g="$(measure "$GXX" -fconstexpr-ops-limit=1073741824 "$src")"
  [[ -n "$CLANGXX" ]] && c="$(measure "$CLANGXX" -fconstexpr-steps=100000000 "$src")"
  table+=$'\n'"| \`$rel\` | $g | $c |"
done

rev="$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
text="$table"$'\n\n'"calx $rev, $(date +%F), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end; wall time and peak RSS of one compile to an object file."
echo "$text"
if [[ -n "$OUT" ]]; then echo "$text" >"$OUT"; fi
