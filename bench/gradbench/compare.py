#!/usr/bin/env python3
"""Times calx's GradBench tool beside GradBench's `manual` on the same workloads, in one run,
one thread each, interleaved (calx, manual, calx, ...), and prints a Markdown table.

    compare.py CALX_TOOL MANUAL_BIN_DIR DATA.json... [--rounds R] [--seconds S] [--jax "COMMAND"]

CALX_TOOL is bench/gradbench's executable (driven through the protocol); MANUAL_BIN_DIR holds
manual's executables (`<eval> FILE FUNCTION`, cpp/gradbench/main.hpp), as run.sh builds them.
--jax gives the command of GradBench's JAX tool (python/gradbench/gradbench/tools/jax/run.py
under a Python with jax and GradBench's package: peers.sh), driven through the protocol as
well; its evals get JAX's times and calx / JAX beside manual's.
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
    ap.add_argument("--jax", help="the command that starts GradBench's JAX tool")
    args = ap.parse_args()

    ids = iter(range(1 << 30))

    def protocol_tool(name, command):
        """A tool that speaks GradBench's protocol: (run(module, function, input), defines(module))."""
        tool = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, shell=isinstance(command, str))

        def send(message):
            tool.stdin.write(json.dumps({"id": next(ids)} | message) + "\n")
            tool.stdin.flush()
            return json.loads(tool.stdout.readline())

        def run(module, function, input):
            r = send({"kind": "evaluate", "module": module, "function": function, "input": input})
            if not r.get("success"):
                raise SystemExit(f"{name} {module}.{function}: {r.get('error')}")
            return r["output"], [t["nanoseconds"] for t in r["timings"] if t["name"] == "evaluate"]

        send({"kind": "start"})
        return tool, run, lambda module: send({"kind": "define", "module": module}).get("success") is True

    tool, calx, _ = protocol_tool("calx", [args.calx])
    jax_tool, jax, jax_defines = protocol_tool("jax", args.jax) if args.jax else (None, None, lambda m: False)

    def manual(module, function, input):
        with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
            json.dump(input, f)
            f.flush()
            out = subprocess.run([os.path.join(args.manual_dir, module), f.name, function],
                                 capture_output=True, text=True, check=True).stdout.splitlines()
        times = [json.loads(l)["nanoseconds"] for l in out[1:] if json.loads(l)["name"] == "evaluate"]
        return json.loads(out[0]), times

    jax_columns = " JAX min / median (µs) | calx / JAX (medians) |" if args.jax else ""
    print("| eval | function | workload | calx min / median (µs) | manual min / median (µs) | calx / manual (medians) |" + jax_columns)
    print("| --- | --- | --- | ---: | ---: | ---: |" + (" ---: | ---: |" if args.jax else ""))
    for path in args.data:
        with open(path) as f:
            workload = json.load(f)
        module = workload["eval"]
        tools = (("calx", calx), ("manual", manual)) + ((("jax", jax),) if jax_defines(module) else ())
        for function in workload["outputs"]:
            input = workload["input"] | {"min_runs": 1, "min_seconds": args.seconds}
            times = {"calx": [], "manual": [], "jax": []}
            for _ in range(args.rounds):
                for name, run in tools:
                    out, t = run(module, function, input)
                    times[name] += t
                    bad = mismatches(workload["outputs"][function], out, f"{name} {module}.{function}")
                    if bad:
                        raise SystemExit("\n".join(bad[:10]))
            c, m, j = times["calx"], times["manual"], times["jax"]
            row = (f"| {module} | {function} | {workload['workload']} | {min(c) / 1e3:.1f} / {statistics.median(c) / 1e3:.1f} "
                   f"| {min(m) / 1e3:.1f} / {statistics.median(m) / 1e3:.1f} | {statistics.median(c) / statistics.median(m):.2f} |")
            if args.jax:
                row += (f" {min(j) / 1e3:.1f} / {statistics.median(j) / 1e3:.1f} | {statistics.median(c) / statistics.median(j):.2f} |"
                        if j else " | |")
            print(row, flush=True)
    for t in (tool, jax_tool):
        if t:
            t.stdin.close()
            t.wait()


if __name__ == "__main__":
    main()
