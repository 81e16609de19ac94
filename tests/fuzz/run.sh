#!/usr/bin/env bash
# The differential fuzzer (docs/fuzzing.md): for each seed, generate a translation unit of
# random calx programs (tests/fuzz/generate.py), compile it, run it; report the totals.
#
#   bash tests/fuzz/run.sh [--seeds A..B] [--programs-per-tu K] [--jobs J] [--checks rotate|all]
#
# Defaults: seeds 1..10, 2 programs per TU (20-45 s and under 1.5 GB of g++-12 -O2 each; 3 per TU
# take 22-60 s, over the 45 s a test TU may take for about one seed in six), 1 job.
# Environment: CXX (default g++-12), CXXFLAGS (default -O2), FUZZ_DIR (where TUs, binaries
# and logs go; default build/fuzz). Compilers run under `nice -n 10` and `ulimit -v 6000000`.
# Exits 1 if any program failed a check or any TU failed to compile or run.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

seeds=1..10
per_tu=2
jobs=1
checks=rotate
while [[ $# -gt 0 ]]; do
  case "$1" in
    --seeds) seeds=$2; shift 2 ;;
    --programs-per-tu) per_tu=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --checks) checks=$2; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [[ ! $seeds =~ ^([0-9]+)\.\.([0-9]+)$ ]]; then
  echo "run.sh: --seeds wants A..B (e.g. 1..100)" >&2
  exit 2
fi
first=${BASH_REMATCH[1]} last=${BASH_REMATCH[2]}

cxx=${CXX:-g++-12}
cxxflags=${CXXFLAGS:--O2}
dir=${FUZZ_DIR:-build/fuzz}
mkdir -p "$dir"
python=${PYTHON:-python3}

# One seed: generate, compile, run. Writes $dir/seedS.result: "programs checks failures skipped
# status compile_seconds compile_kb".
one() {
  local s=$1 base="$dir/seed$1"
  "$python" tests/fuzz/generate.py --seed "$s" --count "$per_tu" --checks "$checks" --out "$base.cpp" || {
    echo "0 0 0 0 generate 0 0" > "$base.result"; return; }
  local t0 t1
  t0=$(date +%s.%N)
  if ! (ulimit -v 6000000; nice -n 10 /usr/bin/time -f "%e %M %U" -o "$base.time" \
        "$cxx" -std=c++20 $cxxflags -fconstexpr-ops-limit=1073741824 -Iinclude -Itests -pthread \
        "$base.cpp" -o "$base.bin") > "$base.compile.log" 2>&1; then
    echo "0 0 0 0 compile $(tail -1 "$base.time" 2>/dev/null)" > "$base.result"
    echo "seed $s: COMPILE FAILED (log: $base.compile.log)"
    return
  fi
  "$base.bin" > "$base.log" 2>&1
  local rc=$?
  local line
  line=$(grep '^fuzz: ' "$base.log" | tail -1)
  if [[ $line =~ ^fuzz:\ ([0-9]+)\ programs,\ ([0-9]+)\ checks,\ ([0-9]+)\ failures\ \(([0-9]+) ]]; then
    local status=ok
    [[ $rc -ne 0 ]] && status=failed
    echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]} ${BASH_REMATCH[3]} ${BASH_REMATCH[4]} $status $(tail -1 "$base.time")" > "$base.result"
  else
    echo "0 0 0 0 crashed $(tail -1 "$base.time")" > "$base.result"
  fi
  echo "seed $s: $line (compile $(tail -1 "$base.time" | awk '{printf "%s s wall, %s s user, %d MB", $1, $3, $2/1024}'))"
}

running=0
for ((s = first; s <= last; ++s)); do
  one "$s" &
  running=$((running + 1))
  if [[ $running -ge $jobs ]]; then
    wait -n
    running=$((running - 1))
  fi
done
wait

programs=0 checks_n=0 failures=0 skipped=0 bad=0 max_t=0 max_kb=0
for ((s = first; s <= last; ++s)); do
  read -r p c f k status t kb _ < "$dir/seed$s.result"
  programs=$((programs + p)) checks_n=$((checks_n + c)) failures=$((failures + f)) skipped=$((skipped + k))
  if [[ $status != ok ]]; then
    bad=$((bad + 1))
    echo "seed $s: $status (see $dir/seed$s.log, $dir/seed$s.compile.log)"
  fi
  max_t=$(awk -v a="$max_t" -v b="${t:-0}" 'BEGIN { print (b > a ? b : a) }')
  [[ ${kb:-0} -gt $max_kb ]] && max_kb=${kb:-0}
done
echo "fuzz total: seeds $first..$last, $programs programs, $checks_n checks, $failures failures," \
     "$skipped differences skipped at switch points; $bad TUs not ok; slowest compile ${max_t} s, largest $((max_kb / 1024)) MB"
[[ $failures -eq 0 && $bad -eq 0 ]]
