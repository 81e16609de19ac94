#!/usr/bin/env bash
# Compile time and peak compiler memory of jacfwd, jacrev and hessian over a tensor of N
# elements (issue 25, item 4: they grow with the program, not with N). The function
# reshapes x (N elements) to N/2 rows of 2, multiplies them by stack(sum(x), max(x)) with
# matvec and takes tanh: y (N/2) depends on every element of x. Each Jacobian is compiled
# alone to an object file with g++-12 (the benchmarks' flags and the constant-evaluation
# limit calx::calx sets), once per size, and the IR nodes of its program are counted.
# Up to 8 elements the passes are written out, past it they are one loop over the basis
# (detail/call/jacobian.hpp).
#
#   bash bench/compile/jacobian_dims.sh               # sizes 4 26 256 1024
#   SIZES="4 64" bash bench/compile/jacobian_dims.sh
#
# Environment: CXX (default g++-12), SIZES, LIMIT (seconds per compile, default 300).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CXX="${CXX:-g++-12}"
SIZES="${SIZES:-4 26 256 1024}"
LIMIT="${LIMIT:-300}"
WORK="$(mktemp -d /tmp/calx-jacobian.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT

cat >"$WORK/jacobian.cpp" <<'CPP'
#include <calx/calx.hpp>
#include <memory>
#include <type_traits>
using vec = calx::tensor<double, DIM>;
constexpr auto f = [](const auto& x) {
  const auto rows = calx::reshape<DIM / 2, 2>(x);
  return calx::tanh(calx::matvec(rows, calx::stack(calx::sum(x), calx::max(x))));
};
constexpr auto s = [](const auto& x) { return calx::sum(f(x)); };
#if KIND == 0
constexpr auto d = calx::jacfwd(f);
#elif KIND == 1
constexpr auto d = calx::jacrev(f);
#else
constexpr auto d = calx::hessian(s);
#endif
using result = std::remove_cvref_t<decltype(d(vec{}))>;
void run(const vec& x, result& out) { out = d(x); }
std::size_t nodes() {
  using P = decltype(calx::trace(d, vec{}));
  return std::remove_cvref_t<decltype(P::ir)>::size;
}
CPP
cat >"$WORK/nodes.cpp" <<'CPP'
#include <cstdio>
#include <cstddef>
std::size_t nodes();
int main() { std::printf("%zu\n", nodes()); }
CPP

measure() { # measure <N> <kind>: "wall s / peak MiB, nodes" or "FAIL"
  local log="$WORK/log"
  if timeout "$LIMIT" /usr/bin/time -v "$CXX" -std=c++20 -O2 -march=native -fconstexpr-ops-limit=1073741824 \
      -I"$ROOT/include" -DDIM="$1" -DKIND="$2" -c "$WORK/jacobian.cpp" -o "$WORK/o.o" >"$log" 2>&1; then
    local cost nodes="?"
    cost="$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; ++i) s = s * 60 + p[i] }
                /Maximum resident set size/ { m = $2 / 1024 }
                END { printf "%.1f s / %.0f MiB", s, m }' "$log")"
    "$CXX" -std=c++20 -c "$WORK/nodes.cpp" -o "$WORK/nodes.o" && "$CXX" "$WORK/o.o" "$WORK/nodes.o" -o "$WORK/nodes" &&
      nodes="$("$WORK/nodes")"
    echo "$cost, $nodes nodes"
  else
    echo "FAIL (or over ${LIMIT} s)"
  fi
}

echo "| N | jacfwd(f) | jacrev(f) | hessian(sum(f)) |"
echo "|---:|---:|---:|---:|"
for n in $SIZES; do
  echo "| $n | $(measure "$n" 0) | $(measure "$n" 1) | $(measure "$n" 2) |"
done
