#!/usr/bin/env python3
"""Writes one C++ translation unit of random calx programs for the differential fuzzer.

    python3 tests/fuzz/generate.py --seed S --count K --out FILE.cpp

Each program is a generic constexpr lambda (auto x, auto y, const auto& v) -> a number (a
double or a rank-0 tensor), x and y doubles, v a calx::tensor<double, 3>. It is written twice
from one expression tree: with calx:: (and user::, fz::) functions, and with ref:: ones, the
long double reference of tests/fuzz/fuzz.hpp. The TU runs fuzz::run_program on each and
prints `fuzz: N programs, M checks, F failures`; it exits 1 if F > 0. docs/fuzzing.md.

Types of the expression tree: S (a scalar: double or traced scalar), Z (a rank-0 tensor:
what calx::sum and an element read give) and V (a tensor of 3). A loop's carry gets back
exactly the type it holds, so the generator tracks them. Domains are safe everywhere: log and
sqrt of 1 + e*e, division by 1 + e*e, exp of a bounded argument; loop bodies are contractions
(a * carry + b * tanh/sin(...), |a| + |b| < 1.5) so values stay moderate.

Python 3 standard library only.
"""

import argparse
import random

S, Z, V = "S", "Z", "V"
# Names in an environment that are not traced values (a fori_loop's index is a plain int
# when the loop runs on numbers): calx functions never get them alone.
UNTRACED = {"(0.1 * i)"}


def traced_names(env, t):
    return [n for n, ty in env if ty == t and n not in UNTRACED]


class Gen:
    def __init__(self, rng):
        self.rng = rng
        self.fresh = 0
        self.in_loop = False

    def name(self, prefix):
        self.fresh += 1
        return f"{prefix}{self.fresh}"

    def const(self):
        return repr(round(self.rng.choice([1, -1]) * self.rng.uniform(0.1, 1.5), 2))

    # An expression of type t from env (a list of (name, type)), depth at most d. Returns
    # (text, uses_a_variable).
    def expr(self, t, env, d):
        r = self.rng
        names = [n for n, ty in env if ty == t]
        if d <= 0 or r.random() < 0.2:
            return self.leaf(t, env)
        if t == S:
            k = r.randrange(14)
            if k <= 2:  # arithmetic
                a, ua = self.expr(S, env, d - 1)
                b, ub = self.expr(S, env, d - 1)
                return f"({a} {r.choice(['+', '-', '*'])} {b})", ua or ub
            if k == 3:  # safe division
                a, ua = self.expr(S, env, d - 1)
                b, ub = self.expr(S, env, d - 1)
                return f"({a} / (1.0 + {b} * {b}))", ua or ub
            if k <= 6:
                return self.unary(S, env, d)
            if k == 7:
                return self.where(S, env, d)
            if k == 8:
                a = self.traced(S, env, d - 1)
                b, _ = self.expr(S, env, d - 1)
                if b == a:  # a tie everywhere: no switch point to stay away from
                    b = self.const()
                return f"calx::{r.choice(['max', 'min'])}({a}, {b})", True
            if k == 9:  # user ops (op_traits): decomposition only / own vjp / op of ops
                a = self.traced(S, env, d - 1)
                op = r.choice(["softplus", "softabs", "logaddexp"])
                if op == "logaddexp":
                    b = self.traced(S, env, d - 1)
                    return f"user::logaddexp({a}, {b})", True
                return f"user::{op}({a})", True
            if k <= 11 and not self.in_loop:  # custom_vjp / custom_jvp (scalars only: calx refuses
                # tensors); not in loop bodies, whose derivative loops (to the second order)
                # would compile each custom rule's programs again: compile time.
                a = self.traced(S, env, d - 1)
                fn = r.choice(["user::my_mul", "user::log1pexp", "fz::sin_mul", "fz::gauss_mul"])
                if fn == "user::log1pexp":
                    return f"{fn}({a})", True
                b = self.traced(S, env, d - 1)
                return f"{fn}({a}, {b})", True
            a, ua = self.expr(S, env, d - 1)
            b, ub = self.expr(S, env, d - 1)
            return f"({a} {r.choice(['+', '*'])} {b})", ua or ub
        if t == Z:
            k = r.randrange(8)
            vnames = [n for n, ty in env if ty == V]
            if k <= 1 or not names:
                a, ua = self.expr(V, env, d - 1)
                if r.random() < 0.5:
                    return f"calx::sum({a})", ua
                return f"calx::sum({a} * {a})", ua
            if k == 2 and vnames:
                return f"{r.choice(vnames)}({r.randrange(3)})", True
            if k <= 4:
                a, ua = self.expr(Z, env, d - 1)
                b, ub = self.expr(r.choice([S, Z]), env, d - 1)
                if r.random() < 0.5:
                    a, b = b, a
                return f"({a} {r.choice(['+', '-', '*'])} {b})", ua or ub
            if k == 5:
                return self.unary(Z, env, d)
            if k == 6:
                return self.where(Z, env, d)
            a, ua = self.expr(Z, env, d - 1)
            return f"user::{r.choice(['softplus', 'softabs'])}({a})", ua
        # V
        k = r.randrange(9)
        if k <= 2:
            a, ua = self.expr(V, env, d - 1)
            b, ub = self.expr(r.choice([V, V, S, Z]), env, d - 1)
            if r.random() < 0.5:
                a, b = b, a
            return f"({a} {r.choice(['+', '-', '*'])} {b})", ua or ub
        if k == 3:
            a, ua = self.expr(V, env, d - 1)
            b, ub = self.expr(r.choice([V, S]), env, d - 1)
            return f"({a} / (1.0 + {b} * {b}))", ua or ub
        if k <= 5:
            return self.unary(V, env, d)
        if k == 6:
            return self.where(V, env, d)
        if k == 7:
            a, ua = self.expr(V, env, d - 1)
            b, ub = self.expr(r.choice([V, S]), env, d - 1)
            if b == a:  # a tie everywhere
                b = self.const()
            return f"calx::{r.choice(['max', 'min'])}({a}, {b})", ua or ub
        a, ua = self.expr(V, env, d - 1)
        if r.random() < 0.5:
            b, ub = self.expr(V, env, d - 1)
            return f"user::logaddexp({a}, {b})", ua or ub
        return f"user::softplus({a})", ua

    def leaf(self, t, env):
        r = self.rng
        names = [n for n, ty in env if ty == t]
        if t == S:
            if names and r.random() < 0.85:
                n = r.choice(names)
                return n, n not in UNTRACED
            return self.const(), False
        if t == Z:
            if names and r.random() < 0.6:
                return r.choice(names), True
            vn = [n for n, ty in env if ty == V]
            if vn:
                return (f"{r.choice(vn)}({r.randrange(3)})" if r.random() < 0.5 else f"calx::sum({r.choice(vn)})"), True
            # No tensor in reach: a rank-0 tensor from a scalar, as a reduction would give.
            return f"calx::sum({r.choice(traced_names(env, S))} * calx::tensor<double, 3>{{}} + 1.0)", True
        if names:
            return r.choice(names), True
        return f"({r.choice(traced_names(env, S))} * calx::tensor<double, 3>{{}} + {self.const()})", True

    def unary(self, t, env, d):
        r = self.rng
        a, ua = self.traced(t, env, d - 1), True
        k = r.randrange(7)
        if k == 0:
            return f"calx::sin({a})", ua
        if k == 1:
            return f"calx::cos({a})", ua
        if k == 2:
            return f"calx::tanh({a})", ua
        if k == 3:
            return r.choice([f"calx::exp(calx::tanh({a}))", f"calx::exp(-({a} * {a}))", f"calx::exp(0.5 * calx::sin({a}))"]), ua
        if k == 4:
            return f"calx::log(1.0 + {a} * {a})", ua
        if k == 5:
            return f"calx::sqrt(1.0 + {a} * {a})", ua
        return f"(-{a})", ua

    def where(self, t, env, d):
        r = self.rng
        ct = t if t != S else S
        if t == V and r.random() < 0.5:
            ct = V
        p, up = self.traced(ct, env, d - 1), True
        q = self.const() if r.random() < 0.5 else self.expr(S, env, d - 1)[0]
        if q == p:  # a comparison of a value with itself sits on its switch point
            q = self.const()
        a, ua = self.expr(t, env, d - 1)
        b, ub = self.expr(t, env, d - 1)
        return f"calx::where(fz::{r.choice(['gt', 'lt'])}({p}, {q}), {a}, {b})", ua or ub or up

    # An expression of type t that reads a variable of env (so that it is traced where env is).
    def traced(self, t, env, d):
        e, u = self.expr(t, env, d)
        if u:
            return e
        names = traced_names(env, t)
        if names:
            return f"({e} + 0.0 * {self.rng.choice(names)})"
        s = self.rng.choice(traced_names(env, S))
        if t == Z:
            return f"({e} + calx::sum(0.0 * {s} * calx::tensor<double, 3>{{}}))"
        return f"({e} + 0.0 * {s})"

    # --- control flow: each returns (statements, [(name, type)] it defines), flags -------

    def carry(self, env, nmax):
        """Carry components (types S or V) with their inits, and pass-through values."""
        r = self.rng
        n = r.randint(1, nmax)
        # The first is a scalar: loop bodies then always have a traced scalar in reach.
        types = [S] + [r.choice([S, S, V]) for _ in range(n - 1)]
        inits = [self.traced(ty, env, 2) for ty in types]
        pool = [n for n, ty in env if ty in (S, V)]
        passed = r.sample(pool, k=min(r.randint(0, 1), len(pool)))
        ptypes = [ty for n in passed for m, ty in env if m == n]
        return types, inits, passed, ptypes

    def body_update(self, ty, cname, benv):
        r = self.rng
        a = round(r.uniform(0.3, 0.9), 2)
        b = round(r.uniform(0.2, 0.6), 2)
        self.in_loop = True
        e = self.traced(ty, benv, 1)
        self.in_loop = False
        return f"{a} * {cname} + {b} * calx::{r.choice(['tanh', 'sin'])}({e})"

    def fori(self, env, indent):
        r = self.rng
        types, inits, passed, ptypes = self.carry(env, 2)
        cn = [f"c{k}" for k in range(len(types))] + [f"p{k}" for k in range(len(passed))]
        benv = list(zip(cn, types + ptypes)) + [("(0.1 * i)", S)]
        ups = [self.body_update(ty, cn[k], benv) for k, ty in enumerate(types)] + cn[len(types):]
        res = self.name("t")
        trips = r.randint(2, 4)
        s = (f"{indent}const auto {res} = calx::fori_loop(0, {trips}, [](auto i, auto c) {{\n"
             f"{indent}  (void)i;\n"
             f"{indent}  [[maybe_unused]] const auto [{', '.join(cn)}] = c;\n"
             f"{indent}  return std::tuple{{{', '.join(ups)}}};\n"
             f"{indent}}}, std::tuple{{{', '.join(inits + passed)}}});\n")
        defs = []
        for k, ty in enumerate(types):
            nm = self.name("t")
            s += f"{indent}const auto {nm} = std::get<{k}>({res});\n"
            defs.append((nm, ty))
        return s, defs

    def scan(self, env, indent):
        r = self.rng
        types, inits, passed, ptypes = self.carry(env, 2)
        xs = self.traced(V, env, 2)
        cn = [f"c{k}" for k in range(len(types))] + [f"p{k}" for k in range(len(passed))]
        benv = list(zip(cn, types + ptypes)) + [("e", S)]
        ups = [self.body_update(ty, cn[k], benv) for k, ty in enumerate(types)] + cn[len(types):]
        self.in_loop = True
        yexpr = self.traced(S, benv, 1)
        self.in_loop = False
        res = self.name("t")
        s = (f"{indent}const auto {res} = calx::scan([](auto c, auto e) {{\n"
             f"{indent}  [[maybe_unused]] const auto [{', '.join(cn)}] = c;\n"
             f"{indent}  return std::pair{{std::tuple{{{', '.join(ups)}}}, {yexpr}}};\n"
             f"{indent}}}, std::tuple{{{', '.join(inits + passed)}}}, {xs});\n")
        defs = []
        for k, ty in enumerate(types):
            nm = self.name("t")
            s += f"{indent}const auto {nm} = std::get<{k}>({res}.first);\n"
            defs.append((nm, ty))
        nm = self.name("t")
        s += f"{indent}const auto {nm} = {res}.second;\n"
        defs.append((nm, V))
        return s, defs

    def while_(self, env, indent):
        r = self.rng
        types, inits, passed, ptypes = self.carry(env, 2)
        if types[0] != S:
            types[0] = S
            inits[0] = self.traced(S, env, 2)
        sx = r.choice([n for n, ty in env if ty == S])
        cn = ["k"] + [f"c{k}" for k in range(len(types))] + [f"p{k}" for k in range(len(passed))]
        benv = list(zip(cn[1:], types + ptypes)) + [("k", S)]
        ups = ["k + 1.0"] + [self.body_update(ty, cn[k + 1], benv) for k, ty in enumerate(types)] + cn[1 + len(types):]
        limit = r.choice([1.5, 2.5, 3.5])
        res = self.name("t")
        # At most limit + 1 steps: k grows by 1, 0.5 tanh(c0) stays in (-0.5, 0.5).
        s = (f"{indent}const auto {res} = calx::while_loop(\n"
             f"{indent}    [](auto c) {{ return fz::lt(std::get<0>(c) + 0.5 * calx::tanh(std::get<1>(c)), {limit}); }},\n"
             f"{indent}    [](auto c) {{\n"
             f"{indent}      [[maybe_unused]] const auto [{', '.join(cn)}] = c;\n"
             f"{indent}      return std::tuple{{{', '.join(ups)}}};\n"
             f"{indent}    }},\n"
             f"{indent}    std::tuple{{0.0 * {sx}, {', '.join(inits + passed)}}});\n")
        defs = []
        for k, ty in enumerate(types):
            nm = self.name("t")
            s += f"{indent}const auto {nm} = std::get<{k + 1}>({res});\n"
            defs.append((nm, ty))
        return s, defs

    def cond(self, env, indent):
        r = self.rng
        ops = r.sample(env, k=min(len(env), r.randint(1, 3)))
        if not any(ty == S for _, ty in ops):
            ops.append(r.choice([e for e in env if e[1] == S]))
        otypes = {ty for _, ty in ops}
        t = r.choice(sorted(otypes | ({Z} if V in otypes else set())))
        pn = [f"a{k}" for k in range(len(ops))]
        benv = list(zip(pn, [ty for _, ty in ops]))
        senv = [e for e in env if e[1] == S]
        p = self.traced(S, senv, 1)
        q = self.traced(S, senv, 1) if r.random() < 0.5 else self.const()
        if q == p:
            q = self.const()
        tb = self.traced(t, benv, 2)
        fb = self.traced(t, benv, 2)
        params = ", ".join(f"[[maybe_unused]] auto {n}" for n in pn)
        nm = self.name("t")
        s = (f"{indent}const auto {nm} = calx::cond(fz::{r.choice(['gt', 'lt'])}({p}, {q}),\n"
             f"{indent}    []({params}) {{ return {tb}; }},\n"
             f"{indent}    []({params}) {{ return {fb}; }},\n"
             f"{indent}    {', '.join(n for n, _ in ops)});\n")
        return s, [(nm, t)]

    def program(self, kind):
        """kind: a set of control-flow constructs to include."""
        r = self.rng
        env = [("x", S), ("y", S), ("v", V)]
        body = ""
        ind = "  "
        steps = ["plain"] * r.randint(1, 2) + sorted(kind)
        r.shuffle(steps)
        for st in steps:
            if st == "plain":
                t = r.choice([S, S, Z, V])
                nm = self.name("t")
                body += f"{ind}const auto {nm} = {self.traced(t, env, 3)};\n"
                env.append((nm, t))
            else:
                s, defs = getattr(self, {"fori": "fori", "scan": "scan", "while": "while_", "cond": "cond"}[st])(env, ind)
                body += s
                env += defs
        # The result: every value defined, reduced to a number, plus x, y and v read once more.
        terms = []
        for n, ty in env[3:]:
            c = self.const()
            if ty == V:
                terms.append(f"{c} * calx::sum({n} * {n})" if r.random() < 0.5 else f"{c} * calx::sum({n})")
            else:
                terms.append(f"{c} * {n}")
        terms.append(f"{self.const()} * calx::sin(x * y)")
        terms.append(f"{self.const()} * calx::sum(v * v)")
        r.shuffle(terms)
        body += f"{ind}return {' + '.join(terms)};\n"
        return body


# fuzz::checks in tests/fuzz/fuzz.hpp.
GROUP_NAMES = [(1, "value_and_grad/vjp"), (2, "jacfwd/jacrev"), (4, "second order"), (8, "vmap")]
# Pairs of groups, in turn: over six programs each group comes three times.
ROTATION = [1 | 4, 2 | 8, 4 | 8, 1 | 2, 2 | 4, 1 | 8]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, default=4, help="programs in the translation unit")
    ap.add_argument("--out", required=True)
    ap.add_argument("--checks", choices=["rotate", "all"], default="rotate",
                    help="rotate: each program gets two of the four extra check groups (value_and_grad"
                         " and vjp; jacfwd and jacrev; second order; vmap), in turn, to bound compile"
                         " time; all: every group for every program")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    progs = []
    for i in range(args.count):
        g = Gen(random.Random(rng.getrandbits(64)))
        # Each program has at most one loop (each loop compiles its derivative loops to the
        # second order: the bulk of the compile time) and maybe a cond; one in ten has no
        # control flow.
        pick = g.rng.random()
        kinds = set()
        if pick > 0.1:
            kinds.add(g.rng.choice(["fori", "scan", "while", "cond", "cond", "fori"]))
            if g.rng.random() < 0.25 and kinds != {"cond"}:
                kinds.add("cond")
        body = g.program(kinds)
        groups = 15 if args.checks == "all" else ROTATION[(args.seed * args.count + i) % len(ROTATION)]
        progs.append((i, body, "while" not in kinds, groups, sorted(kinds)))

    out = []
    out.append(f"// Generated by tests/fuzz/generate.py --seed {args.seed} --count {args.count}"
               f" --checks {args.checks}: do not edit.\n"
               "// Each program twice: with calx (progN) and the long double reference (refN); docs/fuzzing.md.\n"
               "#include <fuzz/fuzz.hpp>\n\n#include <tuple>\n#include <utility>\n\nnamespace {\n\n")
    for i, body, rev, groups, kinds in progs:
        src = f"[](auto x, auto y, const auto& v) {{\n{body}}}"
        refsrc = src.replace("calx::tensor<double, 3>{}", "ref::vec{}").replace("calx::", "ref::").replace(
            "user::", "ref::").replace("fz::", "ref::")
        out.append(f"// program {i}: {', '.join(kinds) or 'no control flow'}"
                   f"{'' if rev else ' (forward mode only: while_loop)'}; checks: basic"
                   f"{''.join(', ' + n for b, n in GROUP_NAMES if groups & b)}\n")
        out.append(f"constexpr auto prog{i} = {src};\n")
        out.append(f"constexpr auto ref{i} = {refsrc};\n")
        out.append(f"constexpr const char* src{i} = R\"fuzz(// seed {args.seed}, program {i}\n"
                   f"constexpr auto f = {src};)fuzz\";\n\n")
    out.append("}  // namespace\n\nint main() {\n")
    for i, body, rev, groups, kinds in progs:
        out.append(f"  fuzz::run_program<{'true' if rev else 'false'}, {groups}u>"
                   f"({i}, src{i}, prog{i}, ref{i});\n")
    out.append(f"  return fuzz::report(\"seed {args.seed}\");\n}}\n")
    with open(args.out, "w") as f:
        f.write("".join(out))


if __name__ == "__main__":
    main()
