"""JAX on bench/tensors.cpp's workloads, on the same numbers (issue 26, "Benchmarks").

Reads the inputs and calx's results that `bench_tensors` wrote with CALX_BENCH_DUMP=<folder>,
computes the same derivatives with JAX (jax.jit; float64 enabled for the f64 rows), checks
that they agree with calx's, times them, and prints JAX's time beside calx's from the same
run (`calx.json`, bench_tensors' JSON output in that folder):

    python tensors.py <folder>

Run it through bench/peers/run.sh, which makes the venv, pins one thread and runs both.
Exits non-zero when JAX and calx disagree.
"""

import glob
import json
import os
import re
import sys
import time

import numpy as np

import jax
import jax.numpy as jnp

jax.config.update("jax_enable_x64", True)

SAMPLES, HIDDEN, INPUTS = 4096, 32, 16
PARAMS = HIDDEN * INPUTS + HIDDEN + HIDDEN + 1


def split_params(v):
    """w1 (32 x 16), b1, w2 (1 x 32), b2: the order of bench/tensors.cpp's struct."""
    k = 0
    out = []
    for shape in ((HIDDEN, INPUTS), (HIDDEN,), (1, HIDDEN), (1,)):
        n = int(np.prod(shape))
        out.append(v[k:k + n].reshape(shape))
        k += n
    return out, k


def mlp_loss(p, x, y):
    w1, b1, w2, b2 = p
    h = jnp.tanh(w1 @ x + b1)
    d = (w2 @ h + b2)[0] - y
    return d * d


def least_squares(a, x, b):
    r = a @ x - b
    return jnp.dot(r, r)


def time_it(f, args, repetitions=10):
    """Min and median seconds per call over `repetitions` timed loops of about 50 ms each."""
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


def report(what, calx, jax_min, jax_median):
    if calx is None:
        print(f"{what}: JAX {jax_min * 1e9:.0f} ns (min), {jax_median * 1e9:.0f} ns (median); no calx time")
        return
    print(f"{what}: calx {calx['min']:.0f} ns, JAX {jax_min * 1e9:.0f} ns (min; medians {calx['median']:.0f} / "
          f"{jax_median * 1e9:.0f} ns): calx / JAX = {calx['min'] / (jax_min * 1e9):.2f} (min), "
          f"{calx['median'] / (jax_median * 1e9):.2f} (median)")


def print_hands(times, prefix, hands, jmin):
    """Each hand code's time beside JAX's."""
    for hand in hands:
        h = times.get(f"{prefix}/{hand}")
        if h is not None:
            print(f"  {hand}: {h['min']:.0f} ns (min), {h['median']:.0f} ns (median); JAX / {hand} = "
                  f"{jmin * 1e9 / h['min']:.2f} (min)")


def main():
    folder = sys.argv[1]
    times = calx_times(folder)
    ok = True
    for t, dtype, tol in (("f32", np.float32, 2e-5), ("f64", np.float64, 1e-12)):
        path = os.path.join(folder, f"mlp_{t}.bin")
        if os.path.exists(path):
            v = np.fromfile(path, dtype=dtype)
            params, k = split_params(v)
            xs = v[k:k + SAMPLES * INPUTS].reshape(SAMPLES, INPUTS)
            k += SAMPLES * INPUTS
            ys = v[k:k + SAMPLES]
            k += SAMPLES
            calx_grads = v[k:].reshape(SAMPLES, PARAMS)
            f = jax.jit(jax.vmap(jax.grad(mlp_loss), in_axes=(None, 0, 0)))
            args = ([jnp.asarray(p) for p in params], jnp.asarray(xs), jnp.asarray(ys))
            jmin, jmed, g = time_it(f, args)
            flat = np.concatenate([np.asarray(e).reshape(SAMPLES, -1) for e in g], axis=1)
            err = np.max(np.abs(flat - calx_grads) / (1 + np.abs(calx_grads)))
            same = err <= tol
            ok = ok and same
            print(f"per-sample MLP gradients {t}: JAX and calx differ by {err:.3g} (tolerance {tol:g}): "
                  f"{'same' if same else 'DIFFERENT'}")
            report(f"per-sample MLP gradients {t}", times.get(f"tensors/mlp/{t}/calx"), jmin, jmed)
            print_hands(times, f"tensors/mlp/{t}", ("hand", "hand_rows"), jmin)
        for path in sorted(glob.glob(os.path.join(folder, f"ls*_{t}.bin"))):
            n = int(re.search(r"ls(\d+)_", os.path.basename(path)).group(1))
            v = np.fromfile(path, dtype=dtype)
            a = v[:n * n].reshape(n, n)
            x, b, calx_g = v[n * n:n * n + n], v[n * n + n:n * n + 2 * n], v[n * n + 2 * n:]
            f = jax.jit(jax.grad(least_squares, argnums=1))
            jmin, jmed, g = time_it(f, (jnp.asarray(a), jnp.asarray(x), jnp.asarray(b)))
            err = np.max(np.abs(np.asarray(g) - calx_g) / (1 + np.abs(calx_g))) / n
            same = err <= tol
            ok = ok and same
            print(f"least-squares gradient {n}x{n} {t}: JAX and calx differ by {err:.3g} per term (tolerance "
                  f"{tol:g}): {'same' if same else 'DIFFERENT'}")
            report(f"least-squares gradient {n}x{n} {t}", times.get(f"tensors/least_squares/{n}/{t}/calx"), jmin, jmed)
            print_hands(times, f"tensors/least_squares/{n}/{t}", ("hand", "hand_one_pass"), jmin)
    print(f"jax {jax.__version__}, jaxlib {jax.lib.__version__ if hasattr(jax.lib, '__version__') else '?'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
