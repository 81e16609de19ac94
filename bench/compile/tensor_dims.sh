#!/usr/bin/env bash
# Compile time and peak compiler memory of tensor programs as one dimension grows (issue 9:
# they stay flat: nothing at compile time walks elements). Each program is compiled to an object file with g++-12 (the
# benchmarks' flags and the constant-evaluation limit calx::calx sets), once per size:
#   - least_squares: calx::grad of |A x - b|^2 with respect to x, A of N x N;
#   - mlp: calx::vmap(calx::grad) of a one-hidden-layer MLP with N hidden units (N x 16 weights);
#   - nodes: the number of IR nodes of least_squares' gradient (from calx::trace).
#
#   bash bench/compile/tensor_dims.sh               # sizes 4 64 256 1024 4096
#   SIZES="4 16" bash bench/compile/tensor_dims.sh
#
# Environment: CXX (default g++-12), SIZES, LIMIT (seconds per compile, default 300).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CXX="${CXX:-g++-12}"
SIZES="${SIZES:-4 64 256 1024 4096}"
LIMIT="${LIMIT:-300}"
WORK="$(mktemp -d /tmp/calx-dims.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT

cat >"$WORK/least_squares.cpp" <<'CPP'
#include <calx/calx.hpp>
constexpr auto f = [](const auto& a, const auto& x, const auto& b) {
  const auto r = calx::matvec(a, x) - b;
  return calx::dot(r, r);
};
void run(const calx::tensor<double, DIM, DIM>& a, const calx::tensor<double, DIM>& x,
         const calx::tensor<double, DIM>& b, calx::tensor<double, DIM>& g) {
  g = calx::grad(f, calx::argnums<1>)(a, x, b);
}
std::size_t nodes() {
  using P = decltype(calx::trace(calx::grad(f, calx::argnums<1>), calx::tensor<double, DIM, DIM>{},
                                 calx::tensor<double, DIM>{}, calx::tensor<double, DIM>{}));
  return std::remove_cvref_t<decltype(P::ir)>::size;
}
CPP
cat >"$WORK/mlp.cpp" <<'CPP'
#include <calx/calx.hpp>
#include <vector>
struct mlp {
  BOOST_HANA_DEFINE_STRUCT(mlp, (calx::tensor<float, DIM, 16>, w1), (calx::tensor<float, DIM>, b1),
                           (calx::tensor<float, 1, DIM>, w2), (calx::tensor<float, 1>, b2));
};
constexpr auto loss = [](const auto& p, const auto& x, const auto& y) {
  auto h = calx::tanh(calx::matvec(p.w1, x) + p.b1);
  auto d = (calx::matvec(p.w2, h) + p.b2)(0) - y;
  return d * d;
};
void run(const mlp& p, const std::vector<calx::tensor<float, 16>>& xs, const std::vector<float>& ys,
         std::vector<mlp>& g) {
  calx::vmap(calx::grad(loss), calx::in_axes<calx::none, 0, 0>).into(g)(p, xs, ys);
}
CPP
cat >"$WORK/nodes.cpp" <<'CPP'
#include <cstdio>
#include <cstddef>
std::size_t nodes();
int main() { std::printf("%zu\n", nodes()); }
CPP

measure() { # measure <source> <N>: "wall s / peak MiB" or "FAIL"
  local log="$WORK/log"
  if timeout "$LIMIT" /usr/bin/time -v "$CXX" -std=c++20 -O2 -march=native -fconstexpr-ops-limit=1073741824 \
      -I"$ROOT/include" -DDIM="$2" -c "$1" -o "$WORK/o.o" >"$log" 2>&1; then
    awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; ++i) s = s * 60 + p[i] }
                /Maximum resident set size/ { m = $2 / 1024 }
                END { printf "%.1f s / %.0f MiB", s, m }' "$log"
  else
    echo "FAIL (or over ${LIMIT} s)"
  fi
}

echo "| N | least_squares grad, N x N | IR nodes | mlp vmap(grad), N hidden |"
echo "|---:|---:|---:|---:|"
for n in $SIZES; do
  ls="$(measure "$WORK/least_squares.cpp" "$n")"
  nodes="?"
  if [[ "$ls" != FAIL* ]]; then
    cp "$WORK/o.o" "$WORK/ls.o"
    "$CXX" -std=c++20 -c "$WORK/nodes.cpp" -o "$WORK/nodes.o" && "$CXX" "$WORK/ls.o" "$WORK/nodes.o" -o "$WORK/nodes" &&
      nodes="$("$WORK/nodes")"
  fi
  echo "| $n | $ls | $nodes | $(measure "$WORK/mlp.cpp" "$n") |"
done
