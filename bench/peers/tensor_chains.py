"""JAX on bench/tensor_chains.cpp's workloads, on the same numbers (issue 26, "Benchmarks"):
logsumexp of 2500 numbers and its value_and_grad; one RK4 step of GradBench's ode on
1000-vectors (z[0] = x[0], z[i] = x[i] y[i-1]) and the gradient of its last component with
respect to x.

Reads the inputs and calx's results that `bench_tensor_chains` wrote with
CALX_BENCH_DUMP=<folder>, computes the same with JAX (jax.jit), checks that they agree with
calx's, times them and prints JAX's time beside calx's from the same run (`calx.json`):

    python tensor_chains.py <folder>

Run it through bench/peers/run.sh. Exits non-zero when JAX and calx disagree.
"""

import sys

import jax
import jax.numpy as jnp

from common import TYPES, agree, calx_times, finish, load, max_rel, print_hands, report, time_it

LSE_N, ODE_N, H = 2500, 1000, 2.0  # H: GradBench's default, one step to t = 2


def ode_fun(x, y):
    return jnp.concatenate([x[:1], x[1:] * y[:-1]])


def rk4(x, y):
    """One RK4 step of y' = ode_fun(x, y), as bench/tensor_chains.cpp (and GradBench) write it."""
    k1 = ode_fun(x, y)
    k2 = ode_fun(x, y + k1 * (H / 2))
    k3 = ode_fun(x, y + k2 * (H / 2))
    k4 = ode_fun(x, y + k3 * H)
    return y + (k1 + k2 * 2.0 + k3 * 2.0 + k4) * (H / 6)


def rk4_last(x, y):
    return rk4(x, y)[-1]


def main():
    folder = sys.argv[1]
    times = calx_times(folder)
    ok = True
    for t, dtype in TYPES:
        lse = load(folder, f"lse_{t}.bin", dtype, (LSE_N,), (1,), (1,), (LSE_N,))
        if lse is not None:
            x, calx_v, calx_vg, calx_g = lse
            # Both sum 2500 exponentials in orders of their own, each exp good to an ulp or two:
            # the value (about 20) and each softmax entry to a few ulp, far under this.
            tol = {"f32": 1e-5, "f64": 1e-13}[t]
            b = f"tensor_chains/logsumexp/{t}"
            x = jnp.asarray(x)
            jmin, jmed, v = time_it(jax.jit(jax.nn.logsumexp), (x,))
            ok = agree(f"logsumexp of {LSE_N} {t}", max_rel(v, calx_v[0], 0), tol) and ok
            report(f"logsumexp of {LSE_N} {t}", times.get(f"{b}/calx"), jmin, jmed)
            print_hands(times, b, ("hand",), jmin)
            jmin, jmed, (v, g) = time_it(jax.jit(jax.value_and_grad(jax.nn.logsumexp)), (x,))
            # The gradient is the softmax, entries from 1e-18 to 0.5: each relative to itself.
            err = max(max_rel(v, calx_vg[0], 0), max_rel(g, calx_g, 1e-30))
            ok = agree(f"logsumexp of {LSE_N} and its gradient {t}", err, tol) and ok
            report(f"logsumexp of {LSE_N} and its gradient {t}", times.get(f"{b}/calx_grad"), jmin, jmed)
            print_hands(times, b, ("hand_grad",), jmin)
        ode = load(folder, f"rk4_{t}.bin", dtype, (ODE_N,), (ODE_N,), (ODE_N,), (ODE_N,))
        if ode is not None:
            x, y, calx_out, calx_g = ode
            # The same products and sums (XLA may contract some into fmas): a few ulp of
            # numbers up to about 10, relative to max(1, |calx|).
            tol = {"f32": 1e-5, "f64": 1e-13}[t]
            b = f"tensor_chains/rk4/{t}"
            args = (jnp.asarray(x), jnp.asarray(y))
            jmin, jmed, out = time_it(jax.jit(rk4), args)
            ok = agree(f"RK4 step of {ODE_N} {t}", max_rel(out, calx_out), tol) and ok
            report(f"RK4 step of {ODE_N} {t}", times.get(f"{b}/calx"), jmin, jmed)
            print_hands(times, b, ("hand",), jmin)
            jmin, jmed, g = time_it(jax.jit(jax.grad(rk4_last)), args)
            ok = agree(f"RK4 gradient of the last component {t}", max_rel(g, calx_g), tol) and ok
            report(f"RK4 gradient of the last component {t}", times.get(f"{b}/calx_grad"), jmin, jmed)
    return finish(ok)


if __name__ == "__main__":
    sys.exit(main())
