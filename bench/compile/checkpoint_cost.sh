#!/usr/bin/env bash
# Compile time and peak compiler memory of one calx::checkpoint (issue 10): a TU with
# calx::grad of a function of two scalars whose inner part (sin, exp, tanh, two results)
# is checkpointed or not, compiled to an object file with g++-12 -O2 -march=native, three
# times each, alternating.
#
#   bash bench/compile/checkpoint_cost.sh
#
# Environment: CXX (default g++-12), RUNS (default 3).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CXX="${CXX:-g++-12}"
RUNS="${RUNS:-3}"
WORK="$(mktemp -d /tmp/calx-checkpoint.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT

cat >"$WORK/f.cpp" <<'CPP'
#include <calx/calx.hpp>
#include <array>
constexpr auto inner = [](auto x, auto y) {
  const auto a = calx::sin(x * y);
  const auto b = calx::exp(a - y);
  const auto c = calx::tanh(b * x + a);
  return std::array{c * a + x, b * y - c};
};
constexpr auto f = [](auto x, auto y) {
#ifdef WITH_CHECKPOINT
  const auto r = calx::checkpoint(inner)(x, y);
#else
  const auto r = inner(x, y);
#endif
  return r[0] * r[1] + r[0];
};
double run(double x, double y) { return calx::grad(f)(x, y); }
CPP

measure() {  # measure <flags>: "wall s / peak MiB"
  /usr/bin/time -f "%e s / %M" "$CXX" -std=c++20 -O2 -march=native -fconstexpr-ops-limit=1073741824 -I"$ROOT/include" \
    $1 -c "$WORK/f.cpp" -o "$WORK/o.o" 2>&1 | tail -1 | awk '{ printf "%s s / %.0f MiB", $1, $4 / 1024 }'
}

echo "| run | plain | calx::checkpoint |"
echo "|---:|---:|---:|"
for r in $(seq "$RUNS"); do
  echo "| $r | $(measure "") | $(measure -DWITH_CHECKPOINT) |"
done
