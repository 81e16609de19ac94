#!/usr/bin/env bash
# Compile time and peak compiler memory of calx::fori_loop and calx::scan against the
# number of steps, and of the same loop unrolled while tracing (issue 10): a TU with
# calx::grad and calx::vmap of calx::grad of an explicit-Euler damped oscillator (carry:
# position, velocity, damping; the scan's per-step input a forcing, its output x^2),
# compiled to an object file with g++-12 -O2 -march=native. A loop's IR is one node whatever
# the number of steps, so its columns should not move with it; the unrolled one grows
# (10,000 unrolled steps are out of reach: 1000 took 31 s and 1.4 GB, docs/performance.md).
#
#   bash bench/compile/loop_cost.sh
#
# Environment: CXX (default g++-12), RUNS (default 3).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CXX="${CXX:-g++-12}"
RUNS="${RUNS:-3}"
WORK="$(mktemp -d /tmp/calx-loop.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT

cat >"$WORK/f.cpp" <<'CPP'
#include <calx/calx.hpp>
#include <array>
#include <vector>
constexpr auto euler = [](auto, auto s) {
  return std::array{s[0] + 0.01 * s[1], s[1] - 0.01 * (s[0] + s[2] * s[1]), s[2]};
};
constexpr auto f = [](auto x, auto v, auto c) {
#ifdef UNROLLED
  auto s = std::array{x, v, c};
  for (int i = 0; i < STEPS; ++i) s = euler(i, s);
#else
  const auto s = calx::fori_loop(0, STEPS, euler, std::array{x, v, c});
#endif
  return s[0];
};
double run(double x, double v, double c) { return calx::grad(f)(x, v, c); }
std::vector<double> run_batch(const std::vector<double>& x, double v, double c) {
  return calx::vmap(calx::grad(f), calx::in_axes<0, calx::none, calx::none>)(x, v, c);
}
CPP

cat >"$WORK/s.cpp" <<'CPP'
#include <calx/calx.hpp>
#include <array>
#include <utility>
#include <vector>
constexpr auto f = [](auto x, auto c, const auto& force) {
  const auto [s, squares] = calx::scan(
      [](auto s, auto u) {
        const auto x1 = s[0] + 0.01 * s[1];
        return std::pair{std::array{x1, s[1] - 0.01 * (s[0] + s[2] * s[1]) + 0.01 * u, s[2]}, x1 * x1};
      },
      std::array{x, 0.0 * x, c}, force);
  return calx::sum(squares) + s[0];
};
using forcing = calx::tensor<double, STEPS>;
double run(double x, double c, const forcing& u) { return calx::grad(f)(x, c, u); }
std::vector<double> run_batch(const std::vector<double>& x, double c, const forcing& u) {
  return calx::vmap(calx::grad(f), calx::in_axes<0, calx::none, calx::none>)(x, c, u);
}
CPP

measure() {  # measure <source> <flags>: "wall s / peak MiB"
  /usr/bin/time -f "%e s / %M" "$CXX" -std=c++20 -O2 -march=native -fconstexpr-ops-limit=1073741824 -I"$ROOT/include" \
    $2 -c "$WORK/$1" -o "$WORK/o.o" 2>&1 | tail -1 | awk '{ printf "%s s / %.0f MiB", $1, $4 / 1024 }'
}

echo "| run | fori_loop, 10 steps | fori_loop, 10,000 | scan, 10 steps | scan, 10,000 | unrolled, 10 steps | unrolled, 100 |"
echo "|---:|---:|---:|---:|---:|---:|---:|"
for r in $(seq "$RUNS"); do
  echo "| $r | $(measure f.cpp -DSTEPS=10) | $(measure f.cpp -DSTEPS=10000) | $(measure s.cpp -DSTEPS=10) |" \
    "$(measure s.cpp -DSTEPS=10000) | $(measure f.cpp "-DSTEPS=10 -DUNROLLED") | $(measure f.cpp "-DSTEPS=100 -DUNROLLED") |"
done
