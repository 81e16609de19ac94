#!/usr/bin/env bash
# Compile time and peak compiler memory of programs with nested derivatives (issue 30,
# item 4): examples/particle.cpp (the gradient of a potential inside a while_loop's body,
# reverse mode, and a forward derivative of the whole loop: GradBench's particle "fr",
# checked in reverse mode, "rr"; ~40 ops in the body), the same with the inner gradient in
# forward mode ("ff", "rf"), and
# examples/saddle.cpp (a gradient descent as a while_loop with a gradient in its body,
# differentiated in forward mode from outside: GradBench's saddle), each compiled to an
# object file with g++-12 -O2 -march=native. Budget: 20 s and 1.5 GB a TU.
#
#   bash bench/compile/nested_cost.sh
#
# Environment: CXX (default g++-12), RUNS (default 3).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CXX="${CXX:-g++-12}"
RUNS="${RUNS:-3}"
WORK="$(mktemp -d /tmp/calx-nested.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT

# The particle with the inner gradient in forward mode (GradBench's "ff"; the example's
# is reverse mode, "fr").
sed -e 's/calx::grad(potential, calx::argnums<0, 1>)/calx::jacfwd(potential, calx::argnums<0, 1>)/' \
  "$ROOT/examples/particle.cpp" >"$WORK/particle_ff.cpp"
grep -q 'calx::jacfwd(potential' "$WORK/particle_ff.cpp" || { echo "nested_cost.sh: examples/particle.cpp changed; update the sed line" >&2; exit 1; }

measure() {  # measure <source>: "wall s / peak MiB"
  /usr/bin/time -f "%e s / %M" "$CXX" -std=c++20 -O2 -march=native -fconstexpr-ops-limit=1073741824 -I"$ROOT/include" \
    -c "$1" -o "$WORK/o.o" 2>&1 | tail -1 | awk '{ printf "%s s / %.0f MiB", $1, $4 / 1024 }'
}

echo "| run | particle (fr, rr) | particle (ff, rf) | saddle |"
echo "|---:|---:|---:|---:|"
for r in $(seq "$RUNS"); do
  echo "| $r | $(measure "$ROOT/examples/particle.cpp") | $(measure "$WORK/particle_ff.cpp") | $(measure "$ROOT/examples/saddle.cpp") |"
done
