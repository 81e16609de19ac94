#!/usr/bin/env python3
"""Markdown tables from the JSON that bench/run.sh writes (Google Benchmark 1.7 format).

    python3 bench/summarize.py /tmp/bench-build/results

Uses the `min` aggregate of each benchmark (the repetition least disturbed by other work on
the machine): real time for every column, CPU time of the benchmark's thread where noted.
"""
import json
import sys
from collections import defaultdict
from pathlib import Path


def load(path):
    """benchmark name -> {'real': ms, 'cpu': ms} from the min aggregates."""
    data = json.loads(Path(path).read_text())
    times = {}
    for b in data["benchmarks"]:
        if b.get("run_type") != "aggregate" or b.get("aggregate_name") != "min":
            continue
        scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b["time_unit"]]
        name = b["run_name"].replace("/real_time", "")
        times[name] = {"real": b["real_time"] * scale, "cpu": b["cpu_time"] * scale}
    return data["context"], times


def grad_scalar(times):
    print("| function | hand [ms] | calx [ms] | calx / hand (real) | calx / hand (CPU) |")
    print("|---|---:|---:|---:|---:|")
    for fn, calx in [("rosenbrock", "calx"), ("rosenbrock", "calx_const_binding"), ("black_scholes", "calx")]:
        h, c = times.get(f"grad_scalar/{fn}/hand"), times.get(f"grad_scalar/{fn}/{calx}")
        if not h or not c:
            continue
        label = fn if calx == "calx" else f"{fn} (`const auto [v, g]`)"
        print(f"| {label} | {h['real']:.2f} | {c['real']:.2f} | **{c['real'] / h['real']:.2f}** | {c['cpu'] / h['cpu']:.2f} |")


def vmap_simd(times):
    groups = defaultdict(dict)
    for name, t in times.items():
        _, fn, ty, impl = name.split("/")
        groups[(fn, ty)][impl] = t
    print("| function | type | scalar t1 [ms] | xsimd t1 [ms] | calx t1 [ms] | **calx / xsimd t1** (CPU) | "
          "xsimd t2 [ms] | calx t2 [ms] | xsimd t1/t2 | **calx t1/t2** |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    order = {"rosenbrock": 0, "black_scholes": 1, "black_scholes_ntm": 2}
    for (fn, ty), g in sorted(groups.items(), key=lambda kv: (order.get(kv[0][0], 9), kv[0][0], kv[0][1])):
        try:
            s, x1, c1, x2, c2 = (g[k] for k in ("scalar_t1", "xsimd_t1", "calx_t1", "xsimd_t2", "calx_t2"))
        except KeyError:
            continue
        print(f"| {fn} | {ty} | {s['real']:.2f} | {x1['real']:.2f} | {c1['real']:.2f} | "
              f"**{c1['real'] / x1['real']:.2f}** ({c1['cpu'] / x1['cpu']:.2f}) | {x2['real']:.2f} | {c2['real']:.2f} | "
              f"{x1['real'] / x2['real']:.2f} | **{c1['real'] / c2['real']:.2f}** |")


def main():
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/bench-build/results")
    for name, table in [("grad_scalar", grad_scalar), ("vmap_simd", vmap_simd)]:
        path = out / f"{name}.json"
        if not path.exists():
            continue
        context, times = load(path)
        print(f"\n### {name}  ({context.get('date', '')}, load average {context.get('load_avg', '')})\n")
        table(times)


if __name__ == "__main__":
    main()
