"""JAX on bench/tensors.cpp's workloads, on the same numbers (issue 26, "Benchmarks").

Reads the inputs and calx's results that `bench_tensors` wrote with CALX_BENCH_DUMP=<folder>,
computes the same derivatives with JAX (jax.jit; float64 enabled for the f64 rows), checks
that they agree with calx's, times them, and prints JAX's time beside calx's from the same
run (`calx.json`, bench_tensors' JSON output in that folder):

    python tensors.py <folder>

Run it through bench/peers/run.sh, which makes the venv, pins one thread and runs both;
bench/peers/common.py holds what the peers share.
Exits non-zero when JAX and calx disagree.
"""

import glob
import os
import re
import sys

import numpy as np

import jax
import jax.numpy as jnp

from common import TYPES, agree, calx_times, finish, load, print_hands, report, time_it

SAMPLES, HIDDEN, INPUTS = 4096, 32, 16
PARAMS = HIDDEN * INPUTS + HIDDEN + HIDDEN + 1
# w1 (32 x 16), b1, w2 (1 x 32), b2: the order of bench/tensors.cpp's struct.
PARAM_SHAPES = ((HIDDEN, INPUTS), (HIDDEN,), (1, HIDDEN), (1,))


def mlp_loss(p, x, y):
    w1, b1, w2, b2 = p
    h = jnp.tanh(w1 @ x + b1)
    d = (w2 @ h + b2)[0] - y
    return d * d


def least_squares(a, x, b):
    r = a @ x - b
    return jnp.dot(r, r)


def main():
    folder = sys.argv[1]
    times = calx_times(folder)
    ok = True
    for t, dtype in TYPES:
        tol = {"f32": 2e-5, "f64": 1e-12}[t]  # bench/tensors.cpp's own check against its hand codes
        mlp = load(folder, f"mlp_{t}.bin", dtype, *PARAM_SHAPES, (SAMPLES, INPUTS), (SAMPLES,), (SAMPLES, PARAMS))
        if mlp is not None:
            params, xs, ys, calx_grads = mlp[:4], mlp[4], mlp[5], mlp[6]
            f = jax.jit(jax.vmap(jax.grad(mlp_loss), in_axes=(None, 0, 0)))
            args = ([jnp.asarray(p) for p in params], jnp.asarray(xs), jnp.asarray(ys))
            jmin, jmed, g = time_it(f, args)
            flat = np.concatenate([np.asarray(e).reshape(SAMPLES, -1) for e in g], axis=1)
            err = np.max(np.abs(flat - calx_grads) / (1 + np.abs(calx_grads)))
            ok = agree(f"per-sample MLP gradients {t}", err, tol) and ok
            report(f"per-sample MLP gradients {t}", times.get(f"tensors/mlp/{t}/calx"), jmin, jmed)
            print_hands(times, f"tensors/mlp/{t}", ("hand", "hand_rows"), jmin)
        for path in sorted(glob.glob(os.path.join(folder, f"ls*_{t}.bin"))):
            n = int(re.search(r"ls(\d+)_", os.path.basename(path)).group(1))
            a, x, b, calx_g = load(folder, os.path.basename(path), dtype, (n, n), (n,), (n,), (n,))
            f = jax.jit(jax.grad(least_squares, argnums=1))
            jmin, jmed, g = time_it(f, (jnp.asarray(a), jnp.asarray(x), jnp.asarray(b)))
            err = np.max(np.abs(np.asarray(g) - calx_g) / (1 + np.abs(calx_g))) / n
            ok = agree(f"least-squares gradient {n}x{n} {t}", err, tol, " per term") and ok
            report(f"least-squares gradient {n}x{n} {t}", times.get(f"tensors/least_squares/{n}/{t}/calx"), jmin, jmed)
            print_hands(times, f"tensors/least_squares/{n}/{t}", ("hand", "hand_one_pass"), jmin)
    return finish(ok)


if __name__ == "__main__":
    sys.exit(main())
