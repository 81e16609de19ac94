#!/usr/bin/env bash
# Compile time and peak compiler memory of one calx::cond against the same function written
# with calx::where (issue 10): a TU with calx::grad of a two-operand function whose branches
# are sqrt(a) * b and a * a + b, compiled to an object file with g++-12 -O2 (the
# benchmarks' flags), three times each, alternating.
#
#   bash bench/compile/cond_cost.sh
#
# Environment: CXX (default g++-12), RUNS (default 3).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CXX="${CXX:-g++-12}"
RUNS="${RUNS:-3}"
WORK="$(mktemp -d /tmp/calx-cond.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT

cat >"$WORK/f.cpp" <<'CPP'
#include <calx/calx.hpp>
#include <calx/cond.hpp>
constexpr auto f = [](auto x, auto y) {
#ifdef WITH_COND
  return calx::cond(x > 0.0, [](auto a, auto b) { return calx::sqrt(a) * b; }, [](auto a, auto b) { return a * a + b; },
                    x, y);
#else
  return calx::where(x > 0.0, calx::sqrt(x) * y, x * x + y);
#endif
};
double run(double x, double y) { return calx::grad(f)(x, y); }
CPP

measure() {  # measure <flags>: "wall s / peak MiB"
  /usr/bin/time -f "%e s / %M" "$CXX" -std=c++20 -O2 -march=native -fconstexpr-ops-limit=1073741824 -I"$ROOT/include" \
    $1 -c "$WORK/f.cpp" -o "$WORK/f.o" 2>&1 | tail -1 | awk '{ printf "%s s / %.0f MiB", $1, $4 / 1024 }'
}

echo "| run | calx::where | calx::cond |"
echo "|---:|---:|---:|"
for r in $(seq "$RUNS"); do
  echo "| $r | $(measure "") | $(measure -DWITH_COND) |"
done
