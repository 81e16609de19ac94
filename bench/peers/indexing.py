"""JAX on bench/indexing.cpp's workloads, on the same numbers (issue 26, "Benchmarks"): 100
rows of a 544 x 3 tensor picked by int indices (`v[idx]`, a gather) and the gradient of
sum(v[idx] * w) in v (a scatter-add).

Reads the inputs and calx's results that `bench_indexing` wrote with
CALX_BENCH_DUMP=<folder>, computes the same with JAX (jax.jit), checks that they agree with
calx's, times them and prints JAX's time beside calx's from the same run (`calx.json`):

    python indexing.py <folder>

Run it through bench/peers/run.sh. Exits non-zero when JAX and calx disagree.
"""

import sys

import numpy as np

import jax
import jax.numpy as jnp

from common import TYPES, agree, calx_times, finish, load, max_rel, print_hands, report, time_it

VERTICES, PICKED = 544, 100


def pick(v, idx):
    return v[idx]  # out-of-range indices clamp (a negative one counts from the end), as in calx::take


def weighted(v, idx, w):
    return jnp.sum(v[idx] * w)


def main():
    folder = sys.argv[1]
    times = calx_times(folder)
    ok = True
    for t, dtype in TYPES:
        q = load(folder, f"take_{t}.bin", dtype, (VERTICES, 3), (PICKED, 3), (PICKED, 3), (VERTICES, 3))
        if q is None:
            continue
        v, w, calx_rows, calx_g = q
        (idx,) = load(folder, f"take_{t}_idx.bin", np.int32, (PICKED,))
        # Both results are copies, no arithmetic: the rows are v's, and the indices are
        # distinct, so each gradient entry is 0 + one entry of w, exact. Tolerance 0.
        tol = 0.0
        args = (jnp.asarray(v), jnp.asarray(idx))
        jmin, jmed, rows = time_it(jax.jit(pick), args)
        ok = agree(f"take of {PICKED} rows of {VERTICES} x 3 {t}", max_rel(rows, calx_rows), tol) and ok
        report(f"take of {PICKED} rows of {VERTICES} x 3 {t}", times.get(f"indexing/take/{t}/calx"), jmin, jmed)
        print_hands(times, f"indexing/take/{t}", ("hand",), jmin)
        jmin, jmed, g = time_it(jax.jit(jax.grad(weighted)), args + (jnp.asarray(w),))
        ok = agree(f"its vjp (scatter-add) {t}", max_rel(g, calx_g), tol) and ok
        report(f"its vjp (scatter-add) {t}", times.get(f"indexing/take_vjp/{t}/calx"), jmin, jmed)
        print_hands(times, f"indexing/take_vjp/{t}", ("hand",), jmin)
    return finish(ok)


if __name__ == "__main__":
    sys.exit(main())
