#!/usr/bin/env python3
# ===- gen.py - Random [[grad]] programs for clang-grad ---------------------===#
#
# Part of clang-grad.
#
# ===------------------------------------------------------------------------===#
"""Writes one C++ file with N random `[[grad]]` functions of doubles and a
`main` that checks each generated pullback against finite differences.

Every program is a pure function of (--seed, --functions, --features), so a
failing seed reproduces exactly. All values stay bounded by construction: the
generator tracks an upper bound on the magnitude of every expression and of
every variable and squashes (tanh, or a constant scale without `math`)
whatever would grow past LIMIT, and every math call gets an argument that is
inside its domain for *all* real inputs (e.g. `log(1 + u*u)`).

The checker (emitted into the program) draws points in [-2, 2]^n at run time,
estimates each partial with Richardson-extrapolated central differences at
two step sizes and only uses points where both estimates agree (so a point
within a step of a kink of ?:, if, fabs, fmin, ... is redrawn instead of
reported). It then calls the pullback with seed 1, with a random seed, and
with pre-filled adjoints (checking accumulation), and prints `ok NAME` or
`FAIL NAME.pP.dI got G want W ...`; the last line is
`checked N functions, P points, F failures, S skipped points`.

Features (--features, comma separated; `all` and `default` are accepted):
  expr       arithmetic + - * /, unary minus, int and floating literals
  locals     local variables
  overwrite  re-assignment of locals and parameters, compound assignment
  ternary    ?: with comparison conditions
  math       <cmath> calls, as std::NAME and as plain C NAME
  calls      calls to earlier generated functions
  if         if / else blocks (the only return is the final one)
  helpers    un-annotated helpers, differentiated on demand via callers
  protos     some functions get a `[[grad]]` prototype before the definition
  loops      (not default) counted for / while / do loops (nested up to 2
             deep) whose bodies overwrite outer accumulators; while and do
             loops have bounded, sometimes data-dependent, trip counts;
             `if (c) break;` / `if (c) continue;` inside them
  returns    (not default) early `if (c) return e;` at the top level and,
             with loops, inside loop bodies
  arrays     (not default) local `double a[3]` scratch arrays (no active
             initializer) and a `const double *p` parameter of 4 elements,
             read with computed indices (loop counters, `(i + 1) % 4`)

Bounds in loops: each outer variable that a loop body writes is squashed at
the start of every iteration (`S * tanh(v / S)`, or `v / (1 + v*v / (4 S*S))`
without `math`), so the generator's straight-line bound tracking holds for
any trip count.
"""

import argparse
import math
import random
import sys

ALL_FEATURES = ("expr", "locals", "overwrite", "ternary", "math", "calls",
                "if", "helpers", "protos", "loops", "returns", "arrays")
DEFAULT_FEATURES = ("expr", "locals", "overwrite", "ternary", "math", "calls",
                    "if", "helpers", "protos")

LIMIT = 20.0     # no expression or variable may exceed this magnitude
LOOP_LIMIT = 4.0  # loop-carried values are squashed to at most this
PARAM_ARRAY = 4   # elements of the `const double *p` parameter
ARRAY_CALLS = False  # pass `p` on to calls of functions with an array
ARG_LIMIT = 2.0  # arguments of generated functions (the test box is [-2, 2])
PARAMS = ("x", "y", "z", "w")


class E:
    """A generated expression: C++ text, magnitude bound, int-typed?"""

    def __init__(self, text, bound, is_int=False):
        self.text = text
        self.bound = float(bound)
        self.is_int = is_int


class Var:
    def __init__(self, name, bound, assignable=True, array=False, is_int=False,
                 length=3):
        self.name = name
        self.bound = float(bound)
        self.assignable = assignable
        self.array = array
        self.is_int = is_int   # a loop counter: int, never negative
        self.length = length   # elements, for arrays


class Func:
    def __init__(self, name, arity, bound, annotated, array_at=None):
        self.name = name
        self.arity = arity          # scalar parameters
        self.bound = bound
        self.annotated = annotated
        self.array_at = array_at    # position of `const double *p`, or None


class Gen:
    def __init__(self, rng, features):
        self.rng = rng
        self.f = set(features)
        self.funcs = []      # earlier functions, callable from later ones
        self.scopes = []     # list of lists of Var
        self.nlocals = 0
        self.indent = 1
        self.lines = []
        self.loops = []      # frames of the enclosing generated loops
        self.ret_bound = 0.0  # bound of the early returns so far

    # --- helpers -----------------------------------------------------------
    def on(self, feature):
        return feature in self.f

    def chance(self, p):
        return self.rng.random() < p

    def vars(self):
        return [v for s in self.scopes for v in s]

    def lookup(self, name):
        for s in reversed(self.scopes):
            for v in s:
                if v.name == name:
                    return v
        raise KeyError(name)

    def emit(self, text):
        self.lines.append("  " * self.indent + text)

    def fn(self, name):
        """A math function name, spelled std::NAME or plain C NAME."""
        return ("std::" if self.chance(0.6) else "") + name

    def squash(self, e, to):
        """An expression bounded by `to` with the sign/shape of e."""
        if e.bound <= to:
            return e
        if self.on("math"):
            # to * k(u / to): close to u for small u, so squashing keeps the
            # function gentle (FD-friendly) instead of making it steep.
            k = self.rng.choice(["tanh", "tanh", "sin", "atan", "erf"])
            scale = {"atan": to / (math.pi / 2)}.get(k, to)
            return E(f"{fmt(scale)} * {self.fn(k)}({fmt(1 / to)} * {paren(e)})",
                     to)
        # Without <cmath>, scale linearly (a rational squash would repeat u).
        return E(f"{fmt(to / e.bound)} * {paren(e)}", to)

    def limit(self, e):
        return self.squash(e, LIMIT) if e.bound > LIMIT else e

    def set_bound(self, v, b):
        """Every write of a variable goes through here so that loops see the
        largest value a body may leave behind."""
        v.bound = b
        for fr in self.loops:
            if id(v) in fr["inv"]:
                fr["mod"][id(v)] = max(fr["mod"].get(id(v), 0.0), b)

    # --- expressions -------------------------------------------------------
    def literal(self):
        r = self.rng.random()
        if r < 0.35:
            n = self.rng.randint(0, 5)
            return E(str(n), n, is_int=True)
        v, text = self.rng.choice([
            (0.5, "0.5"), (1.5, "1.5"), (2.0, "2."), (0.25, ".25"),
            (0.1, "1e-1"), (3.0, "3.0"), (0.75, "0.75"), (1.25, "1.25"),
            (2.5, "2.5e0")])
        return E(text, v)

    def leaf(self):
        vs = [v for v in self.vars() if not v.array]
        if vs and self.chance(0.8):
            # Prefer locals (params are scopes[0]) so that values flow on.
            ws = [1 if v in self.scopes[0] else 3 for v in vs]
            v = self.rng.choices(vs, ws)[0]
            return E(v.name, v.bound, v.is_int)
        return self.literal()

    def denom(self, depth):
        """A denominator bounded away from zero for all inputs: (text, min)."""
        u = self.expr(depth)
        choices = [
            (f"(1.5 + {paren(u)} * {paren(u)})", 1.5),
            (f"(1.0 + {paren(u)} * {paren(u)})", 1.0),
            (self.rng.choice(["4.0", "2.", "0.5", "1.25"]), None),
        ]
        if self.on("math"):
            choices += [
                (f"(2.0 + {self.fn('sin')}({u.text}))", 1.0),
                (f"(0.5 + {self.fn('exp')}({self.squash(u, 2.0).text}))", 0.5),
                (f"{self.fn('cosh')}({self.squash(u, 2.0).text})", 1.0),
            ]
        text, lo = self.rng.choice(choices)
        if lo is None:
            lo = float(text)
        return text, lo

    def cond(self, depth):
        a, b = self.expr(depth), self.expr(depth)
        # `i < i` on a loop counter is -Wtautological-compare.
        if a.text == b.text and self.on("loops"):
            b = E(f"{b.text} + 0.5", b.bound + 0.5)
        op = self.rng.choice(["<", "<=", ">", ">="])
        c = f"{a.text} {op} {b.text}"
        if self.chance(0.15):
            d, e = self.expr(0), self.expr(0)
            if d.text == e.text and self.on("loops"):
                e = E(f"{e.text} + 0.5", e.bound + 0.5)
            c = f"({c}) {self.rng.choice(['&&', '||'])} {d.text} < {e.text}"
        return c

    def expr(self, depth):
        if depth <= 0 or self.chance(0.2):
            return self.leaf()
        kinds = ["add", "add", "mul", "mul", "div", "neg"]
        if self.on("ternary"):
            kinds += ["ternary"]
        if self.on("math"):
            kinds += ["math"] * 4
        if self.on("calls") and self.callable():
            kinds += ["call"] * 2
        if self.on("arrays") and self.arrays():
            kinds += ["elem"]
        k = self.rng.choice(kinds)
        d = depth - 1
        if k == "add":
            a, b = self.expr(d), self.expr(d)
            op = self.rng.choice(["+", "-"])
            return self.limit(E(f"({a.text} {op} {b.text})", a.bound + b.bound,
                                a.is_int and b.is_int))
        if k == "mul":
            a, b = self.expr(d), self.expr(d)
            return self.limit(E(f"{paren(a)} * {paren(b)}", a.bound * b.bound,
                                a.is_int and b.is_int))
        if k == "div":
            a = self.expr(d)
            text, lo = self.denom(max(d - 1, 0))
            return E(f"{paren(a)} / {text}", a.bound / lo)
        if k == "neg":
            a = self.expr(d)
            return E(f"-{paren(a)}", a.bound, a.is_int)
        if k == "ternary":
            c = self.cond(d)
            a, b = self.expr(d), self.expr(d)
            return E(f"({c} ? {a.text} : {b.text})", max(a.bound, b.bound),
                     a.is_int and b.is_int)
        if k == "call":
            return self.call(d)
        if k == "elem":
            return self.elem()
        return self.limit(self.math(d))

    def param_array(self):
        for v in self.scopes[0] if self.scopes else []:
            if v.array:
                return v
        return None

    def callable(self):
        # Passing a pointer to a differentiated call is not supported yet
        # ("cannot differentiate argument of type 'const double *'"); with
        # ARRAY_CALLS, a function with an array parameter gets the caller's.
        return [f for f in self.funcs if f.array_at is None or (
            ARRAY_CALLS and self.param_array() is not None)]

    def call(self, d):
        f = self.rng.choice(self.callable())
        args = [self.squash(self.expr(d), ARG_LIMIT).text for _ in range(f.arity)]
        if f.array_at is not None:
            args.insert(f.array_at, self.param_array().name)
        return E(f"{f.name}({', '.join(args)})", f.bound)

    def math(self, d):
        r = self.rng
        u = self.expr(d)
        s = lambda to: self.squash(u, to)
        name = r.choice([
            "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh",
            "cosh", "tanh", "asinh", "acosh", "atanh", "exp", "exp2", "expm1",
            "log", "log2", "log10", "log1p", "sqrt", "cbrt", "pow", "hypot",
            "fabs", "fmin", "fmax", "fma", "erf", "erfc", "minmax", "abs"])
        F = self.fn(name)
        sq = lambda e: f"{paren(e)} * {paren(e)}"
        if name in ("sin", "cos"):
            return E(f"{F}({u.text})", 1)
        if name == "tan":
            a = s(1.2)
            return E(f"{F}({a.text})", math.tan(a.bound))
        if name in ("asin", "acos"):
            a = s(0.9)
            return E(f"{F}({a.text})", math.pi)
        if name in ("atan", "tanh", "erf"):
            return E(f"{F}({u.text})", 1.6)
        if name == "erfc":
            return E(f"{F}({u.text})", 2)
        if name == "atan2":
            v = self.expr(d)
            pos = f"(0.5 + {sq(v)})"
            args = (u.text, pos) if self.chance(0.5) else (pos, u.text)
            return E(f"{F}({args[0]}, {args[1]})", math.pi)
        if name in ("sinh", "cosh", "exp", "exp2", "expm1"):
            a = s(2.0)
            return E(f"{F}({a.text})", math.cosh(2) if name != "exp2" else 4)
        if name == "asinh":
            return E(f"{F}({u.text})", math.asinh(u.bound))
        if name == "acosh":
            return E(f"{F}(1.5 + {sq(u)})", math.acosh(1.5 + u.bound ** 2))
        if name == "atanh":
            return E(f"{F}({s(0.9).text})", math.atanh(0.9))
        if name in ("log", "log2", "log10"):
            c = r.choice(["1.0", "0.5", "2"])
            # log2 is the largest of the three: |log2(v)| <= 1.5 * |log(v)|.
            return E(f"{F}({c} + {sq(u)})",
                     1.5 * (abs(math.log(0.5)) + math.log(2 + u.bound ** 2)))
        if name == "log1p":
            return E(f"{F}({sq(u)})", math.log1p(u.bound ** 2))
        if name == "sqrt":
            c = r.choice(["1.0", "0.25", "3"])
            return E(f"{F}({c} + {sq(u)})", math.sqrt(3 + u.bound ** 2))
        if name == "cbrt":
            sign = r.choice(["", "-"])
            return E(f"{F}({sign}(0.5 + {sq(u)}))", (0.5 + u.bound ** 2) ** (1 / 3))
        if name == "pow":
            form = r.randrange(3)
            if form == 0:   # positive base, any exponent
                a, b = s(1.5), self.squash(self.expr(d), 2.0)
                return E(f"{F}(1.2 + {sq(a)}, {b.text})", (1.2 + a.bound ** 2) ** 2)
            if form == 1:   # any base, integer-valued exponent
                a = s(2.0)
                n = r.choice(["2", "3", "2.0", "3.0"])
                return E(f"{F}({a.text}, {n})", a.bound ** float(n))
            a = s(2.0)      # constant positive base
            base = r.choice(["2", "0.5", "3.0"])
            return E(f"{F}({base}, {a.text})", float(base) ** 2 + 4)
        if name == "hypot":
            v = self.expr(d)
            return E(f"{F}({u.text}, 0.5 + {sq(v)})", u.bound + 0.5 + v.bound ** 2)
        if name == "fabs":
            if u.is_int:   # fabs(int) is -Wabsolute-value
                u = E(f"{u.text} * 1.0", u.bound)
            return E(f"{F}({u.text})", u.bound)
        if name == "abs":
            if u.is_int:
                u = E(f"{u.text} * 1.0", u.bound)
            return E(f"std::abs({u.text})", u.bound)
        if name in ("fmin", "fmax"):
            v = self.expr(d)
            return E(f"{F}({u.text}, {v.text})", max(u.bound, v.bound))
        if name == "minmax":
            v = self.expr(d)
            if u.is_int or v.is_int:
                v = E(f"double({v.text})", v.bound)
                u = E(f"double({u.text})", u.bound)
            m = r.choice(["min", "max"])
            return E(f"std::{m}({u.text}, {v.text})", max(u.bound, v.bound))
        if name == "fma":
            v, w = self.expr(d), self.expr(d)
            return E(f"{F}({u.text}, {v.text}, {w.text})",
                     u.bound * v.bound + w.bound)
        raise AssertionError(name)

    # --- arrays -------------------------------------------------------------
    def arrays(self):
        return [v for v in self.vars() if v.array]

    def index(self, n):
        """An index in [0, n): a constant or computed from loop counters."""
        ints = [v for v in self.vars() if v.is_int]
        if not ints or self.chance(0.3):
            return str(self.rng.randrange(n))
        i = self.rng.choice(ints).name
        j = self.rng.choice(ints).name
        c = self.rng.randint(1, 3)
        return self.rng.choice([
            f"{i} % {n}", f"({i} + {c}) % {n}", f"({c} * {i} + {j}) % {n}",
            f"{n - 1} - {i} % {n}", f"({i} * {j}) % {n}"])

    def elem(self):
        a = self.rng.choice(self.arrays())
        return E(f"{a.name}[{self.index(a.length)}]", a.bound)

    # --- statements --------------------------------------------------------
    def new_local(self):
        self.nlocals += 1
        return f"t{self.nlocals}"

    def stmt(self, depth):
        kinds = []
        if self.on("locals"):
            kinds += ["decl"] * 3
        if self.on("overwrite") and any(v.assignable and not v.array
                                        for v in self.vars()):
            kinds += ["assign", "assign", "compound", "compound"]
        if self.on("if") and depth > 0:
            kinds += ["if", "if"]
        if self.on("locals") and depth > 0:
            kinds += ["block"]
        if self.on("loops") and depth > 0 and any(
                v.assignable and not v.array for v in self.vars()):
            kinds += ["loop", "loop"]
        if self.on("loops") and self.loops:
            kinds += ["jump"]
        if self.on("returns") and (not self.loops or self.on("loops")):
            kinds += ["ret"]
        if self.on("arrays") and self.on("locals"):
            kinds += ["array"]
        if self.on("arrays") and any(
                v.array and v.assignable for v in self.vars()):
            kinds += ["elemwrite"]
        if not kinds:
            return
        getattr(self, "s_" + self.rng.choice(kinds))(depth)

    def s_decl(self, depth):
        e = self.limit(self.expr(3))
        name = self.new_local()
        ty = "double"
        if self.chance(0.1) and not e.is_int:
            ty = "auto"
        elif self.chance(0.1):
            ty = "const double"
        if self.chance(0.1):
            e2 = self.limit(self.expr(2))
            name2 = self.new_local()
            self.emit(f"double {name} = {e.text}, {name2} = {e2.text};")
            self.scopes[-1] += [Var(name, e.bound), Var(name2, e2.bound)]
            return
        self.emit(f"{ty} {name} = {e.text};")
        self.scopes[-1].append(Var(name, e.bound, not ty.startswith("const")))

    def target(self):
        return self.rng.choice([v for v in self.vars()
                                if v.assignable and not v.array])

    def s_assign(self, depth):
        v = self.target()
        r = self.rng.random()
        if r < 0.5:   # an update that reads the old value: z = z * x + 1.0
            a = self.expr(2)
            b = self.expr(1)
            op = self.rng.choice(["*", "+", "-"])
            bound = (v.bound * a.bound if op == "*" else v.bound + a.bound)
            e = self.limit(E(f"{v.name} {op} {paren(a)} + {paren(b)}",
                             bound + b.bound))
        else:
            e = self.limit(self.expr(3))
        self.emit(f"{v.name} = {e.text};")
        self.set_bound(v, e.bound)

    def s_compound(self, depth):
        v = self.target()
        op = self.rng.choice(["+=", "-=", "*=", "/="])
        if op == "/=":
            text, lo = self.denom(1)
            self.emit(f"{v.name} /= {text};")
            self.set_bound(v, v.bound / lo)
            return
        a = self.expr(2)
        bound = v.bound * a.bound if op == "*=" else v.bound + a.bound
        if bound > LIMIT:
            a = self.squash(a, 1.0 if op == "*=" else 0.5)
            bound = v.bound * a.bound if op == "*=" else v.bound + a.bound
            if bound > LIMIT:   # squash the variable first
                s = self.squash(E(v.name, v.bound), LIMIT / 2)
                self.emit(f"{v.name} = {s.text};")
                self.set_bound(v, s.bound)
                bound = v.bound * a.bound if op == "*=" else v.bound + a.bound
        self.emit(f"{v.name} {op} {a.text};")
        self.set_bound(v, bound)

    def block(self, depth, n):
        """Emits a { } body; returns the bounds of outer variables at its end."""
        outer = self.vars()
        before = [v.bound for v in outer]
        self.scopes.append([])
        self.indent += 1
        for _ in range(n):
            self.stmt(depth - 1)
        self.indent -= 1
        self.scopes.pop()
        after = [v.bound for v in outer]
        for v, b in zip(outer, before):
            v.bound = b
        return outer, after

    def s_block(self, depth):
        self.emit("{")
        outer, after = self.block(depth, self.rng.randint(1, 3))
        self.emit("}")
        for v, b in zip(outer, after):
            v.bound = b

    def s_if(self, depth):
        self.emit(f"if ({self.cond(2)}) {{")
        outer, then = self.block(depth, self.rng.randint(1, 3))
        if self.chance(0.6):
            self.emit("} else {")
            _, other = self.block(depth, self.rng.randint(1, 3))
        else:
            other = [v.bound for v in outer]
        self.emit("}")
        for v, a, b in zip(outer, then, other):
            v.bound = max(a, b)

    def loop_squash(self, name, to):
        """`name` squashed into [-to, to] whatever its value."""
        if self.on("math"):
            return (f"{fmt(to)} * {self.fn('tanh')}({fmt(1 / to)} * {name})")
        return f"{name} / (1 + {fmt(1 / (4 * to * to))} * {name} * {name})"

    def s_loop(self, depth):
        """A for / while / do loop whose body may overwrite outer variables,
        break, continue and return. Outer variables the body writes are
        squashed at the start of each iteration, so their bound at the top
        of the body (`inv`) holds for any trip count."""
        r = self.rng
        self.nlocals += 1
        k = f"i{self.nlocals}"
        outer = [v for v in self.vars() if v.assignable and not v.array]
        before = {id(v): v.bound for v in outer}
        inv = {id(v): max(v.bound, LOOP_LIMIT) for v in outer}
        kind = r.choice(["for", "for", "down", "step", "while", "whilec",
                         "do", "doc"])
        n = r.randint(1, 5)
        cond = ""
        if kind in ("whilec", "doc"):
            for v in outer:
                v.bound = inv[id(v)]
            cond = f" && ({self.cond(1)})"
        if kind == "for":
            self.emit(f"for (int {k} = 0; {k} < {n}; ++{k}) {{")
        elif kind == "down":
            self.emit(f"for (int {k} = {n - 1}; {k} >= 0; {k}--) {{")
        elif kind == "step":
            n += 2
            self.emit(f"for (int {k} = 0; {k} < {n}; {k} += 2) {{")
        elif kind in ("while", "whilec"):
            self.emit(f"int {k} = 0;")
            self.emit(f"while ({k} < {n}{cond}) {{")
        else:
            self.emit(f"int {k} = 0;")
            self.emit("do {")
        self.indent += 1
        if kind in ("while", "whilec", "do", "doc"):
            # The counter first, so that `continue` cannot skip it.
            self.emit(f"++{k};")
        for v in outer:
            v.bound = inv[id(v)]
        at = len(self.lines)
        frame = {"inv": inv, "mod": {}}
        self.loops.append(frame)
        self.scopes.append([Var(k, n, False, is_int=True)])
        # An overwritten accumulator in (nearly) every loop.
        if self.on("overwrite") and self.chance(0.8):
            self.s_assign(depth - 1)
        for _ in range(r.randint(1, 3)):
            self.stmt(depth - 1)
        self.scopes.pop()
        self.loops.pop()
        self.indent -= 1
        if kind in ("do", "doc"):
            self.emit(f"}} while ({k} < {n}{cond});")
        else:
            self.emit("}")
        squash = [v for v in outer if id(v) in frame["mod"]]
        pad = "  " * (self.indent + 1)
        self.lines[at:at] = [
            f"{pad}{v.name} = {self.loop_squash(v.name, inv[id(v)])};"
            for v in squash]
        for v in outer:
            if id(v) in frame["mod"]:
                self.set_bound(v, max(inv[id(v)], frame["mod"][id(v)]))
            else:
                v.bound = before[id(v)]

    def s_jump(self, depth):
        c = self.cond(1)
        word = self.rng.choice(["break", "continue"])
        if self.chance(0.3) and self.on("overwrite"):
            self.emit(f"if ({c}) {{")
            self.indent += 1
            self.scopes.append([])
            outer = self.vars()
            saved = [v.bound for v in outer]
            self.s_assign(depth)
            self.emit(f"{word};")
            for v, b in zip(outer, saved):
                v.bound = b
            self.scopes.pop()
            self.indent -= 1
            self.emit("}")
        else:
            self.emit(f"if ({c})")
            self.emit(f"  {word};")

    def s_ret(self, depth):
        c = self.cond(1)
        e = self.limit(self.expr(2))
        vs = [v for v in self.vars() if not v.array and not v.is_int]
        if vs:
            v = self.rng.choice(vs)
            e = self.limit(E(f"{v.name} + {paren(e)}", v.bound + e.bound))
        self.ret_bound = max(self.ret_bound, e.bound)
        self.emit(f"if ({c})")
        self.emit(f"  return {e.text};")

    def s_array(self, depth):
        # A local scratch array: declared without initializer, then filled.
        self.nlocals += 1
        name = f"a{self.nlocals}"
        self.emit(f"double {name}[3];")
        bound = 2.0
        for j in range(3):
            e = self.limit(self.expr(2))
            self.emit(f"{name}[{j}] = {e.text};")
            bound = max(bound, e.bound)
        self.scopes[-1].append(Var(name, bound, True, True))

    def s_elemwrite(self, depth):
        # Writes keep the array's bound, so they are safe inside loops.
        a = self.rng.choice([v for v in self.vars() if v.array and v.assignable])
        e = self.squash(self.expr(2), a.bound)
        self.emit(f"{a.name}[{self.index(a.length)}] = {e.text};")

    # --- functions ---------------------------------------------------------
    def function(self, name, annotated, protos):
        arity = self.rng.randint(1, 4)
        params = [Var(p, ARG_LIMIT, self.on("overwrite")) for p in PARAMS[:arity]]
        array_at = None
        if self.on("arrays") and self.chance(0.5):
            array_at = self.rng.randint(0, arity)
            params.insert(array_at, Var("p", ARG_LIMIT, False, True,
                                        length=PARAM_ARRAY))
        self.scopes = [list(params), []]
        self.nlocals = 0
        self.lines = []
        self.indent = 1
        self.loops = []
        self.ret_bound = 0.0
        for _ in range(self.rng.randint(0, 6)):
            self.stmt(2)
        ret = self.limit(self.expr(3))
        # Return something that reads several live variables, so that most
        # statements reach the result.
        live = [v for s in self.scopes for v in s if not v.array]
        ret = E(ret.text, max(ret.bound, self.ret_bound), ret.is_int)
        for v in self.rng.sample(live, min(len(live), self.rng.randint(1, 3))):
            op = self.rng.choice(["+", "-", "*"])
            b = v.bound * ret.bound if op == "*" else v.bound + ret.bound
            ret = self.limit(E(f"{v.name} {op} {paren(ret)}", b))
        self.emit(f"return {ret.text};")
        sig = f"double {name}({', '.join(('const double *' if p.array else 'double ') + p.name for p in params)})"
        prefix = "[[grad]] " if annotated else self.rng.choice(
            ["static ", "inline ", ""])
        if annotated and protos is not None and self.chance(0.25):
            protos.append(f"[[grad]] {sig};")
            prefix = ""
        text = f"{prefix}{sig} {{\n" + "\n".join(self.lines) + "\n}\n"
        self.funcs.append(Func(name, arity, max(ret.bound, self.ret_bound),
                               annotated, array_at))
        return text


def paren(e):
    t = e.text
    if t.replace(".", "").replace("e", "").replace("-", "").isalnum() and \
            not t.startswith("-"):
        return t
    if t.startswith("(") and t.endswith(")") and balanced(t[1:-1]):
        return t
    return f"({t})"


def balanced(t):
    depth = 0
    for c in t:
        depth += {"(": 1, ")": -1}.get(c, 0)
        if depth < 0:
            return False
    return depth == 0


def fmt(v):
    return repr(float(v))


HARNESS = r"""
// Checker: Richardson central differences at two step sizes; a point where
// they disagree (a kink of ?:, if, fabs, fmin, ... within a step) is redrawn.
namespace fuzz {
using Fn = double (*)(const double *);
using Pb = void (*)(const double *, double, double *);
struct Case {
  const char *Name;
  int Arity;
  Fn F;
  Pb P;
};

struct Rng {
  std::uint64_t S;
  double next() { // splitmix64, uniform in [0, 1)
    std::uint64_t Z = (S += 0x9e3779b97f4a7c15ULL);
    Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebULL;
    return double((Z ^ (Z >> 31)) >> 11) * 0x1.0p-53;
  }
};

enum { MaxArity = 8 }; // 4 scalars and a 4-element array

static double fd(Fn F, const double *A, int N, int I, double Step) {
  double X[MaxArity];
  for (int J = 0; J < N; ++J)
    X[J] = A[J];
  auto D = [&](double H) {
    double Xp = A[I] + H, Xm = A[I] - H;
    X[I] = Xp;
    double Fp = F(X);
    X[I] = Xm;
    double Fm = F(X);
    X[I] = A[I];
    return (Fp - Fm) / (Xp - Xm);
  };
  double H = Step * (std::fabs(A[I]) > 1 ? std::fabs(A[I]) : 1.0);
  return (4 * D(H / 2) - D(H)) / 3;
}

static bool close(double Got, double Want, double Rel, double Abs) {
  return std::fabs(Got - Want) <= Abs + Rel * std::fabs(Want);
}

static int run(const Case *Cases, int N, std::uint64_t Seed) {
  const int Points = 3, Tries = 40;
  int Failures = 0, Checked = 0, Skipped = 0, TotalPoints = 0;
  for (int C = 0; C < N; ++C) {
    const Case &K = Cases[C];
    Rng R{Seed * 1000003u + std::uint64_t(C)};
    int Done = 0, Bad = 0;
    for (int T = 0; T < Tries && Done < Points; ++T) {
      double A[MaxArity], Want[MaxArity], D[MaxArity], Init[MaxArity];
      for (int I = 0; I < K.Arity; ++I)
        A[I] = -2 + 4 * R.next();
      double Val = K.F(A);
      if (!std::isfinite(Val)) {
        std::printf("FAIL %s primal not finite\n", K.Name);
        ++Bad;
        break;
      }
      // A condition whose sides are equal up to rounding makes F jump at
      // every point; FD points on one side and A on the other would agree
      // with each other, so also require F(A) to sit between its neighbours.
      bool Smooth = true;
      for (int I = 0; I < K.Arity; ++I) {
        double X[MaxArity];
        for (int J = 0; J < K.Arity; ++J)
          X[J] = A[J];
        double H = 1e-5 * (std::fabs(A[I]) > 1 ? std::fabs(A[I]) : 1.0);
        X[I] = A[I] + H;
        double Fp = K.F(X);
        X[I] = A[I] - H;
        double Fm = K.F(X);
        Smooth = Smooth && std::fabs(Fp + Fm - 2 * Val) <= 1e-7 * (1 + std::fabs(Val));
      }
      for (int I = 0; I < K.Arity; ++I) {
        double E1 = fd(K.F, A, K.Arity, I, 1e-3);
        double E2 = fd(K.F, A, K.Arity, I, 1.25e-4);
        Smooth = Smooth && std::isfinite(E1) && close(E1, E2, 1e-7, 1e-9);
        Want[I] = E1;
      }
      if (!Smooth)
        continue;
      // Point 0: seed 1; point 1: a random seed; point 2: pre-filled
      // adjoints, which the pullback must accumulate into.
      double S = Done == 1 ? (R.next() < 0.5 ? -1 : 1) * (0.5 + 1.5 * R.next())
                           : 1.0;
      for (int I = 0; I < K.Arity; ++I)
        D[I] = Init[I] = Done == 2 ? 0.5 * (I + 1) : 0.0;
      K.P(A, S, D);
      for (int I = 0; I < K.Arity; ++I) {
        double Got = D[I] - Init[I], Exp = S * Want[I];
        if (close(Got, Exp, 1e-6, 1e-8))
          continue;
        std::printf("FAIL %s.p%d.d%d got %.17g want %.17g (seed %.17g at",
                    K.Name, Done, I, Got, Exp, S);
        for (int J = 0; J < K.Arity; ++J)
          std::printf(" %.17g", A[J]);
        std::printf(")\n");
        ++Bad;
      }
      ++Done;
    }
    if (Bad == 0 && Done > 0)
      std::printf("ok %s (%d points)\n", K.Name, Done);
    Failures += Bad;
    Checked += Done > 0;
    Skipped += Points - Done;
    TotalPoints += Done;
  }
  std::printf("checked %d functions, %d points, %d failures, %d skipped points\n",
              Checked, TotalPoints, Failures, Skipped);
  return Failures != 0;
}
} // namespace fuzz
"""


def generate(seed, n, features):
    rng = random.Random(seed)
    g = Gen(rng, features)
    protos = [] if "protos" in features else None
    bodies, checked = [], []
    for k in range(n):
        if g.on("helpers") and g.on("calls") and rng.random() < 0.2:
            bodies.append(g.function(f"h{k}", False, None))
        name = f"f{k}"
        bodies.append(g.function(name, True, protos))
        checked.append(g.funcs[-1])
    out = [f"// Generated by test/fuzz/gen.py --seed {seed} --functions {n} "
           f"--features {','.join(sorted(features))}",
           "// Do not edit: regenerate instead.",
           "#include <algorithm>", "#include <cmath>", "#include <cstdint>",
           "#include <cstdio>", ""]
    if "loops" in features:
        out[-1:-1] = ["#include <grad/grad.h>"]
    if protos:
        out += protos + [""]
    out += bodies
    out.append(HARNESS)
    for f in checked:
        # Scalars are a[0..arity), the array parameter the PARAM_ARRAY after.
        args = [f"a[{i}]" for i in range(f.arity)]
        ds = [f"&d[{i}]" for i in range(f.arity)]
        if f.array_at is not None:
            args.insert(f.array_at, f"a + {f.arity}")
            ds.insert(f.array_at, f"d + {f.arity}")
        args, ds = ", ".join(args), ", ".join(ds)
        out.append(f"static double {f.name}_w(const double *a) "
                   f"{{ return {f.name}({args}); }}")
        out.append(f"static void {f.name}_pb(const double *a, double s, double *d) "
                   f"{{ {f.name}_pullback({args}, s, {ds}); }}")
    out.append("static const fuzz::Case Cases[] = {")
    for f in checked:
        size = f.arity + (PARAM_ARRAY if f.array_at is not None else 0)
        out.append(f"    {{\"{f.name}\", {size}, {f.name}_w, {f.name}_pb}},")
    out.append("};")
    out.append("")
    out.append(f"int main() {{ return fuzz::run(Cases, {n}, {seed}u); }}")
    return "\n".join(out) + "\n"


def parse_features(text):
    feats = set()
    for f in text.split(","):
        f = f.strip()
        if not f:
            continue
        if f == "all":
            feats |= set(ALL_FEATURES)
        elif f == "default":
            feats |= set(DEFAULT_FEATURES)
        elif f.startswith("-") and f[1:] in ALL_FEATURES:
            feats.discard(f[1:])
        elif f in ALL_FEATURES:
            feats.add(f)
        else:
            raise argparse.ArgumentTypeError(
                f"unknown feature '{f}' (known: {', '.join(ALL_FEATURES)})")
    feats.add("expr")
    return feats


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 1)[1])
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--functions", type=int, default=25)
    p.add_argument("--features", type=parse_features,
                   default=set(DEFAULT_FEATURES),
                   help="comma-separated list; 'default', 'all', '-NAME' "
                        "removes one (e.g. default,-calls,loops)")
    p.add_argument("-o", "--output", default="-")
    a = p.parse_args(argv)
    if not 1 <= a.functions <= 10000:
        p.error("--functions must be in 1..10000")
    text = generate(a.seed, a.functions, a.features)
    if a.output == "-":
        sys.stdout.write(text)
    else:
        with open(a.output, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
