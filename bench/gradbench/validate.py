#!/usr/bin/env python3
"""Drives the calx GradBench tool through the protocol, as an eval does, and checks every
function of every workload given against `manual`'s golden outputs with GradBench's rule
(|a - b| / max(1, |a| + |b|) <= 1e-4, python/gradbench/gradbench/comparison.py).

    validate.py TOOL DATA.json...

Also checks the protocol's edges: `start` names the tool, `define` of a module calx does
not have fails, an input of a size no instantiation was compiled for is an evaluation that
fails with a message naming the size, and `analysis` is acknowledged. Exits 1 on any
mismatch, printing each."""
import json
import os
import random
import subprocess
import sys

TOLERANCE = 1e-4  # GradBench's, for every eval


def mismatches(expected, actual, path=""):
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        d = abs(expected - actual) / max(1.0, abs(expected) + abs(actual))
        return [f"{path}: expected {expected}, got {actual} (difference {d:.3g})"] if d > TOLERANCE else []
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return [f"{path}: expected {len(expected)} elements, got {len(actual)}"]
        return [m for i, (e, a) in enumerate(zip(expected, actual)) for m in mismatches(e, a, f"{path}[{i}]")]
    if isinstance(expected, dict) and isinstance(actual, dict):
        if expected.keys() != actual.keys():
            return [f"{path}: expected the fields {sorted(expected)}, got {sorted(actual)}"]
        return [m for k in expected for m in mismatches(expected[k], actual[k], f"{path}.{k}")]
    return [f"{path}: expected {type(expected).__name__}, got {type(actual).__name__}"]


def det_and_cofactors(a, n):
    """det(A) and its gradient, the cofactor matrix det(A) inv(A)^T, by Gauss-Jordan with
    partial pivoting: a reference for det at sizes the golden outputs do not cover."""
    m = [[a[i * n + j] for j in range(n)] + [float(i == j) for j in range(n)] for i in range(n)]
    det = 1.0
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        if p != c:
            m[c], m[p] = m[p], m[c]
            det = -det
        det *= m[c][c]
        m[c] = [x / m[c][c] for x in m[c]]
        for r in range(n):
            if r != c:
                m[r] = [x - m[r][c] * y for x, y in zip(m[r], m[c])]
    return det, [det * m[j][n + i] for i in range(n) for j in range(n)]


def main():
    tool = subprocess.Popen([sys.argv[1]], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    next_id = 0

    def send(message):
        nonlocal next_id
        tool.stdin.write(json.dumps({"id": next_id} | message) + "\n")
        tool.stdin.flush()
        line = tool.stdout.readline()
        if not line:
            sys.exit(f"the tool closed its output after {message}")
        response = json.loads(line)
        if response.get("id") != next_id:
            sys.exit(f"expected a response to message {next_id}, got {response}")
        next_id += 1
        return response

    failures = []

    def check(ok, what):
        if not ok:
            failures.append(what)

    r = send({"kind": "start"})
    check(r.get("tool") == "calx", f"start: {r}")
    r = send({"kind": "define", "module": "no-such-eval"})
    check(r.get("success") is False and "no-such-eval" in r.get("error", ""), f"define of a missing module: {r}")

    for path in sys.argv[2:]:
        with open(path) as f:
            workload = json.load(f)
        module = workload["eval"]
        r = send({"kind": "define", "module": module})
        check(r.get("success") is True, f"define {module}: {r}")
        for function, expected in workload["outputs"].items():
            r = send({"kind": "evaluate", "module": module, "function": function,
                      "input": workload["input"] | {"min_runs": 1, "min_seconds": 0}})
            if not r.get("success"):
                failures.append(f"{module}.{function}: {r.get('error')}")
                continue
            found = mismatches(expected, r["output"], f"{module}.{function}")
            timed = [t for t in r.get("timings", []) if t.get("name") == "evaluate"]
            check(len(timed) >= 1, f"{module}.{function}: no evaluate timing in {r.get('timings')}")
            failures += found[:10]
            print(f"{module}.{function}: {'ok' if not found else f'{len(found)} mismatches'}")
            check(send({"kind": "analysis", "of": next_id - 1, "valid": not found}).keys() == {"id"},
                  "analysis not acknowledged by id alone")

    # det at every size calx compiles it for (the golden workload is ell = 5 only), against
    # an LU reference, tighter than GradBench's rule: the values are small.
    rng = random.Random(31337)
    for ell in range(1, 12):
        a = [rng.uniform(-1.0, 1.0) for _ in range(ell * ell)]
        det, cofactors = det_and_cofactors(a, ell)
        for function, expected in (("primal", [det]), ("gradient", cofactors)):
            r = send({"kind": "evaluate", "module": "det", "function": function, "input": {"A": a, "ell": ell}})
            got = r.get("output")
            got = [got] if function == "primal" else got
            scale = max(abs(x) for x in expected)
            ok = r.get("success") and len(got) == len(expected) and all(
                abs(x - y) <= 1e-9 * scale for x, y in zip(expected, got))
            check(ok, f"det.{function} at ell = {ell}: expected {expected[:4]}..., got {str(r)[:300]}")
    r = send({"kind": "evaluate", "module": "det", "function": "primal", "input": {"A": [0.5] * 144, "ell": 12}})
    check(r.get("success") is False and "the input has ell = 12" in r.get("error", ""), f"a det input of ell = 12: {r}")
    r = send({"kind": "evaluate", "module": "det", "function": "primal", "input": {"A": [0.5] * 8, "ell": 3}})
    check(r.get("success") is False and "A has 8 entries, not ell^2 = 9" in r.get("error", ""),
          f"a det input of 8 entries at ell = 3: {r}")
    print("det at ell = 1 .. 11 against LU, and its size messages: checked")

    # ht walks a hand's skeleton: a bone whose parent is neither the root nor the bone
    # before it is refused with a message naming it.
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "ht_simple.json")) as f:
        hand = json.load(f)["input"]
    hand["data"]["model"]["parents"][7] = 5
    r = send({"kind": "evaluate", "module": "ht", "function": "objective", "input": hand})
    check(r.get("success") is False and "bone 7's parent is 5" in r.get("error", ""), f"an ht skeleton calx does not walk: {str(r)[:300]}")

    r = send({"kind": "evaluate", "module": "lse", "function": "primal", "input": {"x": [1.0, 2.0]}})
    check(r.get("success") is False and "the input has 2" in r.get("error", ""),
          f"an lse input of 2 numbers: {r}")
    tool.stdin.close()
    check(tool.wait(timeout=60) == 0, "the tool did not exit cleanly at the end of its input")

    for f in failures:
        print("FAILED:", f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
