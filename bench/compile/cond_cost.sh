#!/usr/bin/env bash
# Compile time and peak compiler memory of one calx::cond, and of a calx::switch_ of three
# branches, against the same functions written with calx::where (issue 10): a TU with
# calx::grad of a two-operand function whose branches are sqrt(a) * b and a * a + b, and
# one of an activation picked by an integer (tanh, sigmoid, softplus), compiled to an object
# file with g++-12 -O2 -march=native, three times each, alternating.
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

cat >"$WORK/s.cpp" <<'CPP'
#include <calx/calx.hpp>
#include <tuple>
constexpr auto branches = std::tuple{[](auto v) { return calx::tanh(v); }, [](auto v) { return calx::sigmoid(v); },
                                     [](auto v) { return calx::softplus(v); }};
constexpr auto f = [](auto k, auto v) {
#ifdef WITH_SWITCH
  return calx::switch_(k, branches, v);
#else
  return calx::where(k < 1.0, calx::tanh(v), calx::where(k < 2.0, calx::sigmoid(v), calx::softplus(v)));
#endif
};
double run(int k, double v) { return calx::grad(f, calx::argnums<1>)(k, v); }
CPP

measure() {  # measure <source> <flags>: "wall s / peak MiB"
  /usr/bin/time -f "%e s / %M" "$CXX" -std=c++20 -O2 -march=native -fconstexpr-ops-limit=1073741824 -I"$ROOT/include" \
    $2 -c "$WORK/$1" -o "$WORK/o.o" 2>&1 | tail -1 | awk '{ printf "%s s / %.0f MiB", $1, $4 / 1024 }'
}

echo "| run | calx::where | calx::cond | two calx::where | calx::switch_ of 3 |"
echo "|---:|---:|---:|---:|---:|"
for r in $(seq "$RUNS"); do
  echo "| $r | $(measure f.cpp "") | $(measure f.cpp -DWITH_COND) | $(measure s.cpp "") | $(measure s.cpp -DWITH_SWITCH) |"
done
