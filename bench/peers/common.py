"""What bench/peers' scripts share (issue 26, "Benchmarks"): reading the arrays a benchmark
binary wrote with CALX_BENCH_DUMP=<folder> and calx's times from its JSON output
(`calx.json` in that folder), timing a jitted JAX function, checking JAX's result against
calx's and printing both times.

Importing it enables float64 in JAX (the f64 rows), before any array is made.
"""

import json
import os
import sys
import time

import numpy as np

import jax

jax.config.update("jax_enable_x64", True)

# The precisions every binary runs, as its names spell them (bench_common.hpp's type_name).
TYPES = (("f32", np.float32), ("f64", np.float64))


def load(folder, name, dtype, *shapes):
    """The arrays of `shapes`, in order, from the raw file `name` in `folder`, or None when the
    binary wrote no such file. Exits when the file's size is not the shapes' total."""
    path = os.path.join(folder, name)
    if not os.path.exists(path):
        return None
    v = np.fromfile(path, dtype=dtype)
    sizes = [int(np.prod(s)) for s in shapes]
    if v.size != sum(sizes):
        print(f"{path}: {v.size} numbers, expected {sum(sizes)} ({shapes})")
        sys.exit(1)
    out, k = [], 0
    for shape, n in zip(shapes, sizes):
        out.append(v[k:k + n].reshape(shape))
        k += n
    return out


def time_it(f, args, repetitions=10):
    """Min and median seconds per call over `repetitions` timed loops of about 50 ms each, and
    f's result."""
    out = f(*args)
    jax.block_until_ready(out)
    calls = 1
    while True:  # enough calls per loop that Python's timer resolution does not matter
        t0 = time.perf_counter()
        for _ in range(calls):
            out = f(*args)
        jax.block_until_ready(out)
        if time.perf_counter() - t0 > 0.05:
            break
        calls *= 2
    times = []
    for _ in range(repetitions):
        t0 = time.perf_counter()
        for _ in range(calls):
            out = f(*args)
        jax.block_until_ready(out)
        times.append((time.perf_counter() - t0) / calls)
    times.sort()
    return times[0], times[len(times) // 2], out


def calx_times(folder):
    """Min and median ns of each calx benchmark in calx.json."""
    with open(os.path.join(folder, "calx.json")) as f:
        runs = json.load(f)["benchmarks"]
    t = {}
    for r in runs:
        if r.get("run_type") != "aggregate":
            continue
        name, kind = r["run_name"], r["aggregate_name"]
        if kind in ("min", "median"):
            scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[r["time_unit"]]
            t.setdefault(name, {})[kind] = r["cpu_time"] * scale
    return t


def max_rel(jax_result, calx_result, floor=1.0):
    """The largest |JAX - calx| / max(floor, |calx|), in double."""
    j = np.asarray(jax_result, dtype=np.float64)
    c = np.asarray(calx_result, dtype=np.float64)
    return float(np.max(np.abs(j - c) / np.maximum(floor, np.abs(c))))


checks = 0  # how many results agree() has checked


def agree(what, err, tol, unit=""):
    """Prints whether JAX and calx agree on `what` (err <= tol); returns it."""
    global checks
    checks += 1
    same = bool(err <= tol)
    print(f"{what}: JAX and calx differ by {err:.3g}{unit} (tolerance {tol:g}): {'same' if same else 'DIFFERENT'}")
    return same


def report(what, calx, jax_min, jax_median):
    if calx is None:
        print(f"{what}: JAX {jax_min * 1e9:.0f} ns (min), {jax_median * 1e9:.0f} ns (median); no calx time")
        return
    print(f"{what}: calx {calx['min']:.0f} ns, JAX {jax_min * 1e9:.0f} ns (min; medians {calx['median']:.0f} / "
          f"{jax_median * 1e9:.0f} ns): calx / JAX = {calx['min'] / (jax_min * 1e9):.2f} (min), "
          f"{calx['median'] / (jax_median * 1e9):.2f} (median)")


def print_hands(times, prefix, hands, jmin):
    """Each hand code's (or other calx form's) time beside JAX's."""
    for hand in hands:
        h = times.get(f"{prefix}/{hand}")
        if h is not None:
            print(f"  {hand}: {h['min']:.0f} ns (min), {h['median']:.0f} ns (median); JAX / {hand} = "
                  f"{jmin * 1e9 / h['min']:.2f} (min)")


def finish(ok):
    """Prints JAX's version; the exit status: 0 when every check passed and there was one."""
    print(f"jax {jax.__version__}, jaxlib {jax.lib.__version__ if hasattr(jax.lib, '__version__') else '?'}")
    if checks == 0:
        print("no arrays to check: the binary wrote none (built before its CALX_BENCH_DUMP?)")
        return 1
    return 0 if ok else 1
