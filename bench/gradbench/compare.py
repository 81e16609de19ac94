#!/usr/bin/env python3
"""Times calx's GradBench tool beside GradBench's `manual` on the same workloads, in one run,
one thread each, interleaved (calx, manual, calx, ...), and prints a Markdown table.

    compare.py CALX_TOOL MANUAL_BIN_DIR DATA.json... [--rounds R] [--seconds S]

CALX_TOOL is bench/gradbench's executable (driven through the protocol); MANUAL_BIN_DIR holds
manual's executables (`<eval> FILE FUNCTION`, cpp/gradbench/main.hpp), as run.sh builds them.
Each round runs each function for at least S seconds (GradBench's `min_seconds`) in each
tool; the table gives the minimum and the median of every run of every round, and the
ratio of the medians. The outputs are checked against each other on the way."""
import argparse
import json
import os
import statistics
import subprocess
import tempfile

from validate import mismatches


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("calx")
    ap.add_argument("manual_dir")
    ap.add_argument("data", nargs="+")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=1.0)
    args = ap.parse_args()

    tool = subprocess.Popen([args.calx], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    ids = iter(range(1 << 30))

    def calx(module, function, input):
        tool.stdin.write(json.dumps({"id": next(ids), "kind": "evaluate", "module": module,
                                     "function": function, "input": input}) + "\n")
        tool.stdin.flush()
        r = json.loads(tool.stdout.readline())
        if not r.get("success"):
            raise SystemExit(f"calx {module}.{function}: {r.get('error')}")
        return r["output"], [t["nanoseconds"] for t in r["timings"] if t["name"] == "evaluate"]

    def manual(module, function, input):
        with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
            json.dump(input, f)
            f.flush()
            out = subprocess.run([os.path.join(args.manual_dir, module), f.name, function],
                                 capture_output=True, text=True, check=True).stdout.splitlines()
        times = [json.loads(l)["nanoseconds"] for l in out[1:] if json.loads(l)["name"] == "evaluate"]
        return json.loads(out[0]), times

    print("| eval | function | workload | calx min / median (µs) | manual min / median (µs) | calx / manual (medians) |")
    print("| --- | --- | --- | ---: | ---: | ---: |")
    for path in args.data:
        with open(path) as f:
            workload = json.load(f)
        module = workload["eval"]
        for function in workload["outputs"]:
            input = workload["input"] | {"min_runs": 1, "min_seconds": args.seconds}
            times = {"calx": [], "manual": []}
            for _ in range(args.rounds):
                for name, run in (("calx", calx), ("manual", manual)):
                    out, t = run(module, function, input)
                    times[name] += t
                    bad = mismatches(workload["outputs"][function], out, f"{name} {module}.{function}")
                    if bad:
                        raise SystemExit("\n".join(bad[:10]))
            c, m = times["calx"], times["manual"]
            print(f"| {module} | {function} | {workload['workload']} | {min(c) / 1e3:.1f} / {statistics.median(c) / 1e3:.1f} "
                  f"| {min(m) / 1e3:.1f} / {statistics.median(m) / 1e3:.1f} | {statistics.median(c) / statistics.median(m):.2f} |",
                  flush=True)
    tool.stdin.close()
    tool.wait()


if __name__ == "__main__":
    main()
