"""JAX on bench/kmeans.cpp's workloads, on the same numbers (issue 26, "Benchmarks"):
GradBench's kmeans cost (k = 10 centroids, n = 1000 points, d = 8), every point against
every centroid by broadcasting, and its value_and_grad with respect to the centroids.

Reads the inputs and calx's results that `bench_kmeans` wrote with CALX_BENCH_DUMP=<folder>,
computes the same with JAX (jax.jit), checks that they agree with calx's, times them and
prints JAX's time beside calx's broadcast form (and calx's vmap form and the hand code)
from the same run (`calx.json`):

    python kmeans.py <folder>

Run it through bench/peers/run.sh. Exits non-zero when JAX and calx disagree.
"""

import sys

import jax
import jax.numpy as jnp

from common import TYPES, agree, calx_times, finish, load, max_rel, print_hands, report, time_it

K, N, D = 10, 1000, 8


def cost(points, centroids):
    """The sum over points of the squared distance to the nearest centroid."""
    d = points[:, None, :] - centroids[None, :, :]
    return jnp.sum(jnp.min(jnp.sum(d * d, axis=2), axis=1))


def main():
    folder = sys.argv[1]
    times = calx_times(folder)
    ok = True
    for t, dtype in TYPES:
        q = load(folder, f"kmeans_{t}.bin", dtype, (N, D), (K, D), (1,), (1,), (K, D))
        if q is None:
            continue
        points, centroids, calx_cost, calx_value, calx_g = q
        # bench/kmeans.cpp's own check against its hand code: the same sums in other orders,
        # the cost a sum of 1000 distances (f32 rounding grows with the terms summed), each
        # gradient entry a sum of about 100 terms 2 (c - p), relative to max(1, |calx|).
        tol = {"f32": 1e-4, "f64": 1e-11}[t]
        b = f"kmeans/{t}"
        args = (jnp.asarray(points), jnp.asarray(centroids))
        jmin, jmed, v = time_it(jax.jit(cost), args)
        ok = agree(f"kmeans cost {t}", max_rel(v, calx_cost[0], 0), tol) and ok
        report(f"kmeans cost {t}", times.get(f"{b}/calx_cost"), jmin, jmed)
        print_hands(times, b, ("vmap_cost", "hand_cost"), jmin)
        jmin, jmed, (v, g) = time_it(jax.jit(jax.value_and_grad(cost, argnums=1)), args)
        err = max(max_rel(v, calx_value[0], 0), max_rel(g, calx_g))
        ok = agree(f"kmeans value and gradient {t}", err, tol) and ok
        report(f"kmeans value and gradient {t}", times.get(f"{b}/calx_grad"), jmin, jmed)
        print_hands(times, b, ("vmap_grad", "hand_grad"), jmin)
    return finish(ok)


if __name__ == "__main__":
    sys.exit(main())
