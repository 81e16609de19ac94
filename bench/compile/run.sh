#!/usr/bin/env bash
# Compile-time benchmark of calx: generates small translation units, compiles each with g++-12
# and clang++-14 under /usr/bin/time -v, and prints a markdown table of wall time, peak RSS,
# the IR node count of the traced program (decltype(calx::trace(...))::ir.size, printed by
# running the compiled TU) and the constant-evaluation budget it needs.
#
#   bash bench/compile/run.sh                 # everything, markdown on stdout
#   REPEAT=5 OUT=/tmp/compile.md bash bench/compile/run.sh
#
# Environment:
#   GXX, CLANGXX   compilers (default g++-12, clang++-14); an empty value skips that compiler
#   REPEAT         compiles per measurement; the table has the fastest (default 3)
#   SEARCH         1: search the smallest -fconstexpr-steps (clang) and -fconstexpr-ops-limit
#                  (g++) that compile each TU, to 5% (default 1; 0 skips, it is the slow part)
#   CASES          space-separated subset of case names (default: all; see `cases` below)
#   WORK           scratch directory (default: a new mktemp -d, removed at exit)
#   OUT            also write the markdown to this file
#
# Every compile is `-std=c++20 -O2 -march=native -I include -c`: the flags of bench/, and of a
# calx user's release build. Timed compiles raise the constant-evaluation limits as the
# calx::calx CMake target does (clang -fconstexpr-steps=100000000, g++
# -fconstexpr-ops-limit=1073741824); the "defaults" columns say whether the TU compiles
# without that.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
GXX="${GXX-g++-12}"
CLANGXX="${CLANGXX-clang++-14}"
REPEAT="${REPEAT:-3}"
SEARCH="${SEARCH:-1}"
OUT="${OUT:-}"
if [[ -z "${WORK:-}" ]]; then
  WORK="$(mktemp -d /tmp/calx-compile-bench.XXXXXX)"
  trap 'rm -rf "$WORK"' EXIT
fi
mkdir -p "$WORK"

COMMON=(-std=c++20 -O2 -march=native -I"$ROOT/include")
CLANG_STEPS_DEFAULT=1048576     # clang's default -fconstexpr-steps (2^20)
GCC_OPS_DEFAULT=33554432        # g++'s default -fconstexpr-ops-limit (2^25)
CLANG_RAISED=(-fconstexpr-steps=100000000)
GCC_RAISED=(-fconstexpr-ops-limit=1073741824)
# clang limits a fold expression to -fbracket-depth (256) operands, and calx's codegen folds
# over every IR node: programs of more than 256 nodes need this (see docs/performance.md).
CLANG_BRACKET=(-fbracket-depth=100000)

# ---- generated sources -------------------------------------------------------------------

prelude() {
  cat <<'EOF'
#include <calx/calx.hpp>
#include <cstdio>
#include <tuple>
#include <type_traits>

template <class T>
double sum_leaves(const T& t) {
  if constexpr (std::is_arithmetic_v<T>)
    return static_cast<double>(t);
  else
    return std::apply([](const auto&... e) { return (0.0 + ... + sum_leaves(e)); }, t);
}

// Black-Scholes call price: a scalar function of (S, K, T, r, sigma).
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

# main() traces `$1` (an expression naming a function) for the arguments `$2`, runs it on
# runtime values and prints its IR node count.
main_for() {
  cat <<EOF
int main(int argc, char**) {
  constexpr auto fn = $1;
  auto p = calx::trace(fn, $2);
  volatile double v = 1.0 + 0.001 * argc;
  const double x = v;
  std::printf("%zu %.17g\n", decltype(p)::ir.size, sum_leaves(p($3)));
}
EOF
}

BS_ARGS="1.0, 1.0, 1.0, 1.0, 1.0"
BS_CALL="100.0 * x, 95.0, 0.5, 0.03, 0.2"

gen_include_only() {
  echo '#include <calx/calx.hpp>'
  echo 'int main() { return 0; }'
}

# grad^k of bs in S (k = 0: bs itself).
gen_order() {
  local k="$1" expr="bs" i
  for ((i = 0; i < k; ++i)); do expr="calx::grad($expr)"; done
  prelude
  main_for "$expr" "$BS_ARGS" "$BS_CALL"
}

gen_hessian() {
  prelude
  main_for "calx::hessian(bs, calx::argnums<0, 1, 2, 3, 4>)" "$BS_ARGS" "$BS_CALL"
}

# A chain of n statements, each reading the two before it (about 3 IR nodes each).
chain_fn() {
  local n="$1" i
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
}

gen_chain() {
  local n="$1" what="$2"
  prelude
  chain_fn "$n"
  if [[ "$what" == grad ]]; then
    main_for "calx::grad(chain, calx::argnums<0, 1>)" "1.0, 1.0" "x, 0.5"
  else
    main_for "chain" "1.0, 1.0" "x, 0.5"
  fi
}

# name|description|generator command
cases=(
  'include|`#include <calx/calx.hpp>` only|gen_include_only'
  "order0|bs (order 0)|gen_order 0"
  "order1|grad(bs)|gen_order 1"
  "order2|grad(grad(bs))|gen_order 2"
  "order3|grad^3(bs)|gen_order 3"
  "order4|grad^4(bs)|gen_order 4"
  "hessian|hessian(bs) 5x5|gen_hessian"
  "chain10|chain n=10|gen_chain 10 plain"
  "chain10g|grad(chain n=10)|gen_chain 10 grad"
  "chain50|chain n=50|gen_chain 50 plain"
  "chain50g|grad(chain n=50)|gen_chain 50 grad"
  "chain100|chain n=100|gen_chain 100 plain"
  "chain100g|grad(chain n=100)|gen_chain 100 grad"
  "chain200|chain n=200|gen_chain 200 plain"
  "chain200g|grad(chain n=200)|gen_chain 200 grad"
)

# ---- measuring -----------------------------------------------------------------------------

# compile <log> <compiler> <flags...>: 0 on success; stderr and time -v output in <log>.
compile() {
  local log="$1"
  shift
  /usr/bin/time -v "$@" >"$log" 2>&1
}

wall_of() { # seconds from time -v's "Elapsed (wall clock) time (h:mm:ss or m:ss): m:ss.cc"
  awk -F': ' '/Elapsed \(wall clock\)/ {
    n = split($2, p, ":"); s = 0; for (i = 1; i <= n; ++i) s = s * 60 + p[i]; printf "%.2f", s }' "$1"
}
cpu_of() { # user + system seconds
  awk -F': ' '/User time \(seconds\)/ { u = $2 } /System time \(seconds\)/ { s = $2 } END { printf "%.2f", u + s }' "$1"
}
rss_of() { awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$1"; }

# Why a compile failed, in a word.
failure_of() {
  if grep -q "maximum step limit" "$1"; then echo "step limit"
  elif grep -q "operation count exceeds" "$1"; then echo "ops limit"
  elif grep -q "exceeded expression nesting limit\|bracket nesting level exceeded" "$1"; then echo "bracket depth"
  elif grep -q "loop iterations exceeds\|loop-limit" "$1"; then echo "loop limit"
  else echo "error"; fi
}

# Fastest of REPEAT timed compiles: prints "wall cpu rss" (the smallest wall and CPU times,
# the largest RSS) or "FAIL reason".
timed() {
  local src="$1" obj="$2" log="$3"
  shift 3
  local best="" best_cpu="" rss=0 r w c m
  for ((r = 0; r < REPEAT; ++r)); do
    if ! compile "$log" "$@" "${COMMON[@]}" -c "$src" -o "$obj"; then
      echo "FAIL $(failure_of "$log")"
      return
    fi
    w="$(wall_of "$log")"
    c="$(cpu_of "$log")"
    m="$(rss_of "$log")"
    if [[ -z "$best" ]] || awk -v a="$w" -v b="$best" 'BEGIN { exit !(a < b) }'; then best="$w"; fi
    if [[ -z "$best_cpu" ]] || awk -v a="$c" -v b="$best_cpu" 'BEGIN { exit !(a < b) }'; then best_cpu="$c"; fi
    if ((m > rss)); then rss=$m; fi
  done
  echo "$best $best_cpu $rss"
}

# Syntax-only compile with one limit flag: 0 if it compiles.
compiles_with() {
  local log="$1" src="$2"
  shift 2
  "$@" "${COMMON[@]}" -fsyntax-only "$src" >"$log" 2>&1
}

# Smallest value of limit flag $3 (…=N) in [lo, hi] that compiles, to 5%, assuming hi does:
# steps down by 8x from hi until a value fails, then bisects geometrically.
bisect_limit() {
  local src="$1" log="$2" flag="$3" lo="$4" hi="$5"
  shift 5
  local probe
  while :; do
    probe="$(awk -v h="$hi" -v l="$lo" 'BEGIN { p = int(h / 8); printf "%d", (p > l ? p : l) }')"
    ((probe <= lo)) && break
    if compiles_with "$log" "$src" "$@" "$flag=$probe"; then hi="$probe"; else lo="$probe"; break; fi
  done
  while awk -v l="$lo" -v h="$hi" 'BEGIN { exit !(h > l * 1.05 && h - l > 1) }'; do
    local mid
    mid="$(awk -v l="$lo" -v h="$hi" 'BEGIN { printf "%d", sqrt(l * h) }')"
    if compiles_with "$log" "$src" "$@" "$flag=$mid"; then hi="$mid"; else lo="$mid"; fi
  done
  echo "$hi"
}

fmt_budget() { # "<needed> (<percent of default>%)"
  awk -v n="$1" -v d="$2" 'BEGIN {
    if (n >= 1e6) s = sprintf("%.2fM", n / 1e6); else if (n >= 1e3) s = sprintf("%.0fk", n / 1e3); else s = n;
    printf "%s (%.0f%%)", s, 100 * n / d }'
}

selected() {
  [[ -z "${CASES:-}" ]] && return 0
  local c
  for c in $CASES; do [[ "$c" == "$1" ]] && return 0; done
  return 1
}

header="| case | IR nodes | g++-12 wall [s] | g++-12 CPU [s] | g++-12 peak RSS [MiB] | g++-12 with default ops limit | g++-12 ops needed (% of 2^25) | clang++-14 wall [s] | clang++-14 CPU [s] | clang++-14 peak RSS [MiB] | clang++-14 with default flags | clang++-14 with only -fconstexpr-steps=1e8 | clang++-14 steps needed (% of 2^20) |"
rule="|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---|---|---:|"
table="$header"$'\n'"$rule"

calx_revision() { # the commit measured, "+ local changes" when include/ differs from it
  local rev
  rev="${CALX_REV:-$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)}"
  if git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1 && [[ -n "$(git -C "$ROOT" status --porcelain -- include 2>/dev/null)" ]]; then
    rev+=" + local changes in include/"
  fi
  echo "$rev"
}

envinfo="$(
  echo "- calx: $(calx_revision)"
  echo "- date: $(date -u +%Y-%m-%dT%H:%MZ), load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "- CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores"
  if [[ -n "$GXX" ]]; then echo "- $("$GXX" --version | head -1)"; fi
  if [[ -n "$CLANGXX" ]]; then echo "- $("$CLANGXX" --version | head -1)"; fi
  echo "- flags: ${COMMON[*]/-I$ROOT\/include/-I include} -c; timed with g++ ${GCC_RAISED[*]}, clang ${CLANG_RAISED[*]}; best of $REPEAT"
)"
echo "$envinfo" >&2

for spec in "${cases[@]}"; do
  IFS='|' read -r name desc gen <<<"$spec"
  selected "$name" || continue
  search="$SEARCH"
  [[ "$name" == include ]] && search=0  # nothing is evaluated at compile time
  src="$WORK/$name.cpp"
  $gen >"$src"
  nodes="-"
  g_wall="-" g_cpu="-" g_rss="-" g_def="-" g_need="-"
  c_wall="-" c_cpu="-" c_rss="-" c_def="-" c_steps_only="-" c_need="-"

  if [[ -n "$GXX" ]]; then
    read -r g_wall g_cpu g_rss <<<"$(timed "$src" "$WORK/$name.gcc.o" "$WORK/$name.gcc.log" "$GXX" "${GCC_RAISED[@]}")"
    if [[ "$g_wall" == FAIL ]]; then
      g_wall="fails: $g_cpu${g_rss:+ $g_rss}"
      g_cpu="-"
      g_rss="-"
    elif [[ "$name" != include ]]; then
      "$GXX" "$WORK/$name.gcc.o" -o "$WORK/$name.gcc" && nodes="$("$WORK/$name.gcc" | cut -d' ' -f1)"
    fi
    if compiles_with "$WORK/$name.gcc.def.log" "$src" "$GXX"; then
      g_def="ok"
      [[ "$search" == 1 ]] && g_need="$(fmt_budget "$(bisect_limit "$src" "$WORK/$name.gcc.bis.log" -fconstexpr-ops-limit 1 "$GCC_OPS_DEFAULT" "$GXX")" "$GCC_OPS_DEFAULT")"
    else
      g_def="fails: $(failure_of "$WORK/$name.gcc.def.log")"
      [[ "$search" == 1 ]] && g_need="$(fmt_budget "$(bisect_limit "$src" "$WORK/$name.gcc.bis.log" -fconstexpr-ops-limit "$GCC_OPS_DEFAULT" 1073741824 "$GXX")" "$GCC_OPS_DEFAULT")"
    fi
  fi

  if [[ -n "$CLANGXX" ]]; then
    # Status with clang's defaults, then with only the raised step limit.
    if compiles_with "$WORK/$name.clang.def.log" "$src" "$CLANGXX"; then c_def="ok"; else c_def="fails: $(failure_of "$WORK/$name.clang.def.log")"; fi
    if compiles_with "$WORK/$name.clang.steps.log" "$src" "$CLANGXX" "${CLANG_RAISED[@]}"; then
      c_steps_only="ok"
      extra=()
    else
      c_steps_only="fails: $(failure_of "$WORK/$name.clang.steps.log")"
      extra=("${CLANG_BRACKET[@]}")
    fi
    read -r c_wall c_cpu c_rss <<<"$(timed "$src" "$WORK/$name.clang.o" "$WORK/$name.clang.log" "$CLANGXX" "${CLANG_RAISED[@]}" "${extra[@]}")"
    if [[ "$c_wall" == FAIL ]]; then
      c_wall="fails: $c_cpu${c_rss:+ $c_rss}"
      c_cpu="-"
      c_rss="-"
    else
      ((${#extra[@]})) && c_wall="$c_wall †"
      if [[ "$nodes" == "-" && "$name" != include ]]; then
        "$CLANGXX" "$WORK/$name.clang.o" -o "$WORK/$name.clang" && nodes="$("$WORK/$name.clang" | cut -d' ' -f1)"
      fi
    fi
    if [[ "$search" == 1 ]]; then
      # The default step budget is enough if the TU compiles with it once the bracket depth
      # (a separate limit) is out of the way.
      if [[ "$c_def" == ok ]] || compiles_with "$WORK/$name.clang.bis.log" "$src" "$CLANGXX" "${CLANG_BRACKET[@]}"; then
        lo=1; hi=$CLANG_STEPS_DEFAULT
      else
        lo=$CLANG_STEPS_DEFAULT; hi=100000000
      fi
      c_need="$(fmt_budget "$(bisect_limit "$src" "$WORK/$name.clang.bis.log" -fconstexpr-steps "$lo" "$hi" "$CLANGXX" "${CLANG_BRACKET[@]}")" "$CLANG_STEPS_DEFAULT")"
    fi
  fi

  row="| $desc | $nodes | $g_wall | $g_cpu | $g_rss | $g_def | $g_need | $c_wall | $c_cpu | $c_rss | $c_def | $c_steps_only | $c_need |"
  echo "$row" >&2
  table+=$'\n'"$row"
done

notes="
IR nodes: \`decltype(calx::trace(fn, args...))::ir.size\` (inputs and constants included).
Wall and CPU (user + system) time: the smallest of $REPEAT compiles; peak RSS: the largest (\`/usr/bin/time -v\`, RSS of the largest process).
\"needed\": the smallest limit that compiles the TU (searched to 5% with -fsyntax-only).
† compiled with ${CLANG_BRACKET[*]} as well: clang refuses a fold expression over more than 256 IR nodes."

envinfo+=$'\n'"- load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
report="$envinfo"$'\n\n'"$table"$'\n'"$notes"
echo "$report"
if [[ -n "$OUT" ]]; then echo "$report" >"$OUT"; fi
