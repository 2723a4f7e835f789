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

Features (--features, comma separated; `default`, `all` (every feature
before the memory ones), `memory` and `-NAME` are accepted):
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
  scratch    (not default, not in all) at the top level: counted loops
             whose iterations fill scratch arrays first (`s[c] = e` for c
             in [0, 4)), read them (also in a triangle, GMM's Qxc) and add
             into an accumulator: the plugin recomputes such iterations
             before their reverse instead of recording them
  arrays     (not default) local `double a[3]` scratch arrays (no active
             initializer) and a `const double *p` parameter of 4 elements,
             read with computed indices (loop counters, `(i + 1) % 4`)
  memory     (not default) = pointers,outargs,sidefx,outparams:
  pointers   local arrays (also `= {...}`, `= {}`), `const double *q = p + 1`,
             `double *w = &a[2]`, `double *pt = &t`, `double &r = a[1]`;
             reads `*q`, `q[-1]`, `*(q + 2)`, writes `*w = / += / *= ...`,
             `++w`, `w += 2`, re-seating, pointer walks in counted loops
             (`*q++`, `for (q = a; q != a + 3; ++q)`)
  outargs    un-annotated helpers writing through pointers and references
             (sq, axpy, step, prod, swap2; at / cell return a pointer /
             reference bound to a local), called with `&t`, `&a[1]`, `a + 1`,
             `p`, `w`, `t`; calls of earlier functions with `p` / `out`
  sidefx     side effects inside expressions: `a = b = e`, `(t *= x) += y`,
             `g(t += x)`, `t++ * e`, `if ((t += y) > e)`, `(t = e, t * y)`,
             `a[k++]`, `q[--k]`
  outparams  functions with a `double *out` (2 elements) parameter, most of
             them void; out's entry values are inputs, the checker seeds both
             exit values and checks the replayed out values
  retwrite   (not in memory) assignment through a returned pointer or
             reference, `cell(a, 1) += e` (needs outargs)
  seqorder   (not in memory) `(t op= a) op= b` where b reads t (C++17
             evaluates b first)
  ptrresults (not in memory; with outargs) `double *m = pmax(a, n);` (a
             helper whose search loop returns a pointer to the largest of n
             elements) followed by a write through `*m`, or a write through
             the result directly (`*pmax(a, n) *= e`); with pointers,
             pointer locals are also re-seated as `q = q + 1`
  vectors    (not in all or memory) a block with a std::vector built from
             an array range (`v(a + k, a + 3)`) or braces, mutated by
             `insert(pos, a + k, a + 3)`, `insert(pos, n, e)`, `assign(a + k,
             a + 3)`, `push_back(e)`, `erase(pos)`, `insert(pos, {e, f})`,
             `assign({e, f})`, `v = {e, f}`, `assign(n, e)`, `resize(m, e)`
             (the values may read v itself: `v[j] * (e)`), a second vector built
             from iterators `w(v.begin() + j, v.end())` and `v.swap(w)`,
             then folded into a scalar from elements at known indices;
             inside loops too, sized by the loop counter (`v(2 + i % 3, e)`),
             with `break` / `continue` between the size changes
  maps       (not in all or memory) `s = grad::sum(grad::map([](double el)
             { ... }, v))` over a std::vector of values, the lambda capture-
             free (forward lowering) with a local `u`, `u += e`, `u = u - e`,
             `u *= 0.5`, `if (u > 0.25) ...` and tanh calls whose value is
             only differentiated (alone, scaled by a literal, summed) or read
             (products, arguments of exp and sin, conditions)
  copies     (not in all or memory; with pointers or outargs) copies of
             ranges of doubles: `std::copy(s, s + n, d)`, `std::copy_n`,
             `std::memcpy(d, s, n * sizeof(double))`, `std::memmove` (also
             overlapping, within one array), `std::memset(d, 0, ...)`,
             `std::sort(d, d + n[, std::greater<double>()])`
  structs    (not in all or memory) struct locals: `V3 t{e, e, e}`, `V3
             t{}`, `C3 t(e, e, e)` (a constructor copying its parameters),
             copies `V3 t = u`, `C3 t = sscale(u, e)` (a helper returning a
             struct), assignment `t = u`, member calls on temporaries
             `C3(e, e, e).sum()`; their members `t.x` are read and written
             like scalar locals
  structops  (with structs) `V3 t = u + w` (a free operator), non-const
             member calls `t.scale(e)` and `t += u` (a member operator
             returning *this), structured bindings `auto [a, b, c] = u;`
             whose names are read and written like scalar locals; a feature of its own so that `structs`
             seeds keep reproducing
  ctors      (with structs) `P3 t(e, e, e)` through a constructor that
             computes members and has a body (differentiated on demand),
             `P3(e, e, e).z` (a member of a temporary) and
             `P3(e, e, e).lam(e)` (a const method calling a local lambda
             that captures `this`); P3 locals are read, written, copied and
             passed to sscale like the other structs; with values,
             `V3 t = sstep(u, e);` (a helper writing through its reference
             parameter and returning a struct)
  shaped     (not in all or memory; with locals) `M2 t{n, {}};`, a 2 x 2
             matrix in a row-major array whose row length n (2, 3, or
             `2 + i % 2` in a loop over i: it changes per iteration) is a
             member, reached only through member functions that read it:
             `t.at(0, 0)`, `t(0, 1)` (references), `t.row(1)[0]` (a pointer);
             the elements are read and written like scalar locals (also
             bound to references), also in branches of ?:
  owners     (not in all or memory; with locals) `MV t(n);`, a 2 x n
             matrix in a std::vector member whose row length n (2, 3, or
             `2 + i % 2` per iteration) is a member: its cells `t.at(0, 0)`,
             `t(0, 1)`, `t.a[t.n]`, `t.at(1, 1)` are read and written like
             scalar locals (never bound to pointers or references); or a
             vector of two rows of n, cells `t[0][0]` ... `t[1].back()`;
             or a copy of an MV in scope (`MV u = t;`)
  rowptrs    (not in all or memory; with owners) pointers into an MV's
             member: `double *r = t.a.data();` or `&t.a[t.n]`, `double *q
             = r + 1;`, written and read through both; or `for (double &c :
             t.a) c = 0.5 * std::tanh(c + e);`
  lambdas    (not in all or memory) local lambdas: capture-free (`auto
             lamN = [](double u, double v) { ... };`), capturing by
             reference a variable assigned between the definition and the
             call (the call reads the new value), by value one assigned
             before the definition, or between it and the call (directly
             or as `*&y = ...`: the call reads the old value), and after
             the call, and writing what they capture by reference (`[&](double
             u) { t = 0.5 * std::tanh(t + u); }` called twice, and
             immediately invoked `[&] { ... }();`)
  dtors      (with structs) V3, C3 and P3 have a destructor that writes
             nothing (`~V3() {}`): no longer trivially copyable, they are
             kept and taped as bytes, and their destructors run as written
  ownermethods (not in all or memory; with owners) member functions of
             an MV called on it: setters `t.set(0, 1, e);`, `t.add(1, 0,
             e);` (run on the object itself), `t.damp(e);` (reads what it
             writes: kept per call), and reads `t.get(1, 1)` (linear),
             `t.wget(1, 1, e)` (times a value: kept per call),
             `t.energy()` (kept per call) after writes
  temps      (not in all or memory) `t += 0.5 * std::tanh(tw({0.25 * i,
             e}, e) + tp(T2{e, 0.5 * i}, t));`: temporaries from braces
             passed by const reference to helpers whose derivatives read
             their values, built from an int in scope (loop counters change
             after the call)
  values     (not in all or memory; with vectors or owners) objects as
             values: with vectors, whole assignment `v = w;` (w built from
             v's iterators, then still read) and `v = vscale(v, tanh(e));`
             (a helper taking the vector by value, writing its copy and
             returning it), `v = vmix(e, f);` (a helper returning
             braces); with owners, `MV t = mvmake(n, e, f);` (a
             helper returning the object; or `t = mvmake(...)` assigned
             whole to one in scope) and `s = mvsum(t);` (a helper
             taking it by value, writing its copy, summing its elements in
             a range-for over the member), vectors of rows from braces
             (`std::vector<std::vector<double>> t{{e, f}, {f, 0.5 *
             e}};`), and range-based for over a row by value (`for
             (double e : t[1]) s += 0.5 * std::tanh(e * s);`)
  intmembers (not in all or memory; with locals) `K3 t{e, n, e};`, a struct
             whose integer member k (1..3, or `1 + i % 3` from a loop
             counter) is read in arithmetic like an int local (and
             sometimes set again, `t.k = n;`); its floating members are
             scalar locals (with forward: integer members have no tangent)
  delegating (with structs) `C3 t(e);` through C3's delegating
             constructor `C3(double s) : C3(s, 0.5 * s, 1.0) {}`
  forward    (not in all or memory) every checked function is also
             `[[grad::forward]]`: the checker compares its pushforward along a
             random direction with the finite-difference gradient dotted with
             that direction, at the first point (`out` parameters are then
             declared as pointers: a `double out[]` gets a read-only tangent)
  switch     (not in all or memory) `switch` on a selector in 0..3 built
             from two conditions: case groups of one or two values, maybe
             `default`, each a braced block followed by `break;` or
             ending with it
  fallthrough (implies switch) a case group but the last may fall through
             into the next one (its block without `break`, half of the time
             followed by `[[fallthrough]];`)
  rowrefs    (implies owners, values) the matrices of owners, plus
             `std::vector<std::array<double, 2>> t{{e, f}, {f, 0.5 * e}};`
             from braces, walked by range-based for loops binding a
             reference to each row: `for (const auto &r : t) s += 0.5 *
             std::tanh(r[0] * s + r.back());`, `for (auto &r : t) r[0] =
             0.5 * std::tanh(r[0] * e);`, an inner range-for by value
             over each row, and `for (auto r : t)` copies of std::array
             rows written in the body
  switchbreak (implies switch) a case group's block may leave the switch
             from inside: statements, then `if (c) break;` or `if (c) {
             statements; break; }`, then more statements
  lanes      (implies forward) `[[grad::forward("lanes=3")]]`: the checker
             calls the vector pushforward with the directions (V, 0, -2 V)
             in its three lanes, compares lane 0 as forward does, and
             requires lane 1 to be zero and lane 2 to be -2 times lane 0
  vecpull    (not in all or memory) checked functions get `[[grad("lanes=2")]]`
             (those that hessian makes `[[grad::hessian]]` excepted): the
             checker calls the vector pullback too, with the seeds (s, -2 s)
             in its two lanes (out's adjoints likewise), and requires lane 0
             to equal the scalar pullback's adjoints (relative 1e-12) and
             lane 1 to be -2 times lane 0
  hessian    (not in all or memory) checked functions without `out` are
             `[[grad::hessian]]` (with forward, also `grad::forward`): the
             checker compares NAME_hvp along a random direction with central
             differences of the pullback along it, at the first point
  selectors  (not in all or memory) statements assigning one of two
             double variables, `(c ? a : b) op= e`, and blocks binding
             `const double &r` to `std::max(a, b)`, `std::min(a, b)`, `c ?
             a : b` or `std::min(a, b, comp)` (comp a lambda comparing
             squares), then writing `a` or `b` while `r` lives and reading
             `r` after the write
  complex    (not in all or memory) std::complex<double> locals built from
             two expressions and updated in place (`t *= std::polar(1.0,
             e)`, `t += complex(e, e)`, `t = t * u + e`, `t = std::conj(t)
             - e * u`, `t /= complex(d, t.imag())`, `t.real(e)`, `t =
             std::exp(t / s)`), read as `t.real()`, `t.imag()`,
             `std::abs(t)`, `std::norm(t)`; only at the loop depth where
             they were declared

Construct features (issue 49: code nobody here wrote got wrong gradients
in these; not in all or memory; `constructs` names all eleven; refmethods
passed, bound, positions and rvalues, added after, are in no group so that the groups' seeds
reproduce):
  bound      (issue 51) functions and lambdas bound at the call to pointer
             and std::function parameters of ordinary functions:
             `ptr3(fsq, e)`, `ptr3(&fbump, e)`, `viaPtr(fbump, e)`
             (passing the pointer on), a captureless lambda converted to
             the pointer, `fn3([&](double u) { ... }, e)` and `fn3(fsq, e)`
             (`const std::function<double(double)> &`); captures `[&]`,
             `[=]`, `[&c]`, `[c]`; std::transform, std::accumulate and
             std::inner_product (with std::plus<>) given lambdas, over a
             local array or std::vector
  passed     (issue 51) lambdas passed to function templates: `sum3(g, e)`
             (`F f`), `viaSum(g, e)` (`const F &`, passing it on to sum3),
             `both(g, h, e)` (two closures capturing the same variable),
             a lambda written in the call, `each3([&](double u) { acc +=
             ...; }, e)` (`F &&`, writing a by-reference capture); captures
             `[&]`, `[=]`, `[&c]`, `[c]`; a copy of a variable the function
             changes is an acceptable refusal
  refmethods `RStep s{a}; s.step(e); s.pull(e);` (members writing a
             `double &`, also in a loop and on array elements `w[j]`),
             `ad.advance(st)` (a const member writing a `RState &`):
             the advice audit of issue 54 found the call wrote a copy
  heapobj    a block with `double *h = new double(e);`, `HV *h = new
             HV{e, e, e};`, `HS *h = new HS{e, flag};` (a const method
             `h->get()`) or a `std::unique_ptr<double>`, written through
             (`*h += e`, `h->y = e`), read by the block's statements, folded
             into a variable and deleted
  ptrptr     (not with lanes or vecpull) functions with a `double **pp`
             parameter to 3 in/out doubles (the checker passes `&ptr` and
             `&dptr`; weights PP_WEIGHTS): `double *a = *pp;`, `**pp op= e`,
             `(*pp)[k]`, `pp[0][k]`, a final overwrite; local `double **ww =
             &w;` (`(*ww)[j] = e`, `++*ww`); helpers `pload(pp, k)`,
             `pscale(&w, s)`, `pmap(&q, &w, n)`, `padvance(&w, 1)`; calls of
             earlier such functions with `&w`
  argeffects `lib::unit(t += e);`, `u = konst(t *= e) * e2;`, `u +=
             ignore2(t = e, e2) * e3;`: a side effect in an argument whose
             value the call does not use
  refhelpers `same(a) * y`, `csame(p[1])` in expressions (helpers returning
             a reference to their argument), `same(t) op= e`, `twice(t);`,
             `u += c * twice(t);`, `if (c) u += twice(t);`, a loop `u = 0.5 *
             u + same(t) * e`, `double &r = twice(t);` (with pointers)
  reseat     (needs p or out) at the top level, the parameter p re-seated:
             `++p`, `p = 1 + p`, `p = out`, `p = a + 1`, `p = &t`, `p =
             *pp`, `const double *b = p; p = 1 + p; ++b;`, a walk `s += c *
             *p++`; `++out; out[0] op= e; --out;`
  constmembers `h = l1.forward(h); h = l2.forward(h);` (const members
             taking `const std::vector<double> &`), `l.score(h)` and
             `Net{{..}}.eval(h)` before and after h changes, `f.energy(ps)`
             over a `std::vector<CV>` before and after it changes,
             `l.apply(a, n)` over `const double *` (also an array in scope
             that later statements change)
  genlambdas generic lambdas `[](auto u) { ... }` called once, twice, with
             captures (assigned between definition and call), of two `auto`
             parameters, writing through `auto &`, passed to `apply2(g, e)`
  runalias   `if (i != j) upd(a[i], a[j])` (two `double &`; unguarded, the
             pullback aborts when i == j), `updp(a + i, &a[j])`,
             `std::swap(a[i], a[j])` with i == j only at some points
             (indices from loop counters or conditions), over arrays in
             scope or a local std::vector; "may be the same" is an
             acceptable refusal
  preinc     `*++q`, `*--q`, `*q++`, `*q--` in reads and as write targets
             (`*++w = e`), then the pointer stays in scope; backward Horner
             `s = s * u + *--q`; `std::partial_sum` / `adjacent_difference`
             over ranges into a new array or in place
  functional `std::multiplies<double>()(a, b)`, `std::plus<>()`,
             `std::minus`, `std::negate`, `std::divides` in expressions;
             std::accumulate (plus, multiplies, minus), std::reduce,
             std::inner_product (plus/multiplies, plus/minus),
             std::transform (multiplies, plus, negate), std::inclusive_scan
             / exclusive_scan (also multiplies) over ranges in scope
  rvalues    (issue 51) `double &&` parameters and std::exchange:
             `scaled(e * e, e)` (a temporary), `scaled(std::move(u), e)`
             then u read (the callee changed it), `twice(e, e)`,
             `twice(u, e)` (a forwarding reference), `double o =
             std::exchange(p, e);` then o and p read
  positions  (issue 51) iterator locals that only mark a position: `auto
             it = std::lower_bound(v.begin(), v.end(), c)` (upper_bound,
             find_if with a capture-free predicate) over a local vector
             (not with lanes or vecpull),
             brought back into range, stepped (`--it`, std::prev,
             std::advance) and measured (`it - v.begin()`, std::distance);
             the element at that index folded into a variable
  bits       a double's bits through `std::uint64_t` and back
             (`std::bit_cast`, `std::memcpy`; refused for differentiated
             values), bits of constants, `std::memcpy` of doubles into
             doubles, `std::memset` of a scratch array to zero
  mutablemembers `Cache c{a};` whose const members write `mutable double
             last`: `c.eval(x)` (`last = a * x; return last * x;`), `c.sq(x)`
             (returns last), `c.acc(x)` (reads the previous last, also in a
             loop), read as `c.last`, `c.prev()`, `c.calls` between calls

Memory bounds: every array has one bound for all its elements; it may grow
only at the loop depth where the array was declared, so a loop body keeps
the bound of outer arrays invariant. A write that would exceed a bound first
squashes the element (`a[1] = 4 * tanh(a[1] / 4)`). Side-effecting
expressions never read the written variable (or a pointer to it) elsewhere
in the same full expression, so nothing is unsequenced; pointers keep a
statically known offset (they are re-seated only in their own scope).

-DPRIMAL_ONLY compiles a program without the plugin: main then evaluates
each function at 20 points and checks finiteness and the generator's bound.

Bounds in loops: each outer variable that a loop body writes is squashed at
the start of every iteration (`S * tanh(v / S)`, or `v / (1 + v*v / (4 S*S))`
without `math`), so the generator's straight-line bound tracking holds for
any trip count.
"""

import argparse
import math
import random
import re
import sys


def distinct_constant_elements(a, b):
    """`v[0]` and `v[2]`: elements of one array at different constant
    indices (the plugin knows them for different memory)."""
    ma = re.fullmatch(r"(\w+)\[(\d+)\]", a)
    mb = re.fullmatch(r"(\w+)\[(\d+)\]", b)
    return bool(ma and mb and ma.group(1) == mb.group(1) and
                ma.group(2) != mb.group(2))

# `all` keeps meaning the features before the memory ones, so that seeds
# recorded with `all` reproduce; `all,memory` is everything.
LEGACY_FEATURES = ("expr", "locals", "overwrite", "ternary", "math", "calls",
                   "if", "helpers", "protos", "loops", "returns", "arrays")
# Not part of `memory` (so that its seeds reproduce, see README.md): retwrite
# (assignment through a call's returned pointer / reference, supported
# since 2026-12-02) and seqorder (the right operand of `(t op= a) op= b`
# reads t, sequenced first in C++17; the plugin refuses it).
MEMORY_FEATURES = ("pointers", "outargs", "sidefx", "outparams")
# The construct classes of issue 49 (code nobody here wrote gave wrong
# gradients in them), one feature each; `constructs` names them all.
CONSTRUCT_FEATURES = ("heapobj", "ptrptr", "argeffects", "refhelpers",
                      "reseat", "constmembers", "genlambdas", "runalias",
                      "preinc", "functional", "mutablemembers", "bits")
ALL_FEATURES = LEGACY_FEATURES + MEMORY_FEATURES + ("retwrite", "seqorder",
                                                    "structs", "structops",
                                                    "complex", "ctors",
                                                    "forward", "hessian",
                                                    "lanes", "switch",
                                                    "selectors",
                                                    "ptrresults", "vectors",
                                                    "copies", "maps",
                                                    "shaped", "delegating",
                                                    "intmembers", "owners",
                                                    "values", "scratch",
                                                    "rowptrs", "temps",
                                                    "ownermethods", "dtors",
                                                    "lambdas", "intalias",
                                                    "fallthrough",
                                                    "switchbreak",
                                                    "rowrefs",
                                                    "vecpull") + \
    CONSTRUCT_FEATURES + ("refmethods", "passed", "bound", "positions",
                          "rvalues")
# Names that stand for several features.
GROUPS = {"memory": MEMORY_FEATURES, "all": LEGACY_FEATURES,
          "constructs": CONSTRUCT_FEATURES}
DEFAULT_FEATURES = ("expr", "locals", "overwrite", "ternary", "math", "calls",
                    "if", "helpers", "protos")

LIMIT = 20.0     # no expression or variable may exceed this magnitude
LOOP_LIMIT = 4.0  # loop-carried values are squashed to at most this
PARAM_ARRAY = 4   # elements of the `const double *p` parameter
ARRAY_CALLS = False  # pass `p` on to calls of functions with an array
ARG_LIMIT = 2.0  # arguments of generated functions (the test box is [-2, 2])
OUT_LEN = 2       # elements of the `double *out` parameter (outparams)
OUT_CHANCE = 0.35  # share of functions with an `out` parameter
OUT_WEIGHTS = (0.75, -1.25)  # the checker's loss: ret + w . out
PP_LEN = 3        # elements behind the `double **pp` parameter (ptrptr)
PP_CHANCE = 0.4   # share of functions with a `pp` parameter
PP_WEIGHTS = (0.5, -0.75, 1.0)  # ... and the loss: + w . (*pp)[0..2]
PARAMS = ("x", "y", "z", "w")


class E:
    """A generated expression: C++ text, magnitude bound, int-typed?"""

    def __init__(self, text, bound, is_int=False):
        self.text = text
        self.bound = float(bound)
        self.is_int = is_int


class Var:
    def __init__(self, name, bound, assignable=True, array=False, is_int=False,
                 length=3, root=None, off=0, pconst=False, ref=False,
                 depth=0, view=False):
        self.name = name
        self.bound = float(bound)
        self.assignable = assignable  # for pointers: may be re-seated
        self.array = array
        self.is_int = is_int   # a loop counter: int, never negative
        self.length = length   # elements, for arrays
        # Pointers and references (memory features): what they point into
        # (an array or scalar Var), the element offset into an array root,
        # whether the pointee is const, and the loop depth of declaration
        # (arrays declared outside the innermost loop must not grow there).
        self.root = root
        self.off = off
        self.pconst = pconst
        self.ref = ref
        self.depth = depth
        # complex feature: `t.real()` / `t.imag()` of a std::complex local,
        # read like a scalar, written only by the complex statements.
        self.view = view

    @property
    def scalar(self):
        """A plain double (or loop counter) variable."""
        return not self.array and self.root is None and not self.view

    @property
    def ptr(self):
        return self.root is not None


class Cell:
    """One double lvalue: its text, the text of its address, and the Var it
    lives in (idx: element index for an array root, None for a scalar)."""

    def __init__(self, text, addr, root, idx):
        self.text = text
        self.addr = addr
        self.root = root
        self.idx = idx


class Range:
    """`n` consecutive doubles as a pointer expression (helper arguments)."""

    def __init__(self, text, root, start, n):
        self.text = text
        self.root = root
        self.start = start   # element index in an array root, None: scalar
        self.n = n

    def cells(self):
        return [self.start + k for k in range(self.n)] \
            if self.root.array else [None]


class Func:
    def __init__(self, name, arity, bound, annotated, array_at=None,
                 kinds=None, void=False, out_bound=0.0, pp_bound=0.0):
        self.name = name
        self.arity = arity          # scalar parameters
        self.bound = bound
        self.annotated = annotated
        self.array_at = array_at    # position of `const double *p`, or None
        # Parameter kinds in order: "s" double, "p" const double[4], "o"
        # double out[2] (outparams), "q" double **pp to 3 elements
        # (ptrptr). void: no return value.
        self.kinds = kinds or ["s"] * arity
        self.void = void
        self.out_bound = out_bound  # bound of out[] on exit
        self.pp_bound = pp_bound    # bound of (*pp)[] on exit

    @property
    def has_out(self):
        return "o" in self.kinds


class Gen:
    def __init__(self, rng, features):
        self.rng = rng
        self.f = set(features)
        self.funcs = []      # earlier functions, callable from later ones
        self.scopes = []     # list of lists of Var
        # (Expressions in scratch loops call nothing: calls there multiply
        # the primal's cost by the trip counts at every level.)
        self.no_calls = False
        self.nlocals = 0
        self.indent = 1
        self.lines = []
        self.loops = []      # frames of the enclosing generated loops
        # Loop depth at each enclosing switch: `break` there would leave
        # the switch, so jumps need a loop inside it.
        self.switches = []
        self.ret_bound = 0.0  # bound of the early returns so far
        self.hidden = set()  # ids of Vars an expression must not read
        self.void = False    # the current function returns void
        # Any memory feature: loop counters without `loops` (pointer walks),
        # exact exp bounds (see math).
        self.mem = bool(self.f & set(MEMORY_FEATURES))
        # exp / expm1 bounded by e^2, not cosh(2) (see math).
        self.exact_exp = self.mem or bool(self.f & set(CONSTRUCT_FEATURES))
        self.struct_type = {}  # structs feature: local name -> V3 / C3
        # Inside a block that ends with `delete` (heapobj): no `return`.
        self.no_return = 0
        self.braces = []     # open_block: whether each block has braces

    # --- helpers -----------------------------------------------------------
    def on(self, feature):
        return feature in self.f

    def chance(self, p):
        return self.rng.random() < p

    def vars(self):
        vs = [v for s in self.scopes for v in s]
        if self.hidden:
            # A hidden variable is also hidden behind its pointers.
            vs = [v for v in vs if id(v) not in self.hidden and
                  (v.root is None or id(v.root) not in self.hidden)]
        return vs

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
        if to <= 0:  # (no room left: the value must be 0)
            return E("0.0", 0)
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
        vs = [v for v in self.vars() if v.scalar or v.view]
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
        if a.text == b.text and (self.on("loops") or self.mem or
                                 self.on("scratch")):
            b = E(f"{b.text} + 0.5", b.bound + 0.5)
        op = self.rng.choice(["<", "<=", ">", ">="])
        c = f"{a.text} {op} {b.text}"
        if self.chance(0.15):
            d, e = self.expr(0), self.expr(0)
            if d.text == e.text and (self.on("loops") or self.mem or
                                     self.on("scratch")):
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
        if self.on("calls") and not self.no_calls and self.callable():
            kinds += ["call"] * 2
        if self.on("arrays") and self.arrays():
            kinds += ["elem"]
        if self.mem_arrays() and self.arrays():
            kinds += ["elem"]
        if self.on("pointers") and self.ptr_vars():
            kinds += ["deref", "deref"]
        if self.on("outargs") and self.pick_range(2, False, dry=True):
            kinds += ["dot2"]
        if self.on("complex") and self.complex_in_scope():
            kinds += ["cread"]
        if self.on("functional"):
            kinds += ["functor"]
        if self.on("refhelpers") and self.ref_cells():
            kinds += ["refread"]
        if self.on("ptrptr") and self.pp_param() is not None:
            kinds += ["ppread"]
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
        if k == "deref":
            return self.deref()
        if k == "cread":
            t = self.rng.choice(self.complex_in_scope())
            re, im = self.cparts(t)
            m = re.bound + im.bound
            if self.chance(0.5):
                return E(f"std::abs({t})", m)
            return self.limit(E(f"std::norm({t})", m * m))
        if k == "dot2":
            a, b = self.pick_range(2, False), self.pick_range(2, False)
            return self.limit(E(f"dot2({a.text}, {b.text})",
                                2 * a.root.bound * b.root.bound))
        if k == "functor":
            return self.functor(d)
        if k == "refread":
            return self.refread()
        if k == "ppread":
            return self.ppread()
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
        # Functions with an out parameter are called as statements (gcall).
        return [f for f in self.funcs if not f.has_out and
                "q" not in f.kinds and (
                    f.array_at is None or (ARRAY_CALLS and
                                           self.param_array() is not None))]

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
            b = math.cosh(2) if name != "exp2" else 4
            if name in ("exp", "expm1") and self.exact_exp:
                # cosh(2) under-estimates exp(2); kept as it was for the
                # other features so that their seeds reproduce.
                b = math.exp(2)
            return E(f"{F}({a.text})", b)
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
        if self.on("overwrite") and any(v.assignable and v.scalar
                                        for v in self.vars()):
            kinds += ["assign", "assign", "compound", "compound"]
        if self.on("if") and depth > 0:
            kinds += ["if", "if"]
        if self.on("locals") and depth > 0:
            kinds += ["block"]
        if self.on("loops") and depth > 0 and any(
                v.assignable and v.scalar for v in self.vars()):
            kinds += ["loop", "loop"]
        if self.on("loops") and self.loops and (
                not self.switches or len(self.loops) > self.switches[-1]):
            kinds += ["jump"]
        if self.on("switch") and depth > 0:
            kinds += ["switch", "switch"]
        if self.on("selectors") and len(self.doubles()) >= 2:
            kinds += ["condassign", "condassign", "selref", "selref"]
        if self.on("returns") and (not self.loops or self.on("loops")) \
                and not self.no_return:
            kinds += ["ret"]
        if self.on("arrays") and self.on("locals"):
            kinds += ["array"]
        if self.on("scratch") and len(self.scopes) == 2 and not self.loops:
            kinds += ["scratch"] * 2
        if self.on("arrays") and any(
                v.array and v.assignable for v in self.vars()):
            kinds += ["elemwrite"]
        if self.on("intalias") and depth > 0:
            kinds += ["intalias"] * 2
        kinds += self.memory_kinds(depth)
        if self.on("vectors") and self.on("locals") and any(
                v.assignable and v.scalar for v in self.vars()):
            kinds += ["vecops"] * 2
        if self.on("maps") and self.on("locals") and any(
                v.assignable and v.scalar for v in self.vars()):
            kinds += ["map"] * 2
        if self.on("complex") and self.on("locals"):
            kinds += ["complex"] * 2
        if self.on("shaped") and self.on("locals"):
            kinds += ["shaped"] * 2
        if self.on("intmembers") and self.on("locals"):
            kinds += ["kstruct"] * 2
        if self.on("owners") and self.on("locals"):
            kinds += ["owner"] * 2
            if self.on("rowrefs"):
                kinds += ["owner"] * 3
            if self.on("ownermethods") and any(
                    getattr(v, "owner_kind", None) == "MV"
                    for v in self.vars()):
                kinds += ["owner"] * 4
        if self.on("temps") and any(v.assignable and v.scalar
                                     for v in self.vars()):
            kinds += ["temps"] * 2
        if self.on("lambdas") and self.lambda_vars():
            kinds += ["lambda"] * 3
        if self.on("structs") and self.on("locals"):
            kinds += ["struct"] * 2
            if len(self.structs_in_scope()) >= 2:
                kinds += ["structassign"]
            if self.on("structops") and self.structs_in_scope("C3"):
                kinds += ["structcall"] * 2
        kinds += self.construct_kinds()
        if not kinds:
            return
        getattr(self, "s_" + self.rng.choice(kinds))(depth)

    # --- lambdas -----------------------------------------------------------
    def lambda_vars(self):
        """Plain double variables a lambda may capture by name."""
        return [v for v in self.vars()
                if v.scalar and v.assignable and not v.is_int and
                v.name.isidentifier()]

    def s_lambda(self, depth):
        """A local lambda and its calls: capture-free, capturing by
        reference or by value a variable assigned between the definition and
        the call (by value: also before it, or through a pointer), or
        writing what it captures by reference."""
        r = self.rng
        cands = self.lambda_vars()
        self.nlocals += 1
        f = f"lam{self.nlocals}"
        kind = r.choice(["pure", "byref", "byvalue", "writes", "iife"])
        arg = lambda: self.dbl(self.squash(self.limit(self.expr(2)), 2.0))
        if kind == "pure":
            self.emit(f"auto {f} = [](double u, double v) {{ return 0.5 * "
                      f"std::tanh(u * v) + 0.25 * u; }};")
            t = self.target()
            a, b = arg(), arg()
            self.emit(f"{t.name} += {f}({a.text}, {b.text});")
            self.set_bound(t, t.bound + 1.0)
            return
        c = r.choice(cands)
        if kind in ("byref", "byvalue"):
            cap = f"&{c.name}" if kind == "byref" else c.name
            e = self.dbl(self.squash(self.limit(self.expr(2)), 2.0))
            # By value: assigned before the lambda, or between the lambda
            # and the call (the closure holds the old value), directly or
            # through a pointer.
            where = (r.choice(["before", "between", "pointer"])
                     if kind == "byvalue" else "between")
            if where == "before":
                self.emit(f"{c.name} = {e.text};")
                self.set_bound(c, e.bound)
            self.emit(f"auto {f} = [{cap}](double u) {{ return "
                      f"std::tanh(u * {c.name}) + 0.5 * std::sin({c.name}); }};")
            if where == "between":
                self.emit(f"{c.name} = {e.text};")
                self.set_bound(c, e.bound)
            elif where == "pointer":
                self.emit(f"*&{c.name} = {e.text};")
                self.set_bound(c, e.bound)
            t = self.target()
            a = arg()
            self.emit(f"{t.name} += {f}({a.text});")
            self.set_bound(t, t.bound + 1.5)
            if kind == "byvalue" and t is not c:
                self.emit(f"{c.name} = 0.5 * {c.name} + 0.25 * {t.name};")
                self.set_bound(c, 0.5 * c.bound + 0.25 * t.bound)
            return
        if kind == "writes":
            self.emit(f"auto {f} = [&](double u) {{ {c.name} = 0.5 * "
                      f"std::tanh({c.name} + u); }};")
            a, b = arg(), arg()
            self.emit(f"{f}({a.text});")
            self.emit(f"{f}({b.text});")
            self.set_bound(c, 0.5)
            return
        e = arg()
        t = self.target()
        self.emit(f"[&] {{ {t.name} += 0.5 * std::tanh({e.text} * "
                  f"{c.name}); }}();")
        self.set_bound(t, t.bound + 0.5)

    # --- temps -------------------------------------------------------------
    def s_temps(self, depth):
        """Temporaries passed to helpers by const reference: a vector and a
        struct from braces, built from an int in scope (a loop counter
        changes after the call) and a differentiated value."""
        ints = [v.name for v in self.vars() if v.is_int and not v.array]
        i = self.rng.choice(ints) if ints else "2"
        e = self.dbl(self.squash(self.limit(self.expr(2)), 2.0))
        t = self.target()
        # Half of the time, temporaries of ints only: no derivative of their
        # own, but the helpers' derivatives read their values.
        ints_only = self.chance(0.5)
        a = f"0.5 * {i}" if ints_only else paren(e)
        self.emit(f"{t.name} += 0.5 * std::tanh(tw({{0.25 * {i}, {a}}}, "
                  f"{paren(e)}) + tp(T2{{{a}, 0.5 * {i}}}, {t.name}));")
        self.set_bound(t, t.bound + 0.5)

    # --- vectors -----------------------------------------------------------
    def s_vecops(self, depth):
        """A block: a std::vector from a range or braces, range and count
        mutations with statically known sizes, folded into a scalar."""
        r = self.rng
        srcs = [v for v in self.vars() if v.array and v.length >= 2]
        self.nlocals += 1
        v, w = f"v{self.nlocals}", f"w{self.nlocals}"
        self.emit("{")
        self.indent += 1

        def rng_of():
            a = r.choice(srcs)
            k = r.randrange(a.length - 1)
            return f"{a.name} + {k}, {a.name} + {a.length}", a.length - k, \
                a.bound

        counters = [c for c in self.vars() if c.is_int]
        if self.loops and counters and self.chance(0.4):
            # A size that differs from one iteration to the next (at least
            # 2: the counters are never negative).
            c = r.choice(counters)
            e = self.dbl(self.limit(self.expr(2)))
            self.emit(f"std::vector<double> {v}(2 + {c.name} % 3, {e.text});")
            size, bound = 2, e.bound
        elif srcs and self.chance(0.6):
            text, size, bound = rng_of()
            self.emit(f"std::vector<double> {v}({text});")
        else:
            es = [self.dbl(self.limit(self.expr(2))) for _ in range(2)]
            self.emit(f"std::vector<double> {v}{{{es[0].text}, {es[1].text}}};")
            size, bound = 2, max(e.bound for e in es)
        other = None  # (size, bound) of w once declared

        def value():
            # A value that may read the vector itself (its adjoint goes
            # back to the element it read, before the size change).
            e = self.dbl(self.limit(self.expr(2)))
            if self.chance(0.4):
                e = self.limit(E(f"{v}[{r.randrange(size)}] * ({e.text})",
                                 bound * e.bound))
            return e

        for _ in range(r.randint(1, 3)):
            # In a loop, a jump out of the block between size changes (the
            # reverse sweep must start the block at the size it left).
            if self.on("loops") and self.loops and (
                    not self.switches or
                    len(self.loops) > self.switches[-1]) and self.chance(0.3):
                self.s_jump(depth)
            ops = ["count", "push", "braces", "fill"] + (
                ["range", "range", "assign"] if srcs else [])
            if size > 1:
                ops.append("erase")
            if other is None and size > 1:
                ops += ["swap", "swap"]
            if self.on("values"):
                ops += ["scaled", "braced"] + (
                    ["whole"] if other is None and size > 1 else [])
            op = r.choice(ops)
            if op == "range":
                text, n, b = rng_of()
                self.emit(f"{v}.insert({v}.begin() + {r.randint(0, size)}, "
                          f"{text});")
                size, bound = size + n, max(bound, b)
            elif op == "assign":
                text, size, bound = rng_of()
                self.emit(f"{v}.assign({text});")
            elif op == "count":
                c = r.randint(1, 2)
                e = value()
                self.emit(f"{v}.insert({v}.begin() + {r.randint(0, size)}, "
                          f"{c}, {e.text});")
                size, bound = size + c, max(bound, e.bound)
            elif op == "braces":
                es = [value() for _ in range(r.randint(1, 3))]
                text = ", ".join(e.text for e in es)
                form = r.choice(["insert", "assign", "="])
                if form == "insert":
                    self.emit(f"{v}.insert({v}.begin() + "
                              f"{r.randint(0, size)}, {{{text}}});")
                    size += len(es)
                else:
                    self.emit(f"{v}.assign({{{text}}});" if form == "assign"
                              else f"{v} = {{{text}}};")
                    size = len(es)
                bound = max([bound] + [e.bound for e in es])
            elif op == "fill":
                c = r.randint(1, 3)
                e = value()
                if self.chance(0.5):
                    self.emit(f"{v}.assign({c}, {e.text});")
                    size = c
                else:
                    self.emit(f"{v}.resize({size + c}, {e.text});")
                    size += c
                bound = max(bound, e.bound)
            elif op == "push":
                e = value()
                self.emit(f"{v}.push_back({e.text});")
                size, bound = size + 1, max(bound, e.bound)
            elif op == "erase":
                self.emit(f"{v}.erase({v}.begin() + {r.randrange(size)});")
                size -= 1
            elif op == "scaled":
                e = self.dbl(self.limit(self.expr(2)))
                self.emit(f"{v} = vscale({v}, std::tanh({e.text}));")
            elif op == "braced":
                # A helper returning braces: {a * b, a - b, 0.5 * b}.
                a, b = value(), value()
                self.emit(f"{v} = vmix({a.text}, {b.text});")
                size = 3
                bound = max(a.bound * b.bound, a.bound + b.bound)
            elif op == "whole":
                # v takes the value of a vector built from its own tail.
                j = r.randrange(size)
                self.emit(f"std::vector<double> {w}({v}.begin() + {j}, "
                          f"{v}.end());")
                self.emit(f"{v} = {w};")
                other = (size - j, bound)
                size = size - j
            else:  # swap with a vector built from v's iterators
                j = r.randrange(size)
                self.emit(f"std::vector<double> {w}({v}.begin() + {j}, "
                          f"{v}.end());")
                self.emit(f"{v}.swap({w});")
                other = (size, bound)
                size = size - j
        t = self.target()
        terms, tb = [], 0.0
        for _ in range(r.randint(2, 3)):
            i = r.randrange(size)
            c = r.choice([0.5, -1.25, 2.0, 0.75])
            if self.chance(0.4):
                j = r.randrange(size)
                terms.append(f"{fmt(c)} * {v}[{i}] * {v}[{j}]")
                tb += abs(c) * bound * bound
            else:
                terms.append(f"{fmt(c)} * {v}[{i}]")
                tb += abs(c) * bound
        if other is not None:
            terms.append(f"{w}[{r.randrange(other[0])}]")
            tb += other[1]
        e = self.limit(E(" + ".join(terms), tb))
        self.emit(f"{t.name} = {e.text};")
        self.set_bound(t, e.bound)
        self.indent -= 1
        self.emit("}")

    # --- maps --------------------------------------------------------------
    def map_term(self):
        """A term of a map lambda's body over el and its bound: tanh calls
        whose value only feeds the derivative (alone, scaled by a literal,
        summed) or is read (a product of two, an argument, under a factor
        of el)."""
        r = self.rng
        c = fmt(r.choice([0.5, -1.25, 2.0, 0.75]))
        arg = r.choice([f"{c} * el", f"el + {c}", "el * el * 0.25", "el"])
        t = f"std::tanh({arg})"
        k = r.randrange(7)
        if k == 0:
            return t, 1.0
        if k == 1:
            return f"{c} * {t}", 2.0
        if k == 2:
            return f"-{t} / 4", 0.25
        if k == 3:
            return f"{t} * std::tanh(el)", 1.0
        if k == 4:
            return f"std::exp(-{t})", 3.0
        if k == 5:
            return f"std::sin({t})", 1.0
        return f"std::tanh(el) * ({t} + el * 0.125)", 1.0 + LIMIT / 8

    def map_body(self):
        """The body of a capture-free lambda of el (one line) and a bound."""
        r = self.rng
        te, b = self.map_term()
        parts, bound = [f"double u = {te};"], b
        for _ in range(r.randint(0, 2)):
            te, b = self.map_term()
            op = r.randrange(4)
            if op == 0:
                parts.append(f"u += {te};")
                bound += b
            elif op == 1:
                parts.append(f"u = u - {te};")
                bound += b
            elif op == 2:
                parts.append("u *= 0.5;")
                bound *= 0.5
            else:
                parts.append(f"if (u > 0.25) u = u + {te};")
                bound += b
        te, b = self.map_term()
        if self.chance(0.5):
            parts.append(f"return u + {te};")
            bound += b
        else:
            parts.append(f"return 2.0 * u - {te};")
            bound = 2 * bound + b
        return " ".join(parts), bound

    def s_map(self, depth):
        """A block: a std::vector of values, sum(map(lambda, v)) with a
        capture-free lambda (forward lowering: dual numbers, value parts of
        calls skipped where nothing reads them), folded into a scalar."""
        r = self.rng
        self.nlocals += 1
        m = f"m{self.nlocals}"
        es = [self.dbl(self.limit(self.expr(2))) for _ in range(r.randint(1, 3))]
        self.emit("{")
        self.indent += 1
        self.emit(f"std::vector<double> {m}{{{', '.join(e.text for e in es)}}};")
        body, bound = self.map_body()
        t = self.target()
        e = self.limit(E(f"grad::sum(grad::map([](double el) {{ {body} }}, {m}))",
                         bound * len(es)))
        self.emit(f"{t.name} = {e.text};")
        self.set_bound(t, e.bound)
        self.indent -= 1
        self.emit("}")

    # --- complex -----------------------------------------------------------
    def complex_in_scope(self, writable=False):
        """std::complex locals in scope; writable: declared at this loop
        depth (a loop body never writes an outer one, so no squashing)."""
        return [v.name[:-len(".real()")] for v in self.vars()
                if v.view and v.name.endswith(".real()") and
                (not writable or v.depth == len(self.loops))]

    def cparts(self, t):
        return self.lookup(f"{t}.real()"), self.lookup(f"{t}.imag()")

    def dbl(self, e):
        """e as a double (<complex>'s operators deduce T from both sides)."""
        return E(f"double({e.text})", e.bound) if e.is_int else e

    def s_complex(self, depth):
        ins = self.complex_in_scope(True)
        k = self.rng.choice(["decl", "decl"] + (
            ["rot", "add", "mul", "set", "exp", "conj", "div"] if ins else []))
        if k == "decl":
            name = self.new_local()
            a = self.dbl(self.limit(self.expr(2)))
            b = self.dbl(self.limit(self.expr(2)))
            # (`t(double(i), ...)` would declare a function: the most
            # vexing parse; a cast in parentheses is an expression.)
            at, bt = (f"({e.text})" if e.text.startswith("double(") else e.text
                      for e in (a, b))
            self.emit(f"std::complex<double> {name}({at}, {bt});")
            d = len(self.loops)
            self.scopes[-1] += [Var(f"{name}.real()", a.bound, False,
                                    view=True, depth=d),
                                Var(f"{name}.imag()", b.bound, False,
                                    view=True, depth=d)]
            return
        t = self.rng.choice(ins)
        re, im = self.cparts(t)
        m = re.bound + im.bound
        others = self.complex_in_scope()
        if k == "rot":
            e = self.dbl(self.expr(2))
            self.emit(f"{t} *= std::polar(1.0, {e.text});")
            re.bound = im.bound = m
        elif k == "add":
            a = self.dbl(self.limit(self.expr(2)))
            b = self.dbl(self.limit(self.expr(2)))
            self.emit(f"{t} += std::complex<double>({a.text}, {b.text});")
            re.bound += a.bound
            im.bound += b.bound
        elif k in ("mul", "conj"):
            u = self.rng.choice(others)
            ur, ui = self.cparts(u)
            e = self.dbl(self.limit(self.expr(1)))
            if k == "mul":
                self.emit(f"{t} = {t} * {u} + {e.text};")
                p = m * (ur.bound + ui.bound)
                re.bound, im.bound = p + e.bound, p
            else:
                self.emit(f"{t} = std::conj({t}) - {e.text} * {u};")
                re.bound = re.bound + e.bound * ur.bound
                im.bound = im.bound + e.bound * ui.bound
        elif k == "div":
            text, lo = self.denom(1)
            self.emit(f"{t} /= std::complex<double>({text}, {t}.imag());")
            re.bound = im.bound = m / lo
        elif k == "set":
            part = self.rng.choice(["real", "imag"])
            e = self.dbl(self.limit(self.expr(2)))
            self.emit(f"{t}.{part}({e.text});")
            (re if part == "real" else im).bound = e.bound
        else:
            s = max(1.0, re.bound / 2)
            self.emit(f"{t} = std::exp({t} / {fmt(s)});")
            re.bound = im.bound = math.exp(re.bound / s)
        if re.bound + im.bound > LIMIT / 2:
            self.emit(f"{t} /= 1.0 + std::abs({t}) / 8.0;")
            re.bound = im.bound = 8.0

    # --- shaped -------------------------------------------------------------
    def s_shaped(self, depth):
        """`M2 t{n, {}};` and its four elements as scalar locals, each
        reached through a member function that reads the row length."""
        self.matrix_cells("M2 {t}{{{n}, {{}}}};",
                          ["{t}.at(0, 0)", "{t}(0, 1)", "{t}.row(1)[0]",
                           "{t}.at(1, 1)"], False)

    def matrix_cells(self, decl, cells, noaddr, kind=None):
        """Declares a matrix object (decl with {t} and {n}, its row length:
        2, 3, or changing with a loop counter) and makes four of its cells
        scalar locals (noaddr: never bound to pointers or references)."""
        ints = [v.name for v in self.vars() if v.is_int and not v.array]
        n = self.rng.choice(["2", "3"] +
                            ([f"2 + {self.rng.choice(ints)} % 2"] * 2
                             if ints else []))
        name = self.new_local()
        self.emit(decl.format(t=name, n=n))
        for cell in cells:
            v = Var(cell.format(t=name), 0.0)
            v.call_cell = name  # (its object)
            v.noaddr = noaddr
            v.owner_kind = kind
            self.scopes[-1].append(v)

    def braced_rows(self, ctype, array_rows):
        """`ctype t{{e, f}, {f, 0.5 * e}};`: two rows from braces (a vector of
        vectors, or with array_rows of std::array), four cells as locals."""
        es = [self.dbl(self.limit(self.expr(2))) for _ in range(2)]
        name = self.new_local()
        self.emit(f"{ctype} {name}"
                  f"{{{{{es[0].text}, {es[1].text}}}, "
                  f"{{{es[1].text}, 0.5 * {es[0].text}}}}};")
        back = (0.5 if array_rows else 1.0) * es[0].bound
        for cell, b in (("{t}[0][0]", es[0].bound),
                        ("{t}[0][1]", es[1].bound),
                        ("{t}[1][0]", es[1].bound),
                        ("{t}[1].back()", back)):
            v = Var(cell.format(t=name), b)
            v.call_cell = name
            v.noaddr = True
            v.owner_kind = "rows"
            v.array_rows = array_rows
            self.scopes[-1].append(v)

    # --- owners -------------------------------------------------------------
    def s_owner(self, depth):
        """`MV t(n);`: a matrix keeping its elements in a std::vector member;
        four cells as scalar locals, through accessors that read the row
        length and by indexing the member."""
        rows = sorted({v.call_cell for v in self.vars()
                       if getattr(v, "owner_kind", None) == "rows"})
        if self.on("rowrefs") and rows and self.chance(0.5):
            # A range-based for binding a reference to each row (two rows,
            # of 2 or 3 numbers): read, written, or walked by value.
            src = self.rng.choice(rows)
            r = self.new_local()
            arrays = any(getattr(v, "array_rows", False) and
                         v.call_cell == src for v in self.vars())
            kind = self.rng.choice(["read", "write", "inner"] +
                                   (["copy"] if arrays else []))
            if kind == "copy":
                # std::array rows by value: copies, written in the body.
                t = self.target()
                self.emit(f"for (auto {r} : {src}) {{")
                self.emit(f"  {r}[0] = 0.5 * std::tanh({r}[0] + {t.name});")
                self.emit(f"  {t.name} += {r}[0] * {r}[1] / (1.0 + {r}[1] * "
                          f"{r}[1]);")
                self.emit("}")
                self.set_bound(t, t.bound + 0.5)
                return
            if kind == "write":
                e = self.dbl(self.limit(self.expr(2)))
                self.emit(f"for (auto &{r} : {src})")
                self.emit(f"  {r}[0] = 0.5 * std::tanh({r}[0] * "
                          f"({e.text}));")
                for cell in (f"{src}[0][0]", f"{src}[1][0]"):
                    v = self.lookup(cell)
                    if v is not None:
                        self.set_bound(v, 0.5)
                return
            t = self.target()
            if kind == "read":
                self.emit(f"for (const auto &{r} : {src})")
                self.emit(f"  {t.name} += 0.5 * std::tanh({r}[0] * "
                          f"{t.name} + {r}.back());")
                self.set_bound(t, t.bound + 1.0)
                return
            x = self.new_local()
            self.emit(f"for (const auto &{r} : {src})")
            self.emit(f"  for (double {x} : {r})")
            self.emit(f"    {t.name} += 0.25 * std::tanh({x} + {t.name});")
            self.set_bound(t, t.bound + 1.5)
            return
        mvs = sorted({v.call_cell for v in self.vars()
                      if getattr(v, "owner_kind", None) == "MV"})
        if self.on("ownermethods") and mvs and self.chance(0.7):
            # Member functions of an MV in scope.
            src = self.rng.choice(mvs)
            cells = ["{t}.at(0, 0)", "{t}(0, 1)", "{t}.a[{t}.n]",
                     "{t}.at(1, 1)"]
            where = [(0, 0), (0, 1), (1, 0), (1, 1)]
            kind = self.rng.choice(["set", "add", "damp", "read"])
            if kind == "read":
                t = self.target()
                k = self.rng.randrange(4)
                e = self.dbl(self.limit(self.expr(2)))
                # (wget's partial for its factor reads the element: kept.)
                if self.chance(0.5):
                    i, j = where[k]
                    read = f"{src}.wget({i}, {j}, {paren(e)})"
                else:
                    read = f"{src}.get{where[k]} * {paren(e)}"
                self.emit(f"{t.name} += 0.5 * std::tanh({read}) + "
                          f"{src}.energy();")
                self.set_bound(t, t.bound + 0.75)
                return
            e = self.dbl(self.limit(self.expr(2)))
            if kind == "damp":
                self.emit(f"{src}.damp({e.text});")
                for cell in cells:
                    self.set_bound(self.lookup(cell.format(t=src)), 0.5)
                return
            k = self.rng.randrange(4)
            v = self.lookup(cells[k].format(t=src))
            i, j = where[k]
            self.emit(f"{src}.{kind}({i}, {j}, {e.text});")
            self.set_bound(v, e.bound + (v.bound if kind == "add" else 0))
            return
        if mvs and self.chance(0.5):
            # A copy of one in scope: its cells start as the original's.
            src = self.rng.choice(mvs)
            name = self.new_local()
            self.emit(f"MV {name} = {src};")
            for cell in ("{t}.at(0, 0)", "{t}(0, 1)", "{t}.a[{t}.n]",
                         "{t}.at(1, 1)"):
                b = self.lookup(cell.format(t=src)).bound
                v = Var(cell.format(t=name), b)
                v.call_cell = name
                v.noaddr = True
                v.owner_kind = "MV"
                self.scopes[-1].append(v)
            return
        if self.on("rowptrs") and mvs and self.chance(0.4):
            # Pointers and references into the member's elements.
            src = self.rng.choice(mvs)
            cells = ["{t}.at(0, 0)", "{t}(0, 1)", "{t}.a[{t}.n]",
                     "{t}.at(1, 1)"]
            e = self.dbl(self.limit(self.expr(2)))
            if self.chance(0.4):
                c = self.new_local()
                self.emit(f"for (double &{c} : {src}.a)")
                self.emit(f"  {c} = 0.5 * std::tanh({c} + {paren(e)});")
                for cell in cells:
                    self.set_bound(self.lookup(cell.format(t=src)), 0.5)
                return
            # A pointer to a row (`t.a.data()`, `&t.a[t.n]`), then an alias
            # of it one element on; written through both, read into a
            # scalar.
            row = self.rng.choice([0, 1])
            r, q = self.new_local(), self.new_local()
            base = f"{src}.a.data()" if row == 0 else f"&{src}.a[{src}.n]"
            first = self.lookup(cells[2 * row].format(t=src))
            second = self.lookup(cells[2 * row + 1].format(t=src))
            self.emit(f"double *{r} = {base};")
            self.emit(f"double *{q} = {r} + 1;")
            self.emit(f"*{q} = 0.5 * std::tanh({r}[0] * {q}[0] + "
                      f"{paren(e)});")
            self.set_bound(second, 0.5)
            self.emit(f"{r}[0] *= {q}[0];")
            self.set_bound(first, first.bound * 0.5)
            t = self.target()
            self.emit(f"{t.name} += 0.5 * std::tanh({r}[0] - {q}[0]);")
            self.set_bound(t, t.bound + 0.5)
            return
        if self.on("values") and mvs and self.chance(0.25):
            # By value to a helper that writes its copy.
            src = self.rng.choice(mvs)
            b = sum(self.lookup(c.format(t=src)).bound
                    for c in ("{t}.at(0, 0)", "{t}(0, 1)", "{t}.a[{t}.n]",
                              "{t}.at(1, 1)"))
            t = self.target()
            self.emit(f"{t.name} = mvsum({src});")
            self.set_bound(t, b)
            return
        if self.on("values") and self.chance(0.3):
            # Returned by a helper; into a new MV, or assigned whole to one
            # in scope (its row length may change).
            es = [self.dbl(self.limit(self.expr(2))) for _ in range(2)]
            ba, bb = es[0].bound, es[1].bound
            cells = [("{t}.at(0, 0)", ba), ("{t}(0, 1)", 0.5 * (ba + bb)),
                     ("{t}.a[{t}.n]", bb), ("{t}.at(1, 1)", ba + bb)]
            ints = [v.name for v in self.vars() if v.is_int and not v.array]
            n = self.rng.choice(["2", "3"] +
                                ([f"2 + {self.rng.choice(ints)} % 2"] * 2
                                 if ints else []))
            if mvs and self.chance(0.4):
                dst = self.rng.choice(mvs)
                self.emit(f"{dst} = mvmake({n}, {es[0].text}, "
                          f"{es[1].text});")
                for cell, b in cells:
                    self.set_bound(self.lookup(cell.format(t=dst)), b)
                return
            name = self.new_local()
            self.emit(f"MV {name} = mvmake({n}, {es[0].text}, {es[1].text});")
            for cell, b in cells:
                v = Var(cell.format(t=name), b)
                v.call_cell = name
                v.noaddr = True
                v.owner_kind = "MV"
                self.scopes[-1].append(v)
            return
        if self.on("rowrefs") and self.chance(0.4):
            self.braced_rows("std::vector<std::array<double, 2>>", True)
            return
        if self.on("values") and self.chance(0.2):
            self.braced_rows("std::vector<std::vector<double>>", False)
            return
        rows = sorted({v.call_cell for v in self.vars()
                       if getattr(v, "owner_kind", None) == "rows"})
        if self.on("values") and rows and self.chance(0.6):
            # A range-based for over one row, by value: tanh keeps the sum
            # bounded whatever the row holds.
            src = self.rng.choice(rows)
            t = self.target()
            e = self.new_local()
            self.emit(f"for (double {e} : {src}[{self.rng.choice('01')}])")
            self.emit(f"  {t.name} += 0.5 * std::tanh({e} * {t.name});")
            self.set_bound(t, t.bound + 1.5)
            return
        if self.chance(0.3):
            # A vector of rows.
            self.matrix_cells(
                "std::vector<std::vector<double>> {t}(2, "
                "std::vector<double>({n}));",
                ["{t}[0][0]", "{t}[0][1]", "{t}[1][0]", "{t}[1].back()"],
                True, "rows")
            return
        self.matrix_cells("MV {t}({n});",
                          ["{t}.at(0, 0)", "{t}(0, 1)", "{t}.a[{t}.n]",
                           "{t}.at(1, 1)"], True, "MV")

    # --- intmembers ---------------------------------------------------------
    def s_kstruct(self, depth):
        """`K3 t{e, n, e};`: a struct whose integer member k (1..3, or from a
        loop counter) is read in arithmetic like an int local; its floating
        members are scalar locals. With a K3 in scope, sometimes `t.k = n;`
        instead."""
        ints = [v.name for v in self.vars() if v.is_int and not v.array
                and not getattr(v, "kobj", None)]
        n = self.rng.choice(["1", "2", "3"] +
                            ([f"1 + {self.rng.choice(ints)} % 3"] * 2
                             if ints else []))
        ks = [v for v in self.vars() if getattr(v, "kobj", None)]
        if ks and self.chance(0.3):
            self.emit(f"{self.rng.choice(ks).name} = {n};")
            return
        es = []
        for _ in range(2):
            e = self.limit(self.expr(2))
            es.append(E(f"double({e.text})", e.bound) if e.is_int else e)
        name = self.new_local()
        self.emit(f"K3 {name}{{{es[0].text}, {n}, {es[1].text}}};")
        # (Not a V3 / C3 / P3 of an earlier function with the same name.)
        self.struct_type[name] = "K3"
        self.scopes[-1].append(Var(f"{name}.x", es[0].bound))
        self.scopes[-1].append(Var(f"{name}.y", es[1].bound))
        k = Var(f"{name}.k", 3, False, is_int=True)
        k.kobj = name
        self.scopes[-1].append(k)

    # --- structs -----------------------------------------------------------
    def structs_in_scope(self, ty=None):
        return [v.name[:-2] for v in self.vars()
                if v.scalar and v.name.endswith(".x") and
                self.struct_type.get(v.name[:-2]) in ((ty,) if ty else
                                                      ("V3", "C3", "P3"))]

    def s_struct(self, depth):
        ins = self.structs_in_scope()
        kind = self.rng.choice(["brace", "brace", "ctor", "empty", "temp"] +
                               (["copy", "scale"] if ins else []) +
                               (["plus"] if self.on("structops") and
                                self.structs_in_scope("V3") else []) +
                               (["bind"] if self.on("structops") and ins
                                else []) +
                               (["pctor", "pctor", "ptemp"]
                                if self.on("ctors") else []) +
                               (["dctor", "dctor"]
                                if self.on("delegating") else []) +
                               (["step", "step"]
                                if self.on("values") and ins else []))
        name = self.new_local()
        if kind == "bind":
            # A structured binding of a copy: `auto [a, b, c] = u;`; the
            # names are scalar locals (writes change the copy only).
            src = self.rng.choice(ins)
            names = [name, self.new_local(), self.new_local()]
            self.emit(f"auto [{', '.join(names)}] = {src};")
            for n, m in zip(names, "xyz"):
                self.scopes[-1].append(
                    Var(n, self.lookup(f"{src}.{m}").bound))
            return
        if kind == "ptemp":
            # A member of a temporary built by P3's computing constructor,
            # or a method whose local lambda captures `this`.
            es = [self.squash(self.limit(self.expr(2)), 2.0)
                  for _ in range(3)]
            args = ", ".join(x.text for x in es)
            if self.chance(0.5):
                e = E(f"P3({args}).z", 10.0)
            else:
                u = self.squash(self.limit(self.expr(2)), 2.0)
                e = self.squash(E(f"P3({args}).lam({u.text})",
                                  4.0 * 2.0 + 4.0 + 10.0), LIMIT / 2)
            self.emit(f"double {name} = {e.text};")
            self.scopes[-1].append(Var(name, e.bound))
            return
        if kind == "dctor":
            # C3's delegating constructor: x = s, y = 0.5 * s, z = 1.
            e = self.squash(self.limit(self.expr(2)), LIMIT / 2)
            self.emit(f"C3 {name}({e.text});")
            self.struct_type[name] = "C3"
            for m, b in zip("xyz", (e.bound, 0.5 * e.bound, 1.0)):
                self.scopes[-1].append(Var(f"{name}.{m}", b))
            return
        if kind == "pctor":
            # x = a * b, y = b - c, z = c * x + y / 2 with |a|, |b|, |c| <= 2.
            es = [self.squash(self.limit(self.expr(2)), 2.0)
                  for _ in range(3)]
            self.emit(f"P3 {name}({', '.join(x.text for x in es)});")
            self.struct_type[name] = "P3"
            for m, b in zip("xyz", (4.0, 4.0, 10.0)):
                self.scopes[-1].append(Var(f"{name}.{m}", b))
            return
        if kind == "temp":
            # A member call on a temporary: `double t = C3(e, e, e).sum();`
            es = [self.limit(self.expr(2)) for _ in range(3)]
            e = self.limit(E(f"C3({', '.join(x.text for x in es)}).sum()",
                             sum(x.bound for x in es)))
            self.emit(f"double {name} = {e.text};")
            self.scopes[-1].append(Var(name, e.bound))
            return
        if kind in ("brace", "ctor"):
            es = []
            for _ in range(3):
                e = self.limit(self.expr(2))
                es.append(E(f"double({e.text})", e.bound) if e.is_int else e)
            args = ", ".join(e.text for e in es)
            ty = "V3" if kind == "brace" else "C3"
            self.emit(f"V3 {name}{{{args}}};" if ty == "V3"
                      else f"C3 {name}({args});")
            bounds = [e.bound for e in es]
        elif kind == "plus":
            # A free operator on structs: `V3 t = u + w;`.
            vs = self.structs_in_scope("V3")
            a, b = self.rng.choice(vs), self.rng.choice(vs)
            ty = "V3"
            self.emit(f"V3 {name} = {a} + {b};")
            bounds = [self.lookup(f"{a}.{m}").bound +
                      self.lookup(f"{b}.{m}").bound for m in "xyz"]
            if max(bounds) > LIMIT:
                self.emit(f"{name}.x = {self.squash(E(f'{name}.x', bounds[0]), LIMIT / 2).text};")
                self.emit(f"{name}.y = {self.squash(E(f'{name}.y', bounds[1]), LIMIT / 2).text};")
                self.emit(f"{name}.z = {self.squash(E(f'{name}.z', bounds[2]), LIMIT / 2).text};")
                bounds = [min(b, LIMIT / 2) for b in bounds]
        elif kind == "empty":
            ty = "V3"
            self.emit(f"V3 {name}{{}};")
            bounds = [0.0, 0.0, 0.0]
        else:
            src = self.rng.choice(ins)
            ty = self.struct_type[src]
            sb = [self.lookup(f"{src}.{m}").bound for m in "xyz"]
            if kind == "copy":
                self.emit(f"{ty} {name} = {src};")
                bounds = sb
            elif kind == "step":
                # A helper that writes through its reference parameter and
                # returns a struct (`V3 t = sstep(u, e);`).
                e = self.squash(self.limit(self.expr(2)), 1.0)
                self.emit(f"{ty} {name} = sstep({src}, {e.text});")
                self.set_bound(self.lookup(f"{src}.x"), sb[0] * e.bound)
                bounds = [sb[0] * e.bound, sb[1] + e.bound, sb[2]]
            else:
                e = self.squash(self.limit(self.expr(2)), 1.0)
                self.emit(f"{ty} {name} = sscale({src}, {e.text});")
                bounds = [b * e.bound for b in sb]
        self.struct_type[name] = ty
        for m, b in zip("xyz", bounds):
            self.scopes[-1].append(Var(f"{name}.{m}", b))

    def s_structcall(self, depth):
        """Non-const member calls: `t.scale(e)`, `t += u` (C3's member
        operator+= returning *this)."""
        ins = self.structs_in_scope("C3")
        t = self.rng.choice(ins)
        xs = [self.lookup(f"{t}.{m}") for m in "xyz"]
        if not xs[0].assignable:
            return
        bs = [v.bound for v in xs]
        if self.chance(0.5):
            e = self.squash(self.limit(self.expr(2)), 1.0)
            self.emit(f"{t}.scale({e.text});")
            nb = [bs[0] * e.bound, bs[1] + e.bound * bs[2], bs[2]]
        else:
            u = self.rng.choice(ins)
            us = [self.lookup(f"{u}.{m}").bound for m in "xyz"]
            self.emit(f"{t} += {u};")
            nb = [a + b for a, b in zip(bs, us)]
        for v, b in zip(xs, nb):
            self.set_bound(v, b)
        for v in xs:
            if v.bound > LIMIT / 2:
                q = self.squash(E(v.name, v.bound), LIMIT / 2)
                self.emit(f"{v.name} = {q.text};")
                self.set_bound(v, q.bound)

    def s_structassign(self, depth):
        ty = self.rng.choice(["V3", "C3"])
        ins = self.structs_in_scope(ty)
        if len(ins) < 2:
            return
        dst, src = self.rng.sample(ins, 2)
        if not self.lookup(f"{dst}.x").assignable:
            return
        self.emit(f"{dst} = {src};")
        for m in "xyz":
            self.set_bound(self.lookup(f"{dst}.{m}"),
                           self.lookup(f"{src}.{m}").bound)

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
                                if v.assignable and v.scalar])

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

    def s_switch(self, depth):
        """`switch` on a selector in 0..3 (two conditions): case groups of
        one or two values, maybe `default`, each a braced block followed by
        `break;` or ending with it (the forms reverse mode lowers); the bounds are the
        maximum over the groups (and over no group taken)."""
        r = self.rng
        sel = (f"(({self.cond(1)}) ? 1 : 0) + (({self.cond(1)}) ? 2 : 0)")
        values = [0, 1, 2, 3]
        r.shuffle(values)
        groups = []
        while values and len(groups) < 3:
            k = r.randint(1, 2)
            groups.append(values[:k])
            values = values[k:]
        default = r.randint(-1, len(groups) - 1)
        self.emit(f"switch ({sel}) {{")
        outer = self.vars()
        before = [v.bound for v in outer]
        ends = []
        self.switches.append(len(self.loops))
        for g, vals in enumerate(groups):
            for v in vals:
                self.emit(f"case {v}:")
            if g == default:
                self.emit("default:")
            # fallthrough: a group but the last may run on into the next
            # one; that one then starts from either group's bounds.
            fall = (self.on("fallthrough") and g + 1 < len(groups) and
                    self.chance(0.4))
            # The break after the block or as its last statement.
            inner = not fall and self.chance(0.5)
            self.emit("{")
            if self.on("switchbreak") and self.chance(0.6):
                # Statements, a break from inside an if, more statements:
                # the switch is left with the bounds at the break.
                _, mid = self.block(depth, r.randint(1, 2))
                for v, m in zip(outer, mid):
                    v.bound = m
                if self.chance(0.5):
                    self.emit(f"  if ({self.cond(2)}) break;")
                    ends.append(mid)
                else:
                    self.emit(f"  if ({self.cond(2)}) {{")
                    _, taken = self.block(depth, r.randint(1, 2))
                    self.emit("    break;")
                    self.emit("  }")
                    ends.append(taken)
            _, after = self.block(depth, r.randint(1, 3))
            if inner:
                self.emit("  break;")
            self.emit("}")
            if fall:
                if self.chance(0.5):
                    self.emit("[[fallthrough]];")
                for v, b, a in zip(outer, before, after):
                    v.bound = max(b, a)
            else:
                if not inner:
                    self.emit("break;")
                ends.append(after)
                for v, b in zip(outer, before):
                    v.bound = b
        self.switches.pop()
        self.emit("}")
        if default < 0 or values:
            ends.append(before)
        for i, v in enumerate(outer):
            v.bound = max(e[i] for e in ends)

    # --- selectors: `(c ? a : b) op= e`, references to std::max ---------
    def doubles(self):
        """Assignable double scalars (not loop counters)."""
        return [v for v in self.vars()
                if v.assignable and v.scalar and not v.is_int]

    def pure_expr(self, depth):
        """An expression without calls of helpers or pointer reads (the
        right side of an assignment to `?:` must not write memory)."""
        saved = self.f
        self.f = saved - {"calls", "outargs", "pointers", "complex"}
        try:
            return self.limit(self.expr(depth))
        finally:
            self.f = saved

    def sel_write(self, base, *names):
        """`op e` for a write of a variable bounded by `base` that stays
        within LIMIT: (op, text, bound of e)."""
        e = self.pure_expr(2)
        op = self.rng.choice(["=", "+=", "-=", "*="])
        if op == "*=":
            e = self.squash(e, 1.0)
        elif op != "=" and base + e.bound > LIMIT:
            op = "="
        if op == "=" and e.text in names:   # no `x = x` (-Wself-assign)
            return "*=", "0.5", 0.5
        return op, e.text, e.bound

    @staticmethod
    def sel_after(op, vb, eb):
        """The bound of a variable bounded by vb after `op e` (|e| <= eb;
        for *=, eb <= 1)."""
        return {"=": eb, "*=": vb}.get(op, vb + eb)

    def s_condassign(self, depth):
        a, b = self.rng.sample(self.doubles(), 2)
        op, text, eb = self.sel_write(max(a.bound, b.bound), a.name, b.name)
        self.emit(f"({self.cond(1)} ? {a.name} : {b.name}) {op} {text};")
        # Either may be the one written.
        for v in (a, b):
            self.set_bound(v, max(v.bound, self.sel_after(op, v.bound, eb)))

    def s_selref(self, depth):
        a, b = self.rng.sample(self.doubles(), 2)
        r = self.new_local()
        kind = self.rng.choice(["max", "min", "cond", "comp"])
        init = {"max": f"std::max({a.name}, {b.name})",
                "min": f"std::min({a.name}, {b.name})",
                "cond": f"{self.cond(1)} ? {a.name} : {b.name}",
                "comp": (f"std::min({a.name}, {b.name}, [](double u, double v)"
                         f" {{ return u * u < v * v; }})")}[kind]
        self.emit("{")
        self.indent += 1
        self.emit(f"const double &{r} = {init};")
        w = self.rng.choice([a, b])
        op, text, eb = self.sel_write(w.bound, w.name)
        self.emit(f"{w.name} {op} {text};")
        self.set_bound(w, self.sel_after(op, w.bound, eb))
        t = self.rng.choice(self.doubles())
        rb = max(a.bound, b.bound)
        c = self.rng.choice([0.5, 0.25, 1.5])
        if t.bound + c * rb <= LIMIT:
            self.emit(f"{t.name} += {fmt(c)} * {r};")
            self.set_bound(t, t.bound + c * rb)
        else:
            self.emit(f"{t.name} = {fmt(c)} * {r};")
            self.set_bound(t, c * rb)
        self.indent -= 1
        self.emit("}")

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
        outer = [v for v in self.vars() if v.assignable and v.scalar]
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
        if self.void:
            self.emit(f"if ({c})")
            self.emit("  return;")
            return
        e = self.limit(self.expr(2))
        vs = [v for v in self.vars() if v.scalar and not v.is_int]
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
        self.scopes[-1].append(Var(name, bound, True, True,
                                   depth=len(self.loops)))

    def s_scratch(self, depth):
        """At the top level: scratch arrays filled first in every iteration
        of a counted loop, then read (also in a triangle, as GMM's Qxc) and
        folded into an accumulator: loops whose iterations the plugin may
        recompute before their reverse instead of recording them."""
        r = self.rng
        self.nlocals += 1
        n = self.nlocals
        s, q, acc, u = f"s{n}", f"q{n}", f"acc{n}", f"u{n}"
        i, c, a, b = f"i{n}", f"c{n}", f"a{n}", f"b{n}"
        trips = r.randint(1, 4)
        self.no_calls = True
        if r.random() < 0.4:
            self.emit(f"std::vector<double> {s}(4), {q}(4);")
            self.emit(f"double {acc} = 0;")
        else:
            self.emit(f"double {s}[4], {q}[4], {acc} = 0;")
        self.emit(f"for (int {i} = 0; {i} < {trips}; ++{i}) {{")
        self.indent += 1
        self.scopes.append([Var(i, trips, False, is_int=True)])
        # (Nothing in the body may be written by the generator's other
        # statements: only expressions are drawn here.)
        self.emit(f"for (int {c} = 0; {c} < 4; ++{c})")
        self.scopes.append([Var(c, 4, False, is_int=True)])
        e1 = self.limit(self.expr(1))
        self.emit(f"  {s}[{c}] = {e1.text};")
        e2 = self.limit(self.expr(1))
        self.scopes.pop()
        sb = max(e1.bound, 1e-9)
        self.emit(f"for (int {c} = 0; {c} < 4; ++{c})")
        self.emit(f"  {q}[{c}] = {s}[{c}] * {paren(e2)};")
        qb = sb * e2.bound
        if r.random() < 0.6:
            k = r.choice(["0.25", "0.125"])
            self.emit(f"for (int {a} = 0; {a} < 4; ++{a})")
            self.emit(f"  for (int {b} = {a} + 1; {b} < 4; ++{b})")
            self.emit(f"    {q}[{b}] = {q}[{b}] + {k} * {s}[{a}] * {s}[{b}];")
            qb += 3 * float(k) * sb * sb
        e3 = self.limit(self.expr(1))
        self.emit(f"double {u} = 0;")
        self.emit(f"for (int {c} = 0; {c} < 4; ++{c})")
        self.emit(f"  {u} += {q}[{c}] * {q}[{c}] * {paren(e3)};")
        ub = 4 * qb * qb * e3.bound
        if r.random() < 0.4:
            self.emit(f"if ({s}[1] > {s}[2])")
            self.emit(f"  {u} += {s}[0] * {q}[3];")
            ub += sb * qb
        step = self.limit(E(u, ub))
        if r.random() < 0.5:
            self.emit(f"{acc} += {step.text};")
        else:
            self.emit(f"{acc} -= {step.text};")
        self.scopes.pop()
        self.indent -= 1
        self.emit("}")
        self.scopes[-1].append(Var(acc, trips * step.bound))
        self.no_calls = False

    def s_intalias(self, depth):
        """An integer local changed through an alias (`int &r = j`, `int *p
        = &j`, a `[&]` lambda, a helper taking `int *` or `int &`) inside a
        counted loop, read directly, through a `const int &` and through
        the alias, as an index of a local array (read and `+=`, the sums
        the plugin may keep in a local) and as a factor; also an index walk
        through a pointer into an int array."""
        r = self.rng
        self.nlocals += 1
        n = self.nlocals
        h, j, acc, k, a = f"ha{n}", f"j{n}", f"acc{n}", f"k{n}", f"r{n}"
        trips = r.randint(1, 5)
        self.no_calls = True
        es = [self.limit(self.expr(1)) for _ in range(4)]
        hb = max(max(e.bound for e in es), 1e-9)
        if r.random() < 0.35:
            self.emit(f"std::vector<double> {h}(4);")
        else:
            self.emit(f"double {h}[4];")
        for i_, e in enumerate(es):
            self.emit(f"{h}[{i_}] = {e.text};")
        j0 = r.randint(0, 3)
        self.emit(f"int {j} = {j0};")
        how = r.choice(["ref", "ptr", "lambda", "helper", "helperref",
                        "walk"])
        if how == "ref":
            self.emit(f"int &{a} = {j};")
            steps = [(f"++{a};", 1), (f"{a} += 2;", 2), (f"{a}++;", 1)]
        elif how == "ptr":
            self.emit(f"int *{a} = &{j};")
            steps = [(f"++*{a};", 1), (f"*{a} += 2;", 2), (f"(*{a})++;", 1)]
        elif how == "lambda":
            s_ = r.randint(1, 2)
            self.emit(f"auto {a} = [&] {{ {j} += {s_}; }};")
            steps = [(f"{a}();", s_)]
        elif how == "helper":
            steps = [(f"bump_int(&{j}, 1);", 1), (f"bump_int(&{j}, 2);", 2)]
        elif how == "helperref":
            steps = [(f"bump_ref({j});", 1)]
        else:
            self.emit(f"const int perm{n}[6] = {{2, 0, 3, 1, 1, 2}};")
            self.emit(f"const int *{a} = perm{n};")
            steps = []
        cref = None
        if how != "walk" and r.random() < 0.5:
            cref = f"c{n}"
            self.emit(f"const int &{cref} = {j};")
        self.emit(f"double {acc} = 0;")
        self.emit(f"for (int {k} = 0; {k} < {trips}; ++{k}) {{")
        self.indent += 1
        self.scopes.append([Var(k, trips, False, is_int=True)])
        # (At most 5 statements change j, by at most 2 each.)
        jb = j0 + (0 if how == "walk" else 10 * trips)
        idx = (f"{j} % 4" if how != "walk" else f"*{a}")
        accb = 0.0
        hgrow = 0.0
        body = []
        for _ in range(r.randint(2, 4)):
            kind = r.choice(["read", "read", "sum", "sum", "factor", "step",
                             "step", "cstep", "kidx"])
            if how == "walk" and kind in ("step", "cstep", "factor"):
                kind = "read"
            if kind == "read":
                e = self.squash(self.expr(1), 2.0)
                body.append(f"{acc} += {h}[{idx}] * {paren(e)};")
                accb += (hb + hgrow) * e.bound
            elif kind == "kidx":
                body.append(f"{acc} += 0.5 * {h}[({idx} + {k}) % 4];")
                accb += 0.5 * (hb + hgrow)
            elif kind == "sum":
                e = self.squash(self.expr(1), 1.0)
                body.append(f"{h}[{idx}] += 0.25 * {paren(e)};")
                hgrow += 0.25 * e.bound * trips
            elif kind == "factor":
                e = self.squash(self.expr(1), 1.0)
                f = cref or (f"*{a}" if how == "ptr" else
                             a if how == "ref" else j)
                body.append(f"{acc} += 0.125 * {f} * {paren(e)};")
                accb += 0.125 * jb * e.bound
            elif kind == "step":
                st, _ = r.choice(steps)
                body.append(st)
            else:
                st, _ = r.choice(steps)
                c = self.cond(1)
                body.append(f"if ({c})")
                body.append(f"  {st}")
        if how == "walk":
            body.append(f"{a} = perm{n} + ({k} + 1) % 6;")
        elif not any(st in body for st, _ in steps):
            body.append(r.choice(steps)[0])
        for line in body:
            self.emit(line)
        self.scopes.pop()
        self.indent -= 1
        self.emit("}")
        accb *= trips
        # After the loop: the final index and the alias read once more.
        tail = f"{h}[{idx}]"
        accb += hb + hgrow
        if cref:
            tail += f" + 0.0625 * {cref}"
            accb += 0.0625 * jb
        self.emit(f"{acc} += {tail};")
        self.scopes[-1].append(Var(acc, max(accb, 1e-9), depth=len(self.loops)))
        self.scopes[-1].append(Var(j, jb if how != "walk" else j0, False,
                                   is_int=True))
        self.no_calls = False

    def s_elemwrite(self, depth):
        # Writes keep the array's bound, so they are safe inside loops.
        a = self.rng.choice([v for v in self.vars() if v.array and v.assignable])
        # (An array still all zeros, `= {}`, keeps zeros: bound 0.)
        e = self.squash(self.expr(2), a.bound) if a.bound > 0 else E("0.0", 0)
        self.emit(f"{a.name}[{self.index(a.length)}] = {e.text};")

    # --- memory: pointers, outargs, sidefx, outparams -----------------------
    # Every write into memory goes through `wrote`: a scalar gets the new
    # bound (set_bound, so loops squash it), an array keeps one bound for
    # all its elements, which may only grow where the array was declared
    # (not inside a loop nested deeper), so loop bodies keep it invariant.
    def mem_arrays(self):
        """Memory features that need arrays to point into."""
        return self.on("pointers") or self.on("outargs")

    def can_grow(self, root):
        return not root.array or root.depth == len(self.loops)

    def cap(self, root):
        return LIMIT if self.can_grow(root) else root.bound

    def wrote(self, root, b):
        if root.array:
            assert b <= self.cap(root) + 1e-9, (root.name, b, self.cap(root))
            root.bound = max(root.bound, b)
        else:
            assert b <= LIMIT + 1e-9, (root.name, b)
            self.set_bound(root, b)

    def hide(self, *roots):
        """Context: expressions must not read these roots (side effects)."""
        gen = self

        class Hide:
            def __enter__(self):
                self.saved = set(gen.hidden)
                gen.hidden |= {id(r) for r in roots}
                # The other elements of a shaped object: the plugin sees
                # one object.
                objs = {getattr(r, "call_cell", None) for r in roots} - {None}
                if objs:
                    gen.hidden |= {id(v) for v in gen.vars()
                                   if getattr(v, "call_cell", None) in objs}

            def __exit__(self, *a):
                gen.hidden = self.saved
        return Hide()

    def ptr_vars(self, writable=False):
        return [v for v in self.vars() if v.ptr and
                (not writable or not v.pconst)]

    def ptr_span(self, v):
        """Valid element indices through pointer v: [lo, hi)."""
        if v.root.array:
            return -v.off, v.root.length - v.off
        return 0, 1

    def ptr_text(self, v, j):
        """The lvalue `element j through pointer v`."""
        if v.ref:
            return v.name
        r = self.rng
        if j == 0:
            return r.choice([f"*{v.name}", f"*{v.name}", f"{v.name}[0]"])
        if j > 0:
            return r.choice([f"{v.name}[{j}]", f"*({v.name} + {j})"])
        return r.choice([f"{v.name}[{j}]", f"*({v.name} - {-j})"])

    def ptr_addr(self, v, j):
        """A pointer expression to element j through v."""
        if v.ref:
            return f"&{v.name}"
        if j == 0:
            return v.name
        if j > 0:
            return self.rng.choice([f"{v.name} + {j}", f"&{v.name}[{j}]"])
        return f"{v.name} - {-j}"

    def pick_j(self, v):
        lo, hi = self.ptr_span(v)
        if lo <= 0 < hi and self.chance(0.5):
            return 0
        return self.rng.randrange(lo, hi)

    def deref(self):
        v = self.rng.choice(self.ptr_vars())
        lo, hi = self.ptr_span(v)
        ints = [u for u in self.vars() if u.is_int]
        if not v.ref and lo <= 0 and hi >= 2 and ints and self.chance(0.4):
            return E(f"{v.name}[{self.index(hi)}]", v.root.bound)
        return E(self.ptr_text(v, self.pick_j(v)), v.root.bound)

    def writable_sources(self):
        return [v for v in self.vars() if v.assignable and not v.is_int and (
            v.scalar or v.array)] + self.ptr_vars(writable=True)

    def cell_of(self, v):
        """A random writable element of variable v (scalar, array, pointer)."""
        if v.scalar:
            return Cell(v.name, f"&{v.name}", v, None)
        if v.array:
            k = self.rng.randrange(v.length)
            addr = self.rng.choice([f"&{v.name}[{k}]",
                                    f"{v.name} + {k}" if k else v.name])
            return Cell(f"{v.name}[{k}]", addr, v, k)
        j = self.pick_j(v)
        idx = v.off + j if v.root.array else None
        return Cell(self.ptr_text(v, j), self.ptr_addr(v, j), v.root, idx)

    def pick_cell(self, prefer_ptr=False):
        srcs = self.writable_sources()
        if not srcs:
            return None
        ws = [3 if (v.ptr and prefer_ptr) or v.array else 1 for v in srcs]
        return self.cell_of(self.rng.choices(srcs, ws)[0])

    def pick_range(self, n, writable, dry=False, avoid=None):
        """n consecutive doubles as a pointer expression (Range)."""
        cands = []
        for v in self.vars():
            if v.is_int or (writable and (not v.assignable if not v.ptr
                                          else v.pconst)):
                continue
            if avoid is not None and (v is avoid or v.root is avoid):
                continue
            if v.array and v.length >= n:
                cands.append((v, 3))
            elif v.scalar and n == 1:
                cands.append((v, 1))
            elif v.ptr and (n == 1 or (v.root.array and not v.ref)):
                lo, hi = self.ptr_span(v)
                if hi - lo >= n and (not v.ref or n == 1):
                    cands.append((v, 3))
        if dry:
            return bool(cands)
        if not cands:
            return None
        v = self.rng.choices([c[0] for c in cands], [c[1] for c in cands])[0]
        r = self.rng
        if v.array:
            s = r.randint(0, v.length - n)
            text = v.name if s == 0 and r.random() < 0.7 else r.choice(
                [f"{v.name} + {s}", f"&{v.name}[{s}]"])
            return Range(text, v, s, n)
        if v.scalar:
            return Range(f"&{v.name}", v, None, 1)
        if v.ref or not v.root.array:
            return Range(self.ptr_addr(v, 0), v.root,
                         v.off if v.root.array else None, 1)
        lo, hi = self.ptr_span(v)
        j = 0 if lo <= 0 <= hi - n and r.random() < 0.5 else \
            r.randint(lo, hi - n)
        return Range(self.ptr_addr(v, j), v.root, v.off + j, n)

    def presquash(self, cell, m):
        """Emits `cell = squash(cell)` so that it holds at most m."""
        if cell.root.bound <= m:
            return cell.root.bound
        s = self.squash(E(cell.text, cell.root.bound), m)
        self.emit(f"{cell.text} = {s.text};")
        if not cell.root.array:
            self.set_bound(cell.root, s.bound)
        return s.bound

    def range_cells(self, rg):
        if not rg.root.array:
            return [Cell(rg.root.name, f"&{rg.root.name}", rg.root, None)]
        return [Cell(f"{rg.root.name}[{k}]", "", rg.root, k)
                for k in rg.cells()]

    def squash_range(self, rg, m):
        """Squashes a range to m; returns its bound (const ranges stay)."""
        if rg.root.bound <= m:
            return rg.root.bound
        if not rg.root.assignable:
            return rg.root.bound
        for c in self.range_cells(rg):
            self.presquash(c, m)
        return m if rg.root.array else rg.root.bound

    def new_name(self, letter):
        self.nlocals += 1
        return f"{letter}{self.nlocals}"

    def memory_kinds(self, depth):
        kinds = []
        if self.on("pointers"):
            have_arrays = any(v.array for v in self.vars())
            kinds += ["marray"] * (1 if have_arrays else 3)
            kinds += ["ptrdecl", "ptrdecl"]
            if self.ptr_vars(writable=True):
                kinds += ["ptrwrite"] * 3
            if self.movable():
                kinds += ["ptrmove"]
            if have_arrays:
                kinds += ["ptrwalk"]
            if not self.on("arrays") and any(
                    v.array and v.assignable for v in self.vars()):
                kinds += ["elemwrite"]
        if self.on("outargs"):
            if not self.on("pointers") and not any(v.array for v in self.vars()):
                kinds += ["marray"]
            kinds += ["helpercall"] * 3
            if self.on("calls") and self.ptr_callees():
                kinds += ["gcall"]
        if self.on("sidefx") and any(v.assignable and v.scalar and not v.is_int
                                     for v in self.vars()):
            kinds += ["sidefx"] * 3
        if self.on("copies") and self.pick_range(1, True, dry=True):
            kinds += ["copy"] * 3
        return kinds

    def s_copy(self, depth):
        """std::copy, std::copy_n, memcpy, memmove (also overlapping, within
        one array), memset to zero and std::sort over ranges of doubles."""
        r = self.rng
        n = r.randint(1, 3)
        dst = self.pick_range(n, True)
        if dst is None:
            return
        kind = r.choice(["copy", "copy_n", "memcpy", "memmove", "memset",
                         "sort"])
        count = f"{n} * sizeof(double)"
        if kind == "sort":
            # A permutation: no bound grows.
            self.emit(f"std::sort({dst.text}, {dst.text} + {n}" +
                      (", std::greater<double>()" if r.random() < 0.4
                       else "") + ");")
            return
        if kind == "memset":
            self.emit(f"std::memset({dst.text}, 0, {count});")
            return  # (zeros: no bound grows)
        if kind == "memmove" and dst.root.array and dst.root.length > n:
            # Within the destination's own array, overlapping when close.
            a = dst.root
            i = r.randint(0, a.length - n)
            src = Range(f"{a.name} + {i}", a, i, n)
        else:
            src = self.pick_range(n, False, avoid=dst.root)
            if src is None:
                return
        if src.root.bound > self.cap(dst.root):
            return  # (the destination may not grow here)
        if kind == "copy":
            self.emit(f"std::copy({src.text}, {src.text} + {n}, {dst.text});")
        elif kind == "copy_n":
            self.emit(f"std::copy_n({src.text}, {n}, {dst.text});")
        else:
            self.emit(f"std::{kind}({dst.text}, {src.text}, {count});")
        self.wrote(dst.root, src.root.bound)

    # A local array for pointers: element-wise, aggregate or empty-braced.
    def s_marray(self, depth):
        r = self.rng
        name = self.new_name("a")
        n = r.choice([3, 4, 4])
        form = r.choice(["fill", "agg", "agg", "zero"])
        es = [self.limit(self.expr(2)) for _ in range(n)]
        # `{i}` would narrow an int in an aggregate initializer.
        es = [E(f"double({e.text})", e.bound) if e.is_int else e for e in es]
        bound = max(e.bound for e in es)
        if form == "fill":
            self.emit(f"double {name}[{n}];")
            for j, e in enumerate(es):
                self.emit(f"{name}[{j}] = {e.text};")
        elif form == "agg":
            size = "" if r.random() < 0.3 else str(n)
            self.emit(f"double {name}[{size}] = {{{', '.join(e.text for e in es)}}};")
        else:
            self.emit(f"double {name}[{n}] = {{}};")
            bound = 0.0
            for j in sorted(r.sample(range(n), r.randint(1, n))):
                self.emit(f"{name}[{j}] = {es[j].text};")
                bound = max(bound, es[j].bound)
        self.scopes[-1].append(Var(name, bound, True, True, length=n,
                                   depth=len(self.loops)))

    def ptr_type(self, pconst, ref):
        r = self.rng
        if ref:
            return r.choice(["const double &", "const auto &"] if pconst
                            else ["double &", "double &", "auto &"])
        return r.choice(["const double *", "const double *", "const auto *"]
                        if pconst else ["double *", "double *", "auto *"])

    def s_ptrdecl(self, depth):
        r = self.rng
        ref = self.chance(0.25)
        writable = self.chance(0.6)
        roots = [v for v in self.vars() if (v.array or v.scalar) and
                 not v.is_int and (v.assignable or not writable) and
                 not getattr(v, "noaddr", False)]
        if not roots:
            writable = False
            roots = [v for v in self.vars() if (v.array or v.scalar) and
                     not v.is_int and not getattr(v, "noaddr", False)]
        root = r.choices(roots, [3 if v.array else 1 for v in roots])[0]
        # `auto *` keeps the constness of the root: no mutable pointer to p.
        pconst = not writable
        off = r.randrange(root.length) if root.array else 0
        name = self.new_name("r" if ref else "q" if pconst else "w")
        derived = [v for v in self.ptr_vars(writable=not pconst)
                   if v.root is root and not v.ref and
                   0 <= off - v.off and root.array]
        if ref:
            if derived and self.chance(0.4):
                v = r.choice(derived)
                init = self.ptr_text(v, off - v.off)
            else:
                init = f"{root.name}[{off}]" if root.array else root.name
        elif derived and self.chance(0.4):
            v = r.choice(derived)
            init = self.ptr_addr(v, off - v.off)
        elif root.array:
            init = root.name if off == 0 and self.chance(0.6) else \
                r.choice([f"{root.name} + {off}", f"&{root.name}[{off}]"])
        else:
            init = f"&{root.name}"
        ty = self.ptr_type(pconst, ref)
        if ty.startswith("auto") and not root.assignable:
            ty = "const " + ty
        self.emit(f"{ty}{name} = {init};")
        v = Var(name, 0.0, not ref, root=root, off=off, pconst=pconst,
                ref=ref)
        self.scopes[-1].append(v)
        # Most pointers are written through right away: `*pt *= x;`.
        if not pconst and self.chance(0.6):
            self.write_through(v)

    def write_through(self, v):
        j = self.pick_j(v)
        cell = Cell(self.ptr_text(v, j), self.ptr_addr(v, j), v.root,
                    v.off + j if v.root.array else None)
        text, b = self.update(cell)
        self.emit(text + ";")
        self.wrote(cell.root, b)

    def update(self, cell, op=None, budget=None):
        """`cell OP= e` text for op in = += -= *= /=; emits presquashes.
        Returns (text, new bound of the cell)."""
        cap = self.cap(cell.root) if budget is None else budget
        b = cell.root.bound
        op = op or self.rng.choice(["=", "=", "+=", "-=", "*=", "/="])
        if op == "=":
            e = self.squash(self.limit(self.expr(2)), cap)
            if e.text == cell.text:   # not `r = r`
                e = E(f"0.5 * {paren(e)}", e.bound / 2)
            return f"{cell.text} = {e.text}", e.bound
        if op == "/=":
            text, lo = self.denom(1)
            if b / lo > cap:
                b = self.presquash(cell, cap * lo)
            return f"{cell.text} /= {text}", b / lo
        a = self.expr(2)
        if op == "*=":
            if b * a.bound > cap:
                a = self.squash(a, 1.0)
            if b * a.bound > cap:
                b = self.presquash(cell, cap)
            return f"{cell.text} *= {a.text}", b * a.bound
        if b + a.bound > cap:
            if a.bound > cap / 2:
                a = self.squash(a, cap / 2)
            if b + a.bound > cap:
                b = self.presquash(cell, cap - a.bound)
        return f"{cell.text} {op} {a.text}", b + a.bound

    def s_ptrwrite(self, depth):
        self.write_through(self.rng.choice(self.ptr_vars(writable=True)))

    def movable(self):
        """Pointers that may be re-seated: declared in this very scope (so
        their offset is known statically), not references."""
        return [v for v in self.scopes[-1] if v.ptr and not v.ref and
                id(v) not in self.hidden]

    def s_ptrmove(self, depth):
        r = self.rng
        v = r.choice(self.movable())
        L = v.root.length if v.root.array else 1
        moves = []
        if v.root.array:
            if v.off + 1 < L:
                moves += [f"++{v.name};", f"{v.name}++;"]
            if v.off >= 1:
                moves += [f"--{v.name};", f"{v.name}--;"]
            if v.off + 2 < L:
                moves += [f"{v.name} += 2;"]
            if v.off + 1 < L and self.on("ptrresults"):
                # re-seated from itself (was refused as untracked)
                moves += [f"{v.name} = {v.name} + 1;"]
        if not moves or self.chance(0.3):
            roots = [u for u in self.vars() if (u.array or u.scalar) and
                     not u.is_int and (u.assignable or v.pconst) and
                     not getattr(u, "noaddr", False)]
            root = r.choice(roots)
            off = r.randrange(root.length) if root.array else 0
            if root.array:
                init = root.name if off == 0 else f"{root.name} + {off}"
            else:
                init = f"&{root.name}"
            self.emit(f"{v.name} = {init};")
            v.root, v.off = root, off
            return
        m = r.choice(moves)
        self.emit(m)
        v.off += (2 if "+=" in m else 1 if "++" in m or m.endswith("+ 1;")
                  else -1)

    def s_ptrwalk(self, depth):
        """A pointer walking over n elements in a counted loop: reads (and
        maybe writes) each element once; the accumulator is a fresh local
        or an outer variable with room, so bounds hold statically."""
        r = self.rng
        root = r.choice([v for v in self.vars() if v.array])
        L = root.length
        writable = root.assignable and self.chance(0.5)
        form = r.choice(["idx", "idx", "for", "post", "while"])
        own = [v for v in self.movable() if v.root is root and v.off < L and
               (not writable or not v.pconst)]
        k = self.new_name("i")
        if form != "for" and own and self.chance(0.5):
            q, decl = r.choice(own), None
            start = q.off
        else:
            start = r.randrange(L)
            ty = self.ptr_type(not writable, False)
            init = root.name if start == 0 else f"{root.name} + {start}"
            q = Var(self.new_name("w" if writable else "q"), 0.0, True,
                    root=root, off=start, pconst=not writable)
            decl = f"{ty}{q.name} = {init}"
        n = r.randint(1, L - start)
        b = root.bound
        cap = self.cap(root)
        acc_ok = [v for v in self.vars() if v.scalar and v.assignable and
                  not v.is_int and v.bound < LIMIT / 2]
        fresh = not acc_ok or self.chance(0.6)
        if fresh:
            acc = Var(self.new_name("s"), 0.0)
            self.emit(f"double {acc.name} = 0.0;")
        else:
            acc = r.choice(acc_ok)
        room = LIMIT - acc.bound
        if decl and form != "for":
            self.emit(decl + ";")
        CUR = "@CUR@"   # the current element, spelled per form below
        # The body reads the current element, the counter and any variable
        # but the walked array and the accumulator.
        with self.hide(root, acc):
            self.scopes.append([Var(k, n, False, is_int=True)]
                               if form in ("idx", "post") else [])
            other = self.expr(1)
            term = r.choice([
                E(f"{paren(other)} * {CUR}", other.bound * b),
                E(f"{CUR}", b),
                E(f"{CUR} - {paren(other)}", b + other.bound)])
            if self.on("math") and self.chance(0.3):
                term = E(f"{self.fn('sin')}({term.text})", 1.0)
            term = self.squash(term, room / n)
            new = None
            if writable and form == "post":
                # `*w++ = e`: e does not read *w.
                new = self.squash(self.limit(self.expr(2)), cap)
            elif writable:
                a1 = self.squash(self.expr(1), 1.0)
                a2 = self.expr(1)
                new = self.squash(self.limit(
                    E(f"{paren(a1)} * {CUR} + {paren(a2)}",
                      a1.bound * b + a2.bound)), cap)
            self.scopes.pop()
        if form == "for":
            self.emit(f"for ({decl}; {q.name} != {root.name} + {start + n}; "
                      f"++{q.name}) {{")
        elif form == "while":
            self.emit(f"while ({q.name} != {root.name} + {start + n}) {{")
        else:
            self.emit(f"for (int {k} = 0; {k} < {n}; ++{k}) {{")
        self.indent += 1
        cur = f"*{q.name}"
        if form == "post" and new is None:
            # `*q++` inside the expression, where q appears once.
            self.emit(f"{acc.name} += {term.text.replace(CUR, f'*{q.name}++', 1)};")
        else:
            self.emit(f"{acc.name} += {term.text.replace(CUR, cur)};")
            if new is not None and form == "post":
                self.emit(f"*{q.name}++ = {new.text.replace(CUR, cur)};")
            elif new is not None:
                self.emit(f"{cur} = {new.text.replace(CUR, cur)};")
            if form in ("idx", "while"):
                self.emit(r.choice([f"++{q.name};", f"{q.name}++;",
                                    f"{q.name} += 1;"]))
        self.indent -= 1
        self.emit("}")
        if new is not None:
            self.wrote(root, new.bound)
        if fresh:
            acc.bound = n * term.bound
            self.scopes[-1].append(acc)
        else:
            self.set_bound(acc, acc.bound + n * term.bound)
        if form != "for":
            q.off = start + n
            if decl:
                self.scopes[-1].append(q)

    # --- outargs: helpers that write through pointers and references ------
    def ptr_callees(self):
        # (A function with `pp` is called only when it has no other
        # pointer parameter: the ranges need not be kept apart.)
        return [f for f in self.funcs if ("p" in f.kinds or f.has_out or
                                          "q" in f.kinds) and
                not ("q" in f.kinds and ("p" in f.kinds or f.has_out))]

    def s_helpercall(self, depth):
        kinds = ["sq", "sq", "axpy", "axpy", "step", "step", "prod", "prod",
                 "swap", "at"]
        if self.on("ptrresults"):
            kinds += ["at", "at", "at"]
        for _ in range(6):
            if getattr(self, "c_" + self.rng.choice(kinds))():
                return

    def c_sq(self):
        cell = self.pick_cell()
        if cell is None:
            return False
        cap = self.cap(cell.root)
        b = cell.root.bound
        if b * b > cap:
            b = self.presquash(cell, math.sqrt(cap))
        self.emit(f"sq({cell.addr});")
        self.wrote(cell.root, b * b)
        return True

    def c_step(self):
        cell = self.pick_cell()
        if cell is None:
            return False
        cap = self.cap(cell.root)
        b = cell.root.bound
        if b > cap:
            return False  # (a parameter's bound can exceed the cap)
        u = self.squash(self.expr(2), math.sqrt(cap / 2))
        self.emit(f"step({cell.text}, {u.text});")
        self.wrote(cell.root, 0.5 * b + u.bound ** 2)
        return True

    def c_swap(self):
        x, y = self.pick_cell(), self.pick_cell()
        if x is None:
            return False
        # (Two elements of one array or object: unless their indices are
        # different constants (`h2[0]`, `h2[3]`: drawn) the plugin takes
        # them for possibly the same memory and refuses the call, since
        # swap2 writes; not drawn.)
        same_obj = getattr(x.root, "call_cell", None) is not None and \
            getattr(x.root, "call_cell", None) == \
            getattr(y.root, "call_cell", None)
        if x.text != y.text and (same_obj or
                                 (x.root is y.root and x.root.array)) and \
                not distinct_constant_elements(x.text, y.text):
            return False
        bx, by = x.root.bound, y.root.bound
        if by > self.cap(x.root):
            by = self.presquash(y, self.cap(x.root))
        if bx > self.cap(y.root):
            bx = self.presquash(x, self.cap(y.root))
        # (A variable swapped with itself, also through a reference to it,
        # is a no-op, and passing one variable to both references is an
        # error.)
        if x.text != y.text and not (x.root is y.root and not x.root.array):
            self.emit(f"swap2({x.text}, {y.text});")
        if x.root is y.root and not x.root.array:
            return True
        self.wrote(x.root, by)
        self.wrote(y.root, bx)
        return True

    def c_at(self):
        """A helper returning a pointer / reference into its argument: the
        result bound to a local (`double *w = at(a, 1);`) and written
        through, or (retwrite) assigned to directly (`cell(a, 1) += e;`)."""
        rg = self.pick_range(self.rng.randint(1, 3), True)
        if rg is None or getattr(rg.root, "noaddr", False):
            return False
        j = self.rng.randrange(rg.n)
        idx = rg.start + j if rg.root.array else None
        if self.on("ptrresults") and rg.n >= 2 and self.chance(0.5):
            # Which element it points to is decided at run time: only `*m`
            # is written, and m is not used again.
            call = f"pmax({rg.text}, {rg.n})"
            if self.chance(0.5):
                # or written through the result directly (`*pmax(a, 3) *= e`)
                text, b = self.update(Cell(f"*{call}", call, rg.root, None))
                self.emit(text + ";")
                self.wrote(rg.root, b)
                return True
            name = self.new_name("m")
            self.emit(f"double *{name} = {call};")
            text, b = self.update(Cell(f"*{name}", name, rg.root, None))
            self.emit(text + ";")
            self.wrote(rg.root, b)
            return True
        if not (self.on("retwrite") and self.chance(0.5)):
            ref = self.chance(0.5)
            name = self.new_name("r" if ref else "w")
            if ref:
                self.emit(f"double &{name} = cell({rg.text}, {j});")
            else:
                self.emit(f"double *{name} = at({rg.text}, {j});")
            v = Var(name, 0.0, not ref, root=rg.root,
                    off=idx if idx is not None else 0, ref=ref)
            self.scopes[-1].append(v)
            self.write_through(v)
            return True
        text = self.rng.choice([f"*at({rg.text}, {j})", f"cell({rg.text}, {j})",
                                f"at({rg.text}, {j})[0]"])
        # No presquash through the helper: squash the element by name.
        if rg.root.array:
            cell_n = Cell(f"{rg.root.name}[{idx}]", "", rg.root, idx)
        else:
            cell_n = Cell(rg.root.name, "", rg.root, None)
        op = self.rng.choice(["=", "+=", "-=", "*="])
        cap = self.cap(rg.root)
        if op != "=" and rg.root.bound > cap / 2:
            self.presquash(cell_n, cap / 2)
        b = min(rg.root.bound, cap / 2) if op != "=" else rg.root.bound
        if op == "=":
            e = self.squash(self.limit(self.expr(2)), cap)
            nb = e.bound
        elif op == "*=":
            e = self.squash(self.expr(2), 1.0)
            nb = b * e.bound
        else:
            e = self.squash(self.expr(2), cap / 2)
            nb = b + e.bound
        self.emit(f"{text} {op} {e.text};")
        self.wrote(rg.root, nb)
        return True

    def c_axpy(self):
        r = self.rng
        n = r.randint(1, 3)
        y = self.pick_range(n, True)
        x = self.pick_range(n, False)
        if x is None or y is None:
            return False
        cap = self.cap(y.root)
        if x.root is y.root:
            # y may read elements it wrote: y <= B (1 + |c|)^n.
            bnd = y.root.bound
            if bnd > cap / 2:
                self.squash_range(y, cap / 2)
                self.squash_range(x, cap / 2)
                bnd = cap / 2
            cmax = (cap / max(bnd, 1e-9)) ** (1.0 / n) - 1
            bx = None
        else:
            by = self.squash_range(y, cap / 2) if y.root.bound > cap / 2 \
                else y.root.bound
            bx = x.root.bound
            cmax = (cap - by) / max(bx, 1e-9)
        lits = [c for c in (0.5, -0.5, 0.25, 0.75, -1.0, 1.5, 2.0)
                if abs(c) <= cmax]
        if lits and self.chance(0.6):
            c = r.choice(lits)
            ce = E(fmt(c) if self.chance(0.5) else repr(c), abs(c))
        else:
            ce = self.squash(self.expr(1), min(cmax, 1.5))
        self.emit(f"axpy({n}, {ce.text}, {x.text}, {y.text});")
        if bx is None:
            nb = bnd * (1 + ce.bound) ** n
        else:
            nb = by + ce.bound * bx
        self.wrote(y.root, min(nb, cap))
        return True

    def c_prod(self, o=None):
        o = o or self.pick_range(2, True)
        a, b = self.pick_range(2, False), self.pick_range(2, False)
        if o is None or a is None or b is None:
            return False
        cap = self.cap(o.root)

        def worst(ba, bb):
            o0 = 2 * ba * bb
            first = o.start if o.root.array else None
            ba2 = max(ba, o0) if a.root is o.root and first in a.cells() else ba
            bb2 = max(bb, o0) if b.root is o.root and first in b.cells() else bb
            return max(o0, 2 * ba2 * bb2)

        for m in (None, 2.0, 1.5, 1.0, 0.7, 0.5, 0.35, 0.25):
            ba = a.root.bound if m is None or not a.root.assignable \
                else min(a.root.bound, m)
            bb = b.root.bound if m is None or not b.root.assignable \
                else min(b.root.bound, m)
            w = worst(ba, bb)
            if w <= cap:
                break
        else:
            return False
        if m is not None:
            self.squash_range(a, m)
            self.squash_range(b, m)
        self.emit(f"prod({a.text}, {b.text}, {o.text});")
        self.wrote(o.root, w)
        return True

    def s_gcall(self, depth, f=None):
        """Calls an earlier generated function (f, or one drawn) with
        pointer arguments: its `p` gets a 4-element range bounded by
        ARG_LIMIT, its `out` a writable 2-element range disjoint from that,
        its `pp` the address of a local pointer to 3 writable elements."""
        r = self.rng
        f = f or r.choice(self.ptr_callees())
        args = []
        orange = None
        if f.has_out:
            orange = self.pick_range(OUT_LEN, True)
            if orange is None:
                return
            if f.out_bound > self.cap(orange.root):
                return
            if orange.root.bound > ARG_LIMIT:
                self.squash_range(orange, ARG_LIMIT)
        qrange = None
        for kd in f.kinds:
            if kd == "s":
                args.append(self.squash(self.expr(1), ARG_LIMIT).text)
            elif kd == "o":
                args.append(orange.text)
            elif kd == "q":
                # `double *w = a + 1; f(.., &w)`: 3 elements in [-2, 2].
                qrange = self.pick_range(PP_LEN, True)
                if qrange is None or f.pp_bound > self.cap(qrange.root):
                    return
                self.squash_range(qrange, ARG_LIMIT)
                w = self.new_name("pw")
                self.emit(f"double *{w} = {qrange.text};")
                args.append(f"&{w}")
            else:
                pr = self.pick_range(PARAM_ARRAY, False,
                                     avoid=orange.root if orange else None)
                if pr is None or (pr.root.bound > ARG_LIMIT and
                                  not pr.root.assignable):
                    return
                self.squash_range(pr, ARG_LIMIT)
                args.append(pr.text)
        call = f"{f.name}({', '.join(args)})"
        if f.void:
            self.emit(call + ";")
        else:
            name = self.new_local()
            self.emit(f"double {name} = {call};")
        if orange is not None:
            self.wrote(orange.root, f.out_bound)
        if qrange is not None:
            self.wrote(qrange.root, f.pp_bound)
        if not f.void:
            self.scopes[-1].append(Var(name, f.bound))

    # --- sidefx: side effects inside expressions ---------------------------
    def sfx_target(self):
        """A scalar variable, array element or element through a pointer."""
        vs = [v for v in self.vars() if v.assignable and v.scalar and
              not v.is_int]
        if self.chance(0.3):
            cell = self.pick_cell()
            if cell is not None:
                return cell
        v = self.rng.choice(vs)
        return Cell(v.name, f"&{v.name}", v, None)

    def s_sidefx(self, depth):
        r = self.rng
        kind = r.choice(["chain", "chain", "compound2", "arg", "arg",
                         "incdec", "incdec", "ifcond", "assignexpr", "comma",
                         "index"])
        getattr(self, "x_" + kind)(depth)

    def x_chain(self, depth):
        """a = b = e (and a = b = c = e) over distinct cells."""
        ts = []
        for _ in range(self.rng.choice([2, 2, 3])):
            t = self.sfx_target()
            if all((t.root, t.idx) != (u.root, u.idx) for u in ts):
                ts.append(t)
        if len(ts) < 2:
            ts.append(Cell(self.new_local(), "", None, None))
        cap = min(self.cap(t.root) if t.root else LIMIT for t in ts)
        e = self.squash(self.limit(self.expr(3)), cap)
        decl = ""
        if ts[-1].root is None:   # a fresh local at the end of the chain
            ts = [ts[-1]] + ts[:-1]
            decl = "double "
        self.emit(decl + " = ".join(t.text for t in ts) + f" = {e.text};")
        for t in ts:
            if t.root is None:
                self.scopes[-1].append(Var(t.text, e.bound))
            else:
                self.wrote(t.root, e.bound)

    def x_compound2(self, depth):
        """(t op1= e1) op2= e2; with seqorder e2 may read t (C++17: e2 is
        evaluated first, so it reads t's old value)."""
        t = self.sfx_target()
        cap = self.cap(t.root)
        op1 = self.rng.choice(["+=", "-=", "*=", "/=", "="])
        text1, b1 = self.update(t, op1, budget=cap / 2)
        op2 = self.rng.choice(["+=", "-=", "*="])
        reads_t = self.on("seqorder") and self.chance(0.3)
        if reads_t:
            e2 = self.expr(1)
        else:
            # (Memory behind a pointer parameter, `out`, may be what the
            # other pointer parameters point to: the plugin refuses e2
            # reading them.)
            params = self.scopes[0] if self.scopes else []
            also = [v for v in params if v.array and v is not t.root] \
                if any(v is t.root for v in params) else []
            with self.hide(t.root, *also):
                e2 = self.expr(2)
        e2 = self.squash(e2, 1.0 if op2 == "*=" else cap / 2)
        nb = b1 * e2.bound if op2 == "*=" else b1 + e2.bound
        self.emit(f"({text1}) {op2} {e2.text};")
        self.wrote(t.root, nb)

    def sfx_expr(self, t, cap=None):
        """An expression with a side effect on cell t: (text, bare text,
        value bound, new bound of t); text is parenthesized where needed,
        bare is for argument lists and comma operands. Emits any presquash
        first."""
        r = self.rng
        k = r.choice(["op", "op", "inc"])
        cap = self.cap(t.root) if cap is None else cap
        if k == "inc":
            b = t.root.bound
            if b + 1 > cap:
                b = self.presquash(t, cap - 1) if cap > 1.5 else b
                if b + 1 > cap:
                    k = "op"
            if k == "inc":
                op = r.choice(["++", "--"])
                text = r.choice([f"{op}{t.text}", f"{t.text}{op}"])
                if text.startswith(op) and t.text.startswith("*"):
                    text = f"{op}{t.text}"
                elif not text.startswith(op) and t.text.startswith("*"):
                    text = f"({t.text}){op}"
                return text, text, b + 1, b + 1
        text, nb = self.update(t, r.choice(["=", "+=", "-=", "*=", "/="]), cap)
        return f"({text})", text, nb, nb

    def x_arg(self, depth):
        """u = g(t += e) op e2, or a generated function's argument."""
        t = self.sfx_target()
        text, bare, vb, nb = self.sfx_expr(t)
        funcs = [f for f in self.callable() if f.arity >= 1] \
            if self.on("calls") else []
        with self.hide(t.root):
            if funcs and self.chance(0.5):
                f = self.rng.choice(funcs)
                pos = self.rng.randrange(f.arity)
                args = [self.squash(self.expr(1), ARG_LIMIT).text
                        for _ in range(f.arity)]
                arg = bare if vb <= ARG_LIMIT else \
                    f"{fmt(ARG_LIMIT / vb)} * {text}"
                args[pos] = arg
                call = E(f"{f.name}({', '.join(args)})", f.bound)
            else:
                call = E(f"g({bare})", 0.5)
            e2 = self.expr(2)
            u = self.sfx_dest(t)
        op = self.rng.choice(["+", "-", "*"])
        val = self.limit(E(f"{call.text} {op} {paren(e2)}",
                           call.bound * e2.bound if op == "*"
                           else call.bound + e2.bound))
        self.put(u, val)
        self.wrote(t.root, nb)

    def sfx_dest(self, t):
        """Where a side-effecting expression goes: a fresh local (None) or
        a scalar other than t's root (called with t's root hidden)."""
        vs = [v for v in self.vars() if v.assignable and v.scalar and
              not v.is_int]
        if vs and self.chance(0.5):
            return self.rng.choice(vs)
        return None

    def put(self, u, val):
        if u is None:
            name = self.new_local()
            self.emit(f"double {name} = {val.text};")
            self.scopes[-1].append(Var(name, val.bound))
        elif self.chance(0.3) and u.bound + val.bound <= LIMIT:
            self.emit(f"{u.name} += {val.text};")
            self.set_bound(u, u.bound + val.bound)
        else:
            self.emit(f"{u.name} = {val.text};")
            self.set_bound(u, val.bound)

    def x_incdec(self, depth):
        """u = e1 op t++ (or ++t, t--, --t)."""
        t = self.sfx_target()
        b = t.root.bound
        cap = self.cap(t.root)
        if b + 1 > cap:
            if cap <= 1.5:
                return self.x_chain(depth)
            b = self.presquash(t, cap - 1)
        op = self.rng.choice(["++", "--"])
        pre = self.chance(0.5)
        tt = f"({t.text})" if t.text.startswith("*") and not pre else t.text
        text = f"{op}{tt}" if pre else f"{tt}{op}"
        with self.hide(t.root):
            e1 = self.expr(2)
            u = self.sfx_dest(t)
        k = self.rng.choice(["mul", "add", "div"])
        if k == "mul":
            val = E(f"{paren(e1)} * {text}", e1.bound * (b + 1))
        elif k == "add":
            val = E(f"{text} + {paren(e1)}", e1.bound + b + 1)
        else:
            val = E(f"{text} / (1.5 + {paren(e1)} * {paren(e1)})", (b + 1) / 1.5)
        self.put(u, self.limit(val))
        self.wrote(t.root, b + 1)

    def x_assignexpr(self, depth):
        """u = (t = e1) op e2, u += (t *= e1)."""
        t = self.sfx_target()
        text, bare, vb, nb = self.sfx_expr(t)
        with self.hide(t.root):
            e2 = self.expr(2)
            u = self.sfx_dest(t)
        op = self.rng.choice(["+", "*", "-"])
        val = self.limit(E(f"{text} {op} {paren(e2)}",
                           vb * e2.bound if op == "*" else vb + e2.bound))
        self.put(u, val)
        self.wrote(t.root, nb)

    def x_comma(self, depth):
        """u = (t op= e1, e2) where e2 reads t after the side effect."""
        t = self.sfx_target()
        text, bare, vb, nb = self.sfx_expr(t)
        self.wrote(t.root, nb)   # e2 sees the new value
        with self.hide(t.root):
            u = self.sfx_dest(t)
        a = self.expr(1)
        e2 = self.limit(E(f"{t.text} * {paren(a)}", nb * a.bound))
        val = E(f"({bare}, {e2.text})",
                e2.bound)
        self.put(u, val)

    def x_ifcond(self, depth):
        """if ((t op= e) cmp e2) { ... } else { ... }"""
        t = self.sfx_target()
        text, bare, vb, nb = self.sfx_expr(t)
        with self.hide(t.root):
            e2 = self.expr(1)
        self.wrote(t.root, nb)
        cmp = self.rng.choice(["<", "<=", ">", ">="])
        self.emit(f"if ({text} {cmp} {e2.text}) {{")
        outer, then = self.block(depth, self.rng.randint(1, 2))
        if self.chance(0.5):
            self.emit("} else {")
            _, other = self.block(depth, self.rng.randint(1, 2))
        else:
            other = [v.bound for v in outer]
        self.emit("}")
        for v, a, b in zip(outer, then, other):
            v.bound = max(a, b)

    def x_index(self, depth):
        """int k = c; ... a[k++] ... q[--k] ...: an int index moved inside
        larger expressions (each statement names k once)."""
        r = self.rng
        srcs = [v for v in self.vars() if v.array] + \
            [v for v in self.ptr_vars() if not v.ref and v.root.array]
        if not srcs:
            return self.x_chain(depth)
        v = r.choice(srcs)
        lo, hi = (0, v.length) if v.array else self.ptr_span(v)
        b = v.bound if v.array else v.root.bound
        k = self.new_name("k")
        kv = r.randrange(lo, hi)
        self.emit(f"int {k} = {kv};")
        for _ in range(r.randint(1, 3)):
            ops = []
            if kv + 1 < hi:
                ops += ["x++", "++x"]
            if kv - 1 >= lo:
                ops += ["x--", "--x"]
            if not ops:
                break
            op = r.choice(ops)
            idx = kv if op in ("x++", "x--") else \
                kv + 1 if op == "++x" else kv - 1
            kv = kv + 1 if "++" in op else kv - 1
            if not lo <= idx < hi:
                continue
            elt = E(f"{v.name}[{op.replace('x', k)}]", b)
            a = self.expr(1)
            val = self.limit(r.choice([
                E(f"{elt.text} * {paren(a)}", b * a.bound),
                E(f"{paren(a)} - {elt.text}", b + a.bound)]))
            self.put(self.sfx_dest(None), val)

    def read_memory(self, e):
        """With memory features, e plus reads of 1-2 arrays / pointers that
        are still in scope, so that writes into memory reach the result."""
        if not self.mem:
            return e
        srcs = [v for v in self.vars() if v.array or v.ptr]
        for v in self.rng.sample(srcs, min(len(srcs), self.rng.randint(1, 2))):
            if v.array:
                t = E(f"{v.name}[{self.rng.randrange(v.length)}]", v.bound)
            else:
                t = E(self.ptr_text(v, self.pick_j(v)), v.root.bound)
            op = self.rng.choice(["+", "-", "*"])
            b = t.bound * e.bound if op == "*" else t.bound + e.bound
            e = self.limit(E(f"{paren(t)} {op} {paren(e)}", b))
        return e

    # --- outparams ----------------------------------------------------------
    def finish_out(self, out):
        """Final writes of both out elements from live variables."""
        r = self.rng
        live = [v for s in self.scopes for v in s if v.scalar]

        def value(cap):
            e = self.limit(self.expr(3))
            for v in r.sample(live, min(len(live), r.randint(0, 2))):
                op = r.choice(["+", "-", "*"])
                b = v.bound * e.bound if op == "*" else v.bound + e.bound
                e = self.limit(E(f"{v.name} {op} {paren(e)}", b))
            if self.chance(0.5):
                e = self.read_memory(e)
            return self.squash(e, cap)

        forms = ["idx", "idx", "idx", "walk"]
        if self.on("outargs"):
            forms += ["prod"]
        form = r.choice(forms)
        if form == "prod" and self.c_prod(Range("out", out, 0, OUT_LEN)):
            return
        if form == "walk":
            name = self.new_name("o")
            self.emit(f"double *{name} = out;")
            for k in range(OUT_LEN):
                e = value(LIMIT)
                last = k == OUT_LEN - 1
                self.emit(f"*{name}{'' if last else '++'} = {e.text};")
                self.wrote(out, e.bound)
            return
        for k in range(OUT_LEN):
            op = r.choice(["=", "=", "+=", "-="])
            lhs = r.choice([f"out[{k}]", f"out[{k}]",
                            "*out" if k == 0 else f"*(out + {k})"])
            if op == "=":
                e = value(LIMIT)
                self.emit(f"{lhs} = {e.text};")
                self.wrote(out, e.bound)
                continue
            b = out.bound
            if b > LIMIT / 2:
                b = self.presquash(Cell(lhs, "", out, k), LIMIT / 2)
            e = value(LIMIT / 2)
            self.emit(f"{lhs} {op} {e.text};")
            self.wrote(out, b + e.bound)

    # --- construct classes of issue 49 --------------------------------------
    # Constructs in which code nobody here wrote got wrong gradients, one
    # feature each. The statements are self-contained: they read any
    # variable in scope, write their own objects or a target variable, and
    # fold what they computed into a double in scope (`fold`), so the
    # derivative reaches the result.
    def construct_kinds(self):
        kinds = []
        if not self.f & (set(CONSTRUCT_FEATURES) |
                         {"refmethods", "passed", "bound", "positions",
                          "rvalues"}) or \
                not self.doubles():
            return kinds
        if self.on("refmethods"):
            kinds += ["refmethod"] * 2
        if self.on("passed"):
            kinds += ["passed"] * 2
        if self.on("bound"):
            kinds += ["bound"] * 2
        # (Not in vector pullbacks: a std::vector has no lanes there, and
        # a std::array's iterators are pointers, tracked as such.)
        if self.on("positions") and not (self.on("lanes") or
                                         self.on("vecpull")):
            kinds += ["position"] * 2
        if self.on("rvalues"):
            kinds += ["rvalue"] * 2
        for feature, kind in (("heapobj", "heapobj"), ("ptrptr", "ptrptr"),
                              ("argeffects", "argfx"),
                              ("refhelpers", "refhelper"),
                              ("constmembers", "constmember"),
                              ("genlambdas", "genlambda"),
                              ("runalias", "runalias"), ("preinc", "preinc"),
                              ("functional", "numeric"),
                              ("mutablemembers", "mutable"),
                              ("bits", "bits")):
            if self.on(feature):
                kinds += [kind] * 2
        if self.on("reseat") and self.reseat_ok():
            kinds += ["reseat"] * 2
        if self.on("ptrptr") and self.on("calls") and self.pp_callees():
            kinds += ["ppcall"]
        return kinds

    def pp_callees(self):
        return [f for f in self.ptr_callees() if "q" in f.kinds]

    def s_ppcall(self, depth):
        """`double *w = a; double t = fK(x, &w);`: an earlier function with
        a `double **` parameter."""
        self.s_gcall(depth, self.rng.choice(self.pp_callees()))

    def fold(self, t, e):
        """`t += e` while t has room for it, else `t = e`."""
        e = self.limit(e)
        if t.bound + e.bound <= LIMIT and self.chance(0.7):
            self.emit(f"{t.name} += {e.text};")
            self.set_bound(t, t.bound + e.bound)
        else:
            self.emit(f"{t.name} = {e.text};")
            self.set_bound(t, e.bound)

    def arg2(self, depth=2):
        """An expression in [-2, 2] (a double)."""
        return self.dbl(self.squash(self.limit(self.expr(depth)), 2.0))

    def fresh_array(self, n=3):
        """`double raN[n] = {e, ...};` (its Var, in scope)."""
        name = self.new_name("ra")
        es = [self.dbl(self.limit(self.expr(2))) for _ in range(n)]
        self.emit(f"double {name}[{n}] = {{{', '.join(e.text for e in es)}}};")
        v = Var(name, max(e.bound for e in es), True, True, length=n,
                depth=len(self.loops))
        self.scopes[-1].append(v)
        return v

    def coef(self):
        return self.rng.choice(["0.5", "0.25", "-0.75", "1.5", "-1.25"])

    # heapobj: single heap objects.
    def s_heapobj(self, depth):
        """A block with `double *h = new double(e);`, `new HV{e, e, e}`,
        `new HS{e, flag}` (a const method `h->get()`) or a
        `std::unique_ptr<double>`: written through (`*h += e`, `h->y = e`),
        read by the statements of the block, folded into a variable in
        scope, then deleted."""
        r = self.rng
        t = r.choice(self.doubles())
        kind = r.choice(["new", "new", "agg", "getter", "unique"])
        h = self.new_name("hp")
        self.open_block()
        if kind in ("new", "unique"):
            e = self.dbl(self.limit(self.expr(2)))
            if kind == "new":
                self.emit(f"double *{h} = new double({e.text});")
            else:
                self.emit(r.choice([
                    f"auto {h} = std::make_unique<double>({e.text});",
                    f"std::unique_ptr<double> {h}(new double({e.text}));"]))
            cells = [Var(f"*{h}", e.bound)]
        elif kind == "agg":
            es = [self.dbl(self.limit(self.expr(2))) for _ in range(3)]
            self.emit(f"HV *{h} = new HV{{{', '.join(x.text for x in es)}}};")
            cells = [Var(f"{h}->{m}", x.bound) for m, x in zip("xyz", es)]
        else:
            e = self.dbl(self.limit(self.expr(2)))
            self.emit(f"HS *{h} = new HS{{{e.text}, "
                      f"{r.choice(['false', 'true'])}}};")
            cells = [Var(f"{h}->v", e.bound)]
        raw = kind != "unique"
        self.scopes.append(list(cells))
        if raw:
            # No return or jump past the delete.
            self.switches.append(len(self.loops))
            self.no_return += 1
        for _ in range(r.randint(1, 2)):
            c = r.choice(cells)
            text, b = self.update(Cell(c.name, f"&{c.name}", c, None))
            self.emit(text + ";")
            self.wrote(c, b)
        for _ in range(r.randint(0, 2)):
            self.stmt(depth - 1)
        if raw:
            self.switches.pop()
            self.no_return -= 1
        if kind == "getter":
            e = E(f"{h}->get()", cells[0].bound)
        elif kind == "agg":
            x, y, z = cells
            e = self.limit(E(f"{h}->x * {h}->y + {self.coef()} * {h}->z",
                             x.bound * y.bound + 1.5 * z.bound))
        else:
            a = self.expr(1)
            e = self.limit(E(f"*{h} * {paren(a)}", cells[0].bound * a.bound)
                           if self.chance(0.5) else
                           E(f"{self.coef()} * *{h}", 1.5 * cells[0].bound))
        self.scopes.pop()
        self.fold(t, e)
        if raw:
            self.emit(f"delete {h};")
        self.close_block()

    # ptrptr: pointer-to-pointer parameters and locals.
    def pp_param(self):
        """The memory behind the `double **pp` parameter (a Var named
        `(*pp)`), unless hidden."""
        for v in self.vars():
            if v.name == "(*pp)":
                return v
        return None

    def ppread(self):
        """`**pp`, `(*pp)[k]`, `*(*pp + k)`, `pp[0][k]`."""
        v = self.pp_param()
        k = self.rng.randrange(PP_LEN)
        forms = [f"(*pp)[{k}]", f"pp[0][{k}]", f"*(*pp + {k})"]
        if k == 0:
            forms += ["**pp", "**pp"]
        return E(self.rng.choice(forms), v.bound)

    def finish_pp(self, pp):
        """Half of the time, a final write of the memory behind pp (an
        overwritten output: its seed must not reach its entry value)."""
        r = self.rng
        if pp.bound > LIMIT or not self.chance(0.5):
            return
        k = r.randrange(PP_LEN)
        e = self.squash(self.limit(self.expr(3)), LIMIT)
        if self.chance(0.5):
            b = self.new_name("pb")
            self.emit(f"double *{b} = *pp;")
            self.emit(f"{b}[{k}] = {e.text};")
        else:
            self.emit(f"(*pp)[{k}] = {e.text};")
        self.wrote(pp, e.bound)

    def s_ptrptr(self, depth):
        """Through `pp` (`double *a = *pp;`, `**pp op= e`, `(*pp)[k] op=
        e`), a local `double **ww = &w;` over an array, or helpers taking
        `double **` (`pload(&w, 1)`, `pscale(pp, e)`, `pmap(&qa, &wb, n)`,
        `padvance(&w, 1)`)."""
        r = self.rng
        pp = self.pp_param()
        kinds = ["local", "local", "helper", "helper"]
        if pp is not None:
            kinds += ["alias", "alias", "write", "write"]
        kind = r.choice(kinds)
        if kind == "alias":
            name = self.new_name("a")
            pconst = self.chance(0.3)
            self.emit(f"{'const ' if pconst else ''}double *{name} = *pp;")
            v = Var(name, 0.0, True, root=pp, off=0, pconst=pconst)
            self.scopes[-1].append(v)
            if not pconst:
                self.write_through(v)
            return
        if kind == "write":
            k = r.randrange(PP_LEN)
            text = r.choice([f"(*pp)[{k}]", f"pp[0][{k}]"] +
                            (["**pp"] * 2 if k == 0 else []))
            t, b = self.update(Cell(text, "", pp, k))
            self.emit(t + ";")
            self.wrote(pp, b)
            return
        if kind == "helper":
            return self.pp_helper(pp)
        # A local pointer and a pointer to it over a writable range.
        rg = self.pick_range(2, True)
        if rg is None or not rg.root.array:
            self.fresh_array()
            rg = self.pick_range(2, True)
        if rg is None or not rg.root.array:
            return
        w, ww = self.new_name("pw"), self.new_name("ppw")
        self.open_block()
        self.emit(f"double *{w} = {rg.text};")
        self.emit(f"double **{ww} = &{w};")
        off = 0   # of w from the range's start
        t = r.choice(self.doubles())
        for _ in range(r.randint(1, 3)):
            op = r.choice(["write", "read", "move"])
            idx = rg.start + off
            if op == "move" and idx + 1 < rg.root.length:
                self.emit(r.choice([f"*{ww} += 1;", f"++*{ww};",
                                    f"(*{ww})++;"]))
                off += 1
                continue
            j = r.randrange(-off, rg.root.length - rg.start - off)
            if op == "write":
                text = f"**{ww}" if j == 0 else f"(*{ww})[{j}]"
                u, b = self.update(Cell(text, "", rg.root, idx + j))
                self.emit(u + ";")
                self.wrote(rg.root, b)
            else:
                text = f"**{ww}" if j == 0 else f"(*{ww})[{j}]"
                self.fold(t, E(f"{self.coef()} * {text}",
                               1.5 * rg.root.bound))
        self.close_block()

    def pp_helper(self, pp):
        r = self.rng
        kind = r.choice(["load", "scale", "map", "advance"])
        t = r.choice(self.doubles())
        if pp is not None and kind in ("load", "scale") and self.chance(0.5):
            if kind == "load":
                k = r.randrange(PP_LEN - 1)
                self.fold(t, E(f"pload(pp, {k})", pp.bound ** 2))
                return
            # a[0] *= s; a[1] += s * a[0] (|s| <= 1): twice the bound.
            m = min(pp.bound, self.cap(pp) / 2)
            for k in range(2):
                self.presquash(Cell(f"(*pp)[{k}]", "", pp, k), m)
            s = self.squash(self.expr(2), 1.0)
            self.emit(f"pscale(pp, {s.text});")
            self.wrote(pp, 2 * m)
            return
        n = 2
        dst = self.pick_range(n, True)
        if dst is None or not dst.root.array:
            self.fresh_array()
            dst = self.pick_range(n, True)
        if dst is None or not dst.root.array:
            return
        w = self.new_name("pw")
        self.open_block()
        self.emit(f"double *{w} = {dst.text};")
        root, cap = dst.root, self.cap(dst.root)
        if kind == "load":
            self.fold(t, E(f"pload(&{w}, 0)", root.bound ** 2))
        elif kind == "scale":
            if 2 * root.bound > cap:
                self.squash_range(dst, cap / 2)
            s = self.squash(self.expr(2), 1.0)
            self.emit(f"pscale(&{w}, {s.text});")
            self.wrote(root, 2 * min(root.bound, cap / 2))
        elif kind == "advance":
            self.emit(f"padvance(&{w}, 1);")
            u, b = self.update(Cell(f"*{w}", "", root, dst.start + 1))
            self.emit(u + ";")
            self.wrote(root, b)
        else:
            src = self.pick_range(n, False, avoid=root)
            if src is None or 1 + 0.5 * root.bound > cap:
                return self.close_block()
            q = self.new_name("pq")
            self.emit(f"const double *{q} = {src.text};")
            self.emit(f"pmap(&{q}, &{w}, {n});")
            self.wrote(root, 1 + 0.5 * root.bound)
        self.close_block()

    # argeffects: a side effect in an argument whose value is not used.
    def s_argfx(self, depth):
        """`lib::unit(t += e);`, `u = konst(t *= e) * e2;`, `u +=
        ignore2(t = e, e2) * e3;`: the call's value does not depend on the
        argument with the side effect, the update of t must not be lost."""
        r = self.rng
        t = self.sfx_target()
        text, bare, vb, nb = self.sfx_expr(t)
        form = r.choice(["alone", "unit", "konst", "ignore", "ignore"])
        if form == "alone":
            self.emit(r.choice([f"lib::unit({bare});", f"konst({bare});",
                                f"ignore2({bare}, 0);"]))
            self.wrote(t.root, nb)
            return
        with self.hide(t.root):
            e2 = self.expr(2)
            u = self.sfx_dest(t)
            if form == "unit":
                call = E(f"{r.choice(['lib::unit', 'lib::unit<double>'])}"
                         f"({bare})", 1.0)
            elif form == "konst":
                call = E(f"konst({bare})", 0.5)
            else:
                e3 = self.dbl(self.limit(self.expr(2)))
                call = E(f"ignore2({bare}, {e3.text})", e3.bound)
        op = r.choice(["+", "-", "*"])
        val = self.limit(E(f"{call.text} {op} {paren(e2)}",
                           call.bound * e2.bound if op == "*"
                           else call.bound + e2.bound))
        self.put(u, val)
        self.wrote(t.root, nb)

    # refhelpers: helpers returning a reference to their argument.
    def ref_cells(self):
        """Lvalues in scope a reference may bind to: (text, bound, Var root,
        element index or None, writable)."""
        cells = []
        for v in self.vars():
            if getattr(v, "noaddr", False) or v.is_int or v.view:
                continue
            if v.scalar:
                cells.append((v.name, v.bound, v, None, v.assignable))
            elif v.array:
                k = self.rng.randrange(v.length)
                cells.append((f"{v.name}[{k}]", v.bound, v, k,
                              v.assignable))
            elif v.ptr:
                j = self.pick_j(v)
                cells.append((self.ptr_text(v, j), v.root.bound, v.root,
                              v.off + j if v.root.array else None,
                              not v.pconst))
        return cells

    def refread(self):
        """`same(a)`, `csame(p[1])`: a reference to the argument, read."""
        text, b, _, _, writable = self.rng.choice(self.ref_cells())
        fn = "same" if writable and self.chance(0.7) else "csame"
        return E(f"{fn}({text})", b)

    def s_refhelper(self, depth):
        """`same(t) op= e`, `twice(t);`, `u += c * twice(t);`, `if (c) u +=
        twice(t);`, `for (..) u = 0.5 * u + same(t) * e;`, `double &r =
        same(t);`."""
        r = self.rng
        cells = [c for c in self.ref_cells() if c[4]]
        if not cells:
            return
        text, b, root, idx, _ = r.choice(cells)
        cell = Cell(text, "", root, idx)
        cap = self.cap(root)
        kind = r.choice(["assign", "twice", "twiceread", "twiceif", "loop",
                         "bind"])
        if kind == "assign":
            u, nb = self.update(Cell(f"same({text})", "", root, idx))
            self.emit(u + ";")
            self.wrote(root, nb)
            return
        if kind == "bind" and self.on("pointers"):
            name = self.new_name("r")
            self.emit(f"double &{name} = {r.choice(['same', 'twice'])}"
                      f"({text});")
            if root.bound * 2 > cap:
                # (twice may have doubled it)
                self.presquash(Cell(name, "", root, idx), cap / 2)
            self.wrote(root, min(2 * root.bound, cap))
            v = Var(name, 0.0, False, root=root,
                    off=idx if idx is not None else 0, ref=True)
            self.scopes[-1].append(v)
            self.write_through(v)
            return
        if kind in ("twice", "twiceread", "twiceif", "bind"):
            if 2 * root.bound > cap:
                self.presquash(cell, cap / 2)
            b = min(root.bound, cap / 2)   # (of the element)
            if kind in ("twice", "bind"):
                self.emit(f"twice({text});")
                self.wrote(root, 2 * b)
                return
            with self.hide(root):
                us = self.doubles()
                if not us:
                    self.emit(f"twice({text});")
                    self.wrote(root, 2 * b)
                    return
                u = r.choice(us)
                c = self.coef()
                if kind == "twiceif":
                    cond = self.cond(1)
            e = E(f"{c} * twice({text})", 1.5 * 2 * b)
            if u.bound + e.bound > LIMIT:
                self.emit(f"twice({text});")
                self.wrote(root, 2 * b)
                return
            if kind == "twiceif":
                self.emit(f"if ({cond})")
                self.emit(f"  {u.name} += {e.text};")
            else:
                self.emit(f"{u.name} += {e.text};")
            self.set_bound(u, u.bound + e.bound)
            self.wrote(root, 2 * b)
            return
        # A loop reading through the reference: u_k+1 = u_k / 2 + same(t) e.
        with self.hide(root):
            us = self.doubles()
            if not us:
                return
            u = r.choice(us)
            with self.hide(u):
                e = self.squash(self.expr(1), 1.0)
        k = self.new_name("i")
        n = r.randint(1, 4)
        fn = r.choice(["same", "csame"])
        step = self.limit(E(f"{fn}({text}) * {paren(e)}", b * e.bound))
        self.emit(f"for (int {k} = 0; {k} < {n}; ++{k})")
        self.emit(f"  {u.name} = 0.5 * {u.name} + {step.text};")
        self.set_bound(u, u.bound + 2 * step.bound)
        if u.bound > LIMIT:
            q = self.squash(E(u.name, u.bound), LIMIT)
            self.emit(f"{u.name} = {q.text};")
            self.set_bound(u, q.bound)

    # reseat: pointer parameters re-seated.
    def reseat_ok(self):
        """At the top level of a function with `p` or `out` (their offsets
        stay known statically)."""
        if len(self.scopes) != 2 or self.loops or self.switches:
            return False
        return any(v.name in ("p", "out") for v in self.vars()
                   if v in self.scopes[0])

    def s_reseat(self, depth):
        """`p = p + 1;`, `++p;`, `p = out;`, `p = a + 1;`, `p = &t;`, `p =
        *pp;`, `const double *b = p; p = 1 + p; ++b;`, p and a local pointer
        exchanged (`const double *t = p; p = q; q = t;`), then reads through
        p; a walk `s += c * *p; ++p;` or `s += c * take(p);` (a helper
        taking the pointer by reference); or `++out; out[0] op= e; --out;`."""
        r = self.rng
        params = {v.name: v for v in self.scopes[0] if v in self.vars()}
        p, out = params.get("p"), params.get("out")
        if p is None or (out is not None and self.chance(0.25)):
            return self.reseat_out(out)
        if p.array:
            # From here on `p` is a pointer: its first memory is the root.
            pv = Var("p", 0.0, True, root=p, off=0, pconst=True)
            self.scopes[0][self.scopes[0].index(p)] = pv
            p = pv
        t = r.choice(self.doubles())
        L = p.root.length if p.root.array else 1
        moves = []
        if p.off + 1 < L:
            moves += [("++p;", 1), ("p++;", 1), ("p = p + 1;", 1),
                      ("p = 1 + p;", 1)]
        if p.off + 2 < L:
            moves += [("p += 2;", 2)]
        if p.off >= 1:
            moves += [("--p;", -1), ("p -= 1;", -1)]
        kind = r.choice(["move", "move", "other", "other", "pair", "walk",
                         "swap"])
        if kind == "walk" and p.root.array and p.off < L:
            n = r.randint(1, L - p.off)   # (p may end one past the end)
            s = self.new_name("s")
            k = self.new_name("i")
            self.emit(f"double {s} = 0.0;")
            c = self.coef()
            self.emit(f"for (int {k} = 0; {k} < {n}; ++{k})")
            self.emit(r.choice([f"  {s} += {c} * *p++;",
                                f"  {s} += {c} * *p, ++p;",
                                f"  {s} += {c} * take(p);"]))
            p.off += n
            self.fold(t, E(s, 1.5 * n * p.root.bound))
            return
        if kind == "pair" and p.off + 1 < L:
            # The issue's `b = a; a = 1 + a; ++b; s += a[0] + b[0];`.
            b = self.new_name("q")
            self.emit(f"const double *{b} = p;")
            self.emit(r.choice(["p = 1 + p;", "++p;"]))
            self.emit(f"++{b};")
            p.off += 1
            self.fold(t, E(f"p[0] + {self.coef()} * {b}[0]",
                           2.5 * p.root.bound))
            self.scopes[-1].append(Var(b, 0.0, True, root=p.root, off=p.off,
                                       pconst=True))
            return
        if kind == "swap":
            # Pointers assigned each other (ping-pong buffers): p and a
            # local pointer into other memory exchange their targets.
            roots = [v for v in self.vars() if (v.array or v.scalar) and
                     not v.is_int and not getattr(v, "noaddr", False) and
                     v is not p]
            root = r.choice(roots)
            off = r.randrange(root.length) if root.array else 0
            init = (f"&{root.name}" if not root.array else
                    "*pp" if root.name == "(*pp)" and off == 0 else
                    root.name if off == 0 else f"{root.name} + {off}")
            q, tmp = self.new_name("q"), self.new_name("t")
            self.emit(f"const double *{q} = {init};")
            self.emit(f"const double *{tmp} = p;")
            self.emit(f"p = {q};")
            self.emit(f"{q} = {tmp};")
            qv = Var(q, 0.0, True, root=p.root, off=p.off, pconst=True)
            p.root, p.off = root, off
            self.scopes[-1].append(qv)
            lo, hi = self.ptr_span(qv)
            self.fold(t, E(f"{self.coef()} * {self.ptr_text(qv, r.randrange(lo, hi))}",
                           1.5 * qv.root.bound))
        elif kind == "move" and moves:
            text, d = r.choice(moves)
            self.emit(text)
            p.off += d
        else:
            # Another parameter's or a local's memory.
            roots = [v for v in self.vars() if (v.array or v.scalar) and
                     not v.is_int and not getattr(v, "noaddr", False) and
                     v is not p]
            others = [v for v in self.ptr_vars() if not v.ref and v is not p]
            if others and self.chance(0.3):
                q = r.choice(others)
                self.emit(f"p = {q.name};")
                p.root, p.off = q.root, q.off
            else:
                root = r.choice(roots)
                off = r.randrange(root.length) if root.array else 0
                if root.array:
                    init = root.name if off == 0 else r.choice(
                        [f"{root.name} + {off}", f"&{root.name}[{off}]"])
                    if root.name == "(*pp)" and off == 0:
                        init = "*pp"
                else:
                    init = f"&{root.name}"
                self.emit(f"p = {init};")
                p.root, p.off = root, off
        lo, hi = self.ptr_span(p)
        j = r.randrange(lo, hi)
        self.fold(t, E(f"{self.coef()} * {self.ptr_text(p, j)}",
                       1.5 * p.root.bound))

    def reseat_out(self, out):
        """`++out; out[0] op= e; --out;` (out shifted and restored)."""
        if out is None:
            return
        r = self.rng
        fwd, back = r.choice([("++out;", "--out;"), ("out += 1;", "out -= 1;"),
                              ("out = out + 1;", "out = out - 1;")])
        self.emit(fwd)
        k = r.randrange(OUT_LEN)      # the element, of the unshifted out
        text = r.choice([f"out[{k - 1}]"] + (["*out"] if k == 1 else []))
        with self.hide(out):
            u, b = self.update(Cell(text, "", out, k))
        self.emit(u + ";")
        self.wrote(out, b)
        self.emit(back)

    # constmembers: const members taking containers by const reference.
    def s_constmember(self, depth):
        """A layer chain `h = l1.forward(h); h = l2.forward(h);` (const
        members taking `const std::vector<double> &`), `l.score(h)` before
        and after h changes, `Net{{w..}}.eval(h)` (an object with a
        container member), `f.energy(ps)` over a `std::vector<CV>` before
        and after it changes, and `l.apply(a, n)` over `const double *`
        (also an array in scope that later statements change)."""
        r = self.rng
        t = r.choice(self.doubles())
        kind = r.choice(["chain", "chain", "score", "energy", "apply",
                         "applyscope"])
        n = self.nlocals + 1
        self.nlocals += 1
        if kind == "applyscope":
            srcs = [v for v in self.vars() if v.array or
                    (v.ptr and not v.ref and v.root.array)]
            if srcs:
                rg = self.pick_range(r.randint(1, 2), False)
                if rg is not None:
                    w, b = [self.dbl(self.squash(self.expr(1), 1.0))
                            for _ in range(2)]
                    s = self.new_name("sa")
                    B = rg.root.bound
                    e = self.limit(E(f"Layer{{{w.text}, {b.text}}}.apply("
                                     f"{rg.text}, {rg.n})",
                                     rg.n * (B * B + B)))
                    self.emit(f"double {s} = {e.text};")
                    self.scopes[-1].append(Var(s, e.bound))
                    return
            kind = "apply"
        self.open_block()
        ws = [self.dbl(self.squash(self.expr(1), 1.0)) for _ in range(4)]
        if kind in ("chain", "score"):
            es = [self.arg2() for _ in range(3)]
            h = f"hv{n}"
            self.emit(f"std::vector<double> {h}{{"
                      f"{', '.join(e.text for e in es)}}};")
            self.emit(f"const Layer la{n}{{{ws[0].text}, {ws[1].text}}}, "
                      f"lb{n}{{{ws[2].text}, {ws[3].text}}};")
            if kind == "chain":
                steps = r.choice([["a", "b"], ["a", "b", "a"], ["b", "a"]])
                if self.chance(0.3):
                    k = self.new_name("i")
                    self.emit(f"for (int {k} = 0; {k} < {r.randint(1, 3)}; "
                              f"++{k})")
                    self.emit(f"  {h} = la{n}.forward({h});")
                for s in steps:
                    self.emit(f"{h} = l{s}{n}.forward({h});")
                self.fold(t, E(f"{self.coef()} * {h}[{r.randrange(3)}] + "
                               f"{self.coef()} * {h}[{r.randrange(3)}]", 3.0))
                return self.close_block()
            # score before and after h changes (also through Net).
            net = self.chance(0.5)
            if net:
                self.emit(f"const Net nt{n}{{{{{ws[0].text}, {ws[2].text}, "
                          f"{ws[3].text}}}}};")
                call = f"nt{n}.eval({h})"
            else:
                call = f"la{n}.score({h})"
            self.emit(f"double sa{n} = {call};")
            j = r.randrange(3)
            e = self.dbl(self.squash(self.expr(1), 1.0))
            self.emit(f"{h}[{j}] {r.choice(['=', '*='])} {e.text};")
            self.emit(f"double sb{n} = {call};")
            self.fold(t, E(f"{self.coef()} * sa{n} + {self.coef()} * sb{n}",
                           2 * 1.5 * 12.0))
            return self.close_block()
        if kind == "energy":
            es = [self.arg2(1) for _ in range(6)]
            self.emit(f"std::vector<CV> ps{n}{{{{{es[0].text}, {es[1].text}, "
                      f"{es[2].text}}}, {{{es[3].text}, {es[4].text}, "
                      f"{es[5].text}}}}};")
            self.emit(f"const Field fd{n}{{{ws[0].text}}};")
            self.emit(f"double ea{n} = fd{n}.energy(ps{n});")
            e = self.arg2(1)
            self.emit(r.choice([f"ps{n}[0].x = {e.text};",
                                f"ps{n}[1].z *= 0.5 * {paren(e)};",
                                f"ps{n}[1] = CV{{{e.text}, 0.5, -1.0}};"]))
            self.emit(f"double eb{n} = fd{n}.energy(ps{n});")
            self.fold(t, E(f"0.125 * ea{n} - 0.0625 * eb{n}",
                           0.1875 * 16.0))
            return self.close_block()
        # const double *: l.apply(h, 3) before and after h changes.
        es = [self.arg2(1) for _ in range(3)]
        self.emit(f"double hd{n}[3] = {{{', '.join(e.text for e in es)}}};")
        self.emit(f"const Layer la{n}{{{ws[0].text}, {ws[1].text}}};")
        self.emit(f"double sa{n} = la{n}.apply(hd{n}, 3);")
        e = self.arg2(1)
        self.emit(f"hd{n}[{r.randrange(3)}] = {e.text};")
        self.fold(t, E(f"0.125 * sa{n} + 0.0625 * la{n}.apply(hd{n}, 3)",
                       0.1875 * 18.0))
        self.close_block()

    def open_block(self):
        """`{` half of the time: a construct in a block of its own, or in
        the enclosing scope (the block changed what the plugin got wrong;
        the names are unique either way)."""
        braced = self.chance(0.5)
        self.braces.append(braced)
        if braced:
            self.emit("{")
            self.indent += 1

    def close_block(self):
        if self.braces.pop():
            self.indent -= 1
            self.emit("}")

    # genlambdas: generic lambdas.
    def s_genlambda(self, depth):
        """`auto g = [](auto u) { ... };` called once, twice with different
        arguments, capturing (`[&c]`, `[c]`, `[=]`, `[&]`), of two `auto`
        parameters, writing through `auto &`, passed to `apply2(g, e)`."""
        r = self.rng
        t = r.choice(self.doubles())
        g = self.new_name("gl")
        kind = r.choice(["one", "twice", "capture", "helper", "two", "ref"])
        if kind == "ref":
            c = t
            e = self.arg2()
            self.emit(f"auto {g} = [](auto &u, auto v) {{ u = 0.5 * "
                      f"std::tanh(u + v); }};")
            self.emit(f"{g}({c.name}, {e.text});")
            self.set_bound(c, 0.5)
            return
        if kind == "two":
            self.emit(f"auto {g} = [](auto u, auto v) {{ return u * v + "
                      f"0.5 * u; }};")
            a, b = self.arg2(), self.arg2()
            self.fold(t, E(f"{self.coef()} * {g}({a.text}, {b.text})",
                           1.5 * 5.0))
            return
        bodies = [("u * u", 4.0), ("u * std::sin(u)", 2.0),
                  ("std::exp(0.5 * u)", math.e), ("u / (1.0 + u * u)", 0.5)]
        body, bound = r.choice(bodies)
        if kind == "capture":
            cands = self.lambda_vars()
            c = r.choice(cands) if cands else None
            if c is not None:
                cap = r.choice([f"&{c.name}", c.name, "=", "&"])
                self.emit(f"auto {g} = [{cap}](auto u) {{ return 0.5 * "
                          f"std::tanh(u * {c.name}) + {body}; }};")
                bound += 0.5
                if self.chance(0.5) and c is not t:
                    # Assigned between the lambda and its call (by
                    # reference the call sees the new value, by value the
                    # old one).
                    e = self.arg2(1)
                    self.emit(f"{c.name} = {e.text};")
                    self.set_bound(c, e.bound)
            else:
                self.emit(f"auto {g} = [](auto u) {{ return {body}; }};")
        else:
            self.emit(f"auto {g} = [](auto u) {{ return {body}; }};")
        a = self.arg2()
        if kind == "twice":
            b = self.arg2()
            second = r.choice([f"{g}({b.text})", f"{g}(2 * {paren(a)})"])
            if "2 *" in second:
                # (the argument is in [-4, 4]: bounded through tanh)
                second = f"std::tanh({second})"
            self.fold(t, E(f"{g}({a.text}) + {self.coef()} * {second}",
                           bound + 1.5 * max(bound, 1.0)))
        elif kind == "helper":
            self.fold(t, E(f"apply2({g}, {a.text})", 1.5 * bound))
        else:
            self.fold(t, E(f"{self.coef()} * {g}({a.text})", 1.5 * bound))

    # passed: lambdas passed to function templates.
    def s_passed(self, depth):
        """`sum3(g, e)`, `viaSum(g, e)`, `both(g, h, e)`, a lambda written in
        the call, `each3([&](double u) { acc += ...; }, e)`."""
        r = self.rng
        t = r.choice(self.doubles())
        cands = self.lambda_vars()
        c = r.choice(cands) if cands else None
        bodies = [("u * u", 4.0), ("u * std::sin(u)", 2.0),
                  ("std::exp(0.5 * u)", math.e), ("u / (1.0 + u * u)", 0.5)]
        body, bound = r.choice(bodies)
        kind = r.choice(["sum3", "viasum", "both", "inplace", "accum"])
        a = self.arg2()
        if c is None:
            lam = f"[](double u) {{ return {body}; }}"
            cap_name = None
        else:
            cap = r.choice(["&", "=", f"&{c.name}", c.name])
            lam = (f"[{cap}](double u) {{ return 0.5 * std::tanh(u * "
                   f"{c.name}) + {body}; }}")
            bound += 0.5
            cap_name = c.name
        if kind == "accum":
            acc = self.new_name("acc")
            w = cap_name or "u"
            self.emit(f"double {acc} = 0;")
            self.emit(f"each3([&](double u) {{ {acc} += 0.25 * std::tanh(u "
                      f"* {w}) + 0.125 * {body}; }}, {a.text});")
            self.fold(t, E(f"{self.coef()} * {acc}", 0.75 + 0.375 * bound))
            return
        if kind == "inplace":
            self.fold(t, E(f"{self.coef()} * sum3({lam}, {a.text})",
                           2.5 * bound))
            return
        g = self.new_name("pl")
        self.emit(f"auto {g} = {lam};")
        if kind == "sum3":
            self.fold(t, E(f"{self.coef()} * sum3({g}, {a.text})",
                           2.5 * bound))
        elif kind == "viasum":
            self.fold(t, E(f"{self.coef()} * viaSum({g}, {a.text})",
                           3.5 * bound))
        else:
            h = self.new_name("pl")
            hc = cap_name or "0.5"
            self.emit(f"auto {h} = [&](double u) {{ return std::tanh(u * "
                      f"{hc}); }};")
            self.fold(t, E(f"{self.coef()} * both({g}, {h}, {a.text})",
                           0.5 * bound + 1.0))

    # bound: callables bound to pointer and std::function parameters.
    def s_bound(self, depth):
        """`ptr3(fsq, e)`, `ptr3(&fbump, e)`, `viaPtr(fbump, e)`, a
        captureless lambda to a pointer, `fn3([&](double u) { ... }, e)`,
        `fn3(fsq, e)`."""
        r = self.rng
        t = r.choice(self.doubles())
        a = self.arg2()
        fn, fb = r.choice([("fsq", 2.0), ("fbump", 0.5)])
        kind = r.choice(["ptr", "addr", "via", "lam", "fn", "fnname",
                         "transform", "accumulate", "inner"])
        if kind in ("transform", "accumulate", "inner"):
            self.s_bound_algorithm(kind, t, a)
            return
        if kind == "ptr":
            text, bound = f"ptr3({fn}, {a.text})", 1.5 * fb
        elif kind == "addr":
            text, bound = f"ptr3(&{fn}, {a.text})", 1.5 * fb
        elif kind == "via":
            text, bound = f"viaPtr({fn}, {a.text})", 2.5 * fb
        elif kind == "lam":
            text = f"ptr3([](double u) {{ return u * std::sin(u); }}, {a.text})"
            bound = 3.0
        elif kind == "fnname":
            text, bound = f"fn3({fn}, {a.text})", 3.0 * fb
        else:
            cands = self.lambda_vars()
            c = r.choice(cands) if cands else None
            if c is None:
                lam = "[](double u) { return u / (1.0 + u * u); }"
                bound = 1.5
            else:
                cap = r.choice(["&", "=", f"&{c.name}", c.name])
                lam = (f"[{cap}](double u) {{ return 0.5 * std::tanh(u * "
                       f"{c.name}) + u / (1.0 + u * u); }}")
                bound = 3.0
            text = f"fn3({lam}, {a.text})"
        self.fold(t, E(f"{self.coef()} * {text}", bound))

    def s_bound_algorithm(self, kind, t, a):
        """`std::transform(xs, xs + 3, ys, [&](double u) { ... })` over a
        local array or vector, `std::accumulate(..., 0.0, lambda)`,
        `std::inner_product(..., 0.0, std::plus<>(), lambda)`."""
        r = self.rng
        xs = self.new_name("xs")
        cands = self.lambda_vars()
        c = r.choice(cands) if cands else None
        w = c.name if c else "0.5"
        cap = r.choice(["&", "="]) if c else ""
        vec = r.random() < 0.5
        if vec:
            self.emit(f"std::vector<double> {xs}{{{a.text}, 0.5 * {a.text}, "
                      f"0.25}};")
            first, last = f"{xs}.begin()", f"{xs}.end()"
        else:
            self.emit(f"double {xs}[3] = {{{a.text}, 0.5 * {a.text}, 0.25}};")
            first, last = xs, f"{xs} + 3"
        if kind == "transform":
            ys = self.new_name("ys")
            self.emit(f"double {ys}[3];")
            self.emit(f"std::transform({first}, {last}, {ys}, [{cap}](double "
                      f"u) {{ return std::tanh(u * {w}) + 0.5 * u; }});")
            self.fold(t, E(f"{self.coef()} * ({ys}[0] + {ys}[1] * {ys}[2])",
                           4.0))
        elif kind == "accumulate":
            self.fold(t, E(f"{self.coef()} * std::accumulate({first}, "
                           f"{last}, 0.0, [{cap}](double s, double u) {{ "
                           f"return s + std::tanh(u * {w}) * u; }})", 6.0))
        else:
            self.fold(t, E(f"{self.coef()} * std::inner_product({first}, "
                           f"{last}, {first}, 0.0, std::plus<>(), [{cap}]("
                           f"double u, double v) {{ return u * std::tanh(v * "
                           f"{w}); }})", 6.0))

    # rvalues: `double &&` parameters, std::move, std::forward, std::exchange.
    def s_rvalue(self, depth):
        """`scaled(e * e, e)` (a temporary bound to `double &&`),
        `scaled(std::move(u), e)` then u read (the callee changed it),
        `twice(e, e)` / `twice(u, e)` (a forwarding reference, rvalue or
        lvalue), `double o = std::exchange(p, e);` then o and p read."""
        r = self.rng
        t = r.choice(self.doubles())
        a, b = self.arg2(), self.arg2()
        kind = r.choice(["temp", "moved", "fwd", "fwdref", "exchange"])
        if kind == "temp":
            # (A prvalue: `scaled(y, e)` does not bind an lvalue.)
            self.fold(t, E(f"{self.coef()} * scaled(0.5 * ({a.text}), "
                           f"{b.text})", 4.5))
            return
        if kind == "fwd":
            self.fold(t, E(f"0.25 * twice({a.text}, {b.text})", 2.0))
            return
        self.open_block()
        u, w = self.new_name("u"), self.new_name("w")
        self.emit(f"double {u} = {a.text};")
        if kind == "moved":
            self.emit(f"double {w} = scaled(std::move({u}), {b.text});")
            self.fold(t, E(f"0.25 * ({w} + {u})", 2.25))
        elif kind == "fwdref":
            self.emit(f"double {w} = twice({u}, {b.text});")
            self.fold(t, E(f"0.25 * ({w} + {u})", 2.5))
        else:
            self.emit(f"double {w} = std::exchange({u}, {b.text});")
            self.fold(t, E(f"0.5 * {w} * {u} + 0.25 * {u}", 2.5))
        self.close_block()

    # positions: iterator locals that only mark a position.
    def s_position(self, depth):
        """`auto it = std::lower_bound(v.begin(), v.end(), c);` (also
        upper_bound, find_if with a capture-free predicate) over a local
        std::vector of differentiated values, compared, stepped (`--it`,
        std::prev, std::advance, `it += 0`) and measured (`it - v.begin()`,
        std::distance); the element at that index folded into a variable."""
        r = self.rng
        t = r.choice(self.doubles())
        es = [self.arg2(1) for _ in range(4)]
        v, it, k = self.new_name("pv"), self.new_name("it"), self.new_name("k")
        self.open_block()
        self.emit(f"std::vector<double> {v}{{"
                  f"{', '.join(e.text for e in es)}}};")
        c = r.choice(["0.0", "0.5", "-0.5", "1.0"])
        search = r.choice(["lower_bound", "upper_bound", "find_if"])
        if search == "find_if":
            self.emit(f"auto {it} = std::find_if({v}.begin(), {v}.end(), "
                      f"[](double q) {{ return q > {c}; }});")
        else:
            self.emit(f"auto {it} = std::{search}({v}.begin(), {v}.end(), "
                      f"{c});")
        # Back inside the range.
        self.emit(r.choice([f"if ({it} == {v}.end()) --{it};",
                            f"if ({it} == {v}.end()) {it} = std::prev({it});",
                            f"if (!({it} < {v}.end())) {it} -= 1;"]))
        step = r.choice(["", f"if ({it} != {v}.begin()) --{it};",
                         f"std::advance({it}, 0);",
                         f"if ({it} > {v}.begin() && {it} - {v}.begin() > 2) "
                         f"{it} = std::prev({it}, 2);"])
        if step:
            self.emit(step)
        self.emit(r.choice([f"long {k} = {it} - {v}.begin();",
                            f"long {k} = std::distance({v}.begin(), {it});"]))
        self.fold(t, E(f"{self.coef()} * {v}[{k}] * {v}[0]", 6.0))
        self.close_block()

    # runalias: reference arguments that alias only at run time.
    def s_runalias(self, depth):
        """`upd(a[i], a[j])`, `updp(a + i, a + j)`, `std::swap(a[i], a[j])`
        where i == j only at some points (indices from loop counters or
        conditions), over arrays in scope or a local std::vector."""
        r = self.rng
        t = r.choice(self.doubles())
        arrays = [v for v in self.vars() if v.array and v.assignable and
                  v.length >= 2]
        vec = not arrays or self.chance(0.3)
        self.open_block()
        self.scopes.append([])
        if vec:
            es = [self.arg2(1) for _ in range(3)]
            name = self.new_name("av")
            self.emit(f"std::vector<double> {name}{{"
                      f"{', '.join(e.text for e in es)}}};")
            # (Not in scope: the other statements take arrays for raw
            # memory.)
            a = Var(name, 2.0, True, True, length=3, depth=len(self.loops))
        else:
            a = r.choice(arrays)
        L = a.length
        ints = [v for v in self.vars() if v.is_int]
        idx = []
        for _ in range(2):
            if ints and self.chance(0.6):
                idx.append(self.index(L))
            else:
                k = self.new_name("k")
                c = self.cond(1)
                i, j = r.randrange(L), r.randrange(L)
                self.emit(f"int {k} = {c} ? {i} : {j};")
                idx.append(k)
        i, j = idx
        cap = self.cap(a)
        kind = r.choice(["upd", "upd", "updp", "swap"])
        if kind == "swap":
            self.emit(f"std::swap({a.name}[{i}], {a.name}[{j}]);")
        elif kind == "upd":
            # a += 0.5 b; b *= 0.75: at most 1.5 times the bound.
            m = a.bound
            if 1.5 * m > cap:
                m = cap / 1.5
                for k in (i, j):
                    self.presquash(Cell(f"{a.name}[{k}]", "", a, None), m)
            # (Guarded: the pullback of upd aborts when its references
            # are one element, test/memory/runtime-aliased-arguments.cpp.)
            self.emit(f"if ({i} != {j}) upd({a.name}[{i}], {a.name}[{j}]);")
            self.wrote(a, 1.5 * m)
        else:
            # *a = 0.5 * (*a + tanh(*b))
            nb = max(a.bound, 0.5 * (a.bound + 1.0))
            if nb > cap:
                self.scopes.pop()
                return self.close_block()
            ai = (a.name if i == "0" and not vec else
                  f"{a.name} + {i}" if not vec else f"&{a.name}[{i}]")
            self.emit(f"updp({ai}, &{a.name}[{j}]);")
            self.wrote(a, nb)
        self.fold(t, E(f"{self.coef()} * {a.name}[{r.randrange(L)}] + "
                       f"{self.coef()} * {a.name}[{r.randrange(L)}]",
                       3.0 * a.bound))
        self.scopes.pop()
        self.close_block()

    # preinc: *++p, *--p, *p++ in expressions and as write targets.
    def s_preinc(self, depth):
        """A pointer walked by `*++q`, `*--q`, `*q++`, `*q--` in reads
        (`t += c * *++q;`) and writes (`*++w = e;`, `*w++ *= e;`), then kept
        in scope; a backward Horner loop `s = s * u + *--q`; or
        `std::partial_sum` / `std::adjacent_difference` over a range into
        a new array (or in place)."""
        r = self.rng
        kind = r.choice(["walk", "walk", "horner", "scan"])
        arrays = [v for v in self.vars() if v.array and v.length >= 2]
        if not arrays:
            arrays = [self.fresh_array(r.choice([3, 4]))]
        a = r.choice(arrays)
        L = a.length
        t = r.choice(self.doubles())
        if kind == "horner":
            with self.hide(t):
                u = self.squash(self.expr(1), 0.5)
            s, q = self.new_name("s"), self.new_name("q")
            self.emit(f"double {s} = 0.0;")
            self.emit(f"const double *{q} = {a.name} + {L};")
            if self.chance(0.5):
                self.emit(f"while ({q} != {a.name})")
            else:
                k = self.new_name("i")
                self.emit(f"for (int {k} = 0; {k} < {L}; ++{k})")
            self.emit(f"  {s} = {s} * {paren(u)} + *--{q};")
            self.fold(t, E(f"{self.coef()} * {s}", 1.5 * 2 * a.bound))
            return
        if kind == "scan":
            n = r.randint(2, L)
            src = self.pick_range(n, False)
            fn = r.choice(["partial_sum", "adjacent_difference"])
            k = n if fn == "partial_sum" else 2
            bound = k * src.root.bound
            if self.chance(0.3):
                # In place, over a writable range.
                dst = self.pick_range(n, True)
                if dst is not None and dst.root.array and \
                        self.can_grow(dst.root) and \
                        k * dst.root.bound <= LIMIT:
                    self.emit(f"std::{fn}({dst.text}, {dst.text} + {n}, "
                              f"{dst.text});")
                    self.wrote(dst.root, k * dst.root.bound)
                    return
            d = self.new_name("ps")
            self.emit(f"double {d}[{n}];")
            self.emit(f"std::{fn}({src.text}, {src.text} + {n}, {d});")
            dv = Var(d, bound, True, True, length=n, depth=len(self.loops))
            if bound > LIMIT:
                for k in range(n):
                    self.presquash(Cell(f"{d}[{k}]", "", dv, k), LIMIT)
                dv.bound = LIMIT
            self.scopes[-1].append(dv)
            self.fold(t, E(f"{self.coef()} * {d}[{r.randrange(n)}]",
                           1.5 * dv.bound))
            return
        writable = a.assignable and self.chance(0.5)
        name = self.new_name("w" if writable else "q")
        off = r.randrange(L)
        self.emit(f"{'' if writable else 'const '}double *{name} = "
                  f"{a.name}{f' + {off}' if off else ''};")
        for _ in range(r.randint(1, 3)):
            ops = []
            if off + 1 < L:
                ops += [("*++{}", 1, 1), ("*{}++", 0, 1)]
            if off >= 1:
                ops += [("*--{}", -1, -1), ("*{}--", 0, -1)]
            if not ops:
                break
            form, at, step = r.choice(ops)
            text = form.format(name)
            elem = off + at
            off += step
            if writable and self.chance(0.5):
                # (No presquash through the moving pointer: `=`, or `+=` of
                # what fits.)
                cap = self.cap(a)
                with self.hide(a):
                    e = self.expr(2)
                if cap - a.bound >= 0.25 and self.chance(0.4):
                    e = self.squash(e, cap - a.bound)
                    self.emit(f"{text} += {e.text};")
                    self.wrote(a, a.bound + e.bound)
                else:
                    e = self.squash(self.limit(e), cap)
                    self.emit(f"{text} = {e.text};")
                    self.wrote(a, e.bound)
            else:
                with self.hide(a):
                    e = self.expr(1)
                self.fold(t, r.choice([
                    E(f"{self.coef()} * {text}", 1.5 * a.bound),
                    E(f"{text} * {paren(e)}", a.bound * e.bound)]))
        self.scopes[-1].append(Var(name, 0.0, True, root=a, off=off,
                                   pconst=not writable))

    # functional: <functional> objects and the numeric algorithms.
    def functor(self, d):
        """`std::multiplies<double>()(a, b)`, `std::plus<>()(a, b)`,
        `std::minus<double>{}(a, b)`, `std::negate<double>()(a)`,
        `std::divides<double>()(a, d)`."""
        r = self.rng
        # (`double(i)` as an argument would make `(std::negate<>()(double(i)))
        # * e` a cast of `* e` to a function type.)
        a, b = [E(f"{paren(e)} * 1.0", e.bound) if e.is_int else e
                for e in (self.expr(d), self.expr(d))]
        T = r.choice(["<double>", "<>"])
        call = r.choice(["()", "{}"])
        k = r.choice(["multiplies", "plus", "minus", "negate", "divides"])
        if k == "multiplies":
            return self.limit(E(f"std::multiplies{T}{call}({a.text}, "
                                f"{b.text})", a.bound * b.bound))
        if k in ("plus", "minus"):
            return self.limit(E(f"std::{k}{T}{call}({a.text}, {b.text})",
                                a.bound + b.bound))
        if k == "negate":
            return E(f"std::negate{T}{call}({a.text})", a.bound)
        text, lo = self.denom(max(d - 1, 0))
        return E(f"std::divides<double>{call}({a.text}, {text})",
                 a.bound / lo)

    def s_numeric(self, depth):
        """std::accumulate (plus, multiplies, minus), std::reduce,
        std::inner_product (also with plus/multiplies or plus/minus),
        std::transform with multiplies / plus / negate, std::inclusive_scan
        / exclusive_scan (also with multiplies), over ranges in scope,
        into a new array (or in place) or folded into a variable."""
        r = self.rng
        n = r.randint(2, 3)
        if not self.pick_range(n, False, dry=True):
            self.fresh_array(3)
        a = self.pick_range(n, False)
        if a is None:
            return
        B = max(a.root.bound, 1e-9)
        t = r.choice(self.doubles())
        end = f"{a.text} + {n}"
        kind = r.choice(["accumulate", "reduce", "inner", "transform",
                         "scan"])
        if kind == "accumulate":
            op = r.choice(["", "plus", "multiplies", "minus"])
            init = self.arg2(1)
            if op == "":
                e = E(f"std::accumulate({a.text}, {end}, {init.text})",
                      init.bound + n * B)
            elif op == "multiplies":
                init = E(r.choice(["1.0", "0.5"]), 1.0)
                e = E(f"std::accumulate({a.text}, {end}, {init.text}, "
                      f"std::multiplies<{r.choice(['double', ''])}>())",
                      B ** n)
            else:
                e = E(f"std::accumulate({a.text}, {end}, {init.text}, "
                      f"std::{op}<double>())", init.bound + n * B)
            return self.fold(t, E(f"{self.coef()} * {paren(self.limit(e))}",
                                  1.5 * min(e.bound, LIMIT)))
        if kind == "reduce":
            form = r.randrange(3)
            if form == 0:
                e = E(f"std::reduce({a.text}, {end})", n * B)
            elif form == 1:
                init = self.arg2(1)
                e = E(f"std::reduce({a.text}, {end}, {init.text})",
                      init.bound + n * B)
            else:
                e = E(f"std::reduce({a.text}, {end}, 1.0, "
                      f"std::multiplies<>())", B ** n)
            return self.fold(t, E(f"{self.coef()} * {paren(self.limit(e))}",
                                  1.5 * min(e.bound, LIMIT)))
        if kind == "inner":
            b = self.pick_range(n, False)
            Bb = b.root.bound
            init = self.arg2(1)
            form = r.randrange(3)
            if form == 0:
                e = E(f"std::inner_product({a.text}, {end}, {b.text}, "
                      f"{init.text})", init.bound + n * B * Bb)
            elif form == 1:
                e = E(f"std::inner_product({a.text}, {end}, {b.text}, "
                      f"{init.text}, std::plus<>(), std::multiplies<>())",
                      init.bound + n * B * Bb)
            else:
                e = E(f"std::inner_product({a.text}, {end}, {b.text}, "
                      f"{init.text}, std::plus<double>(), "
                      f"std::minus<double>())", init.bound + n * (B + Bb))
            return self.fold(t, E(f"{self.coef()} * {paren(self.limit(e))}",
                                  1.5 * min(e.bound, LIMIT)))
        d = self.new_name("nd")
        if kind == "transform":
            form = r.randrange(3)
            if form == 2:
                call = (f"std::transform({a.text}, {end}, {d}, "
                        f"std::negate<double>())")
                bound = B
            else:
                b = self.pick_range(n, False)
                op = "multiplies" if form == 0 else "plus"
                call = (f"std::transform({a.text}, {end}, {b.text}, {d}, "
                        f"std::{op}<{r.choice(['double', ''])}>())")
                bound = B * b.root.bound if form == 0 else B + b.root.bound
        else:
            form = r.randrange(4)
            if form == 0:
                call = f"std::inclusive_scan({a.text}, {end}, {d})"
                bound = n * B
            elif form == 1:
                call = (f"std::inclusive_scan({a.text}, {end}, {d}, "
                        f"std::multiplies<>())")
                bound = max(B, B ** n)
            elif form == 2:
                init = self.arg2(1)
                call = (f"std::exclusive_scan({a.text}, {end}, {d}, "
                        f"{init.text})")
                bound = init.bound + n * B
            else:
                call = (f"std::exclusive_scan({a.text}, {end}, {d}, 1.0, "
                        f"std::multiplies<double>())")
                bound = max(1.0, B ** n)
        self.emit(f"double {d}[{n}];")
        self.emit(call + ";")
        dv = Var(d, bound, True, True, length=n, depth=len(self.loops))
        if bound > LIMIT:
            for k in range(n):
                self.presquash(Cell(f"{d}[{k}]", "", dv, k), LIMIT)
            dv.bound = LIMIT
        self.scopes[-1].append(dv)
        self.fold(t, E(f"{self.coef()} * {d}[{r.randrange(n)}]",
                       1.5 * dv.bound))

    # bits: copies of the bits of values.
    def s_bits(self, depth):
        """A double's bits through an integer and back (`std::bit_cast`,
        `std::memcpy` into a `std::uint64_t`: refused for differentiated
        values, fine for constants), `std::memcpy` of doubles into doubles
        (an array copied whole, one element), `std::memset` of a scratch
        array to zero before it is filled."""
        r = self.rng
        t = r.choice(self.doubles())
        kind = r.choice(["bitcast", "memcpybits", "constbits", "copyarray",
                         "copyone", "memset"])
        self.open_block()
        u, y = self.new_name("u"), self.new_name("y")
        if kind in ("bitcast", "memcpybits"):
            x = self.squash(self.expr(1), 1.0)
            self.emit(f"double {y} = {self.dbl(x).text};")
            self.emit(f"std::uint64_t {u};")
            if kind == "bitcast":
                self.emit(f"{u} = std::bit_cast<std::uint64_t>({y});")
                self.emit(f"{y} = std::bit_cast<double>({u});")
            else:
                self.emit(f"std::memcpy(&{u}, &{y}, sizeof {u});")
                self.emit(f"std::memcpy(&{y}, &{u}, sizeof {y});")
            self.fold(t, E(f"{self.coef()} * {y}", 1.5 * 1.0))
        elif kind == "constbits":
            # 0.5 and 0.25 from their bits.
            self.emit(f"std::uint64_t {u} = 0x3fe0000000000000ULL;")
            self.emit(f"double {y} = std::bit_cast<double>({u});")
            self.emit(f"std::memcpy(&{u}, &{y}, sizeof {u});")
            self.emit(f"{u} -= 0x0010000000000000ULL;")
            self.emit(f"{y} += std::bit_cast<double>({u});")
            x = self.squash(self.expr(1), 1.0)
            self.fold(t, E(f"{y} * {paren(self.dbl(x))}", 0.75))
        elif kind in ("copyarray", "copyone"):
            arrays = [v for v in self.vars() if v.array and v.length >= 2]
            if not arrays:
                arrays = [self.fresh_array(r.choice([2, 3]))]
            a = r.choice(arrays)
            n = a.length
            self.emit(f"double {y}[{n}];")
            if kind == "copyarray":
                self.emit(f"std::memcpy({y}, {a.name}, sizeof {y});")
            else:
                self.emit(f"{y}[0] = 0.0;")
                for k in range(1, n):
                    self.emit(f"{y}[{k}] = 0.5;")
                self.emit(f"std::memcpy(&{y}[{n - 1}], &{a.name}[0], "
                          f"sizeof(double));")
            k = r.randrange(n)
            self.fold(t, E(f"{self.coef()} * {y}[{k}] * {y}[{n - 1}]",
                           1.5 * max(a.bound, 0.5) ** 2))
        else:
            n = r.choice([2, 3])
            x = self.squash(self.expr(1), 1.0)
            self.emit(f"double {y}[{n}];")
            self.emit(f"std::memset({y}, 0, sizeof {y});")
            self.emit(f"{y}[{r.randrange(n)}] = {self.dbl(x).text};")
            self.fold(t, E(f"{self.coef()} * ({' + '.join(f'{y}[{k}]' for k in range(n))})",
                           1.5 * 1.0))
        self.close_block()

    # mutablemembers: a mutable member written by const members.
    def s_mutable(self, depth):
        """`const Cache c{e};` (`mutable double last`): `c.eval(x)` (`last
        = a * x; return last * x;`), `c.sq(x)` (`last = a * x * x; return
        last;`), `c.acc(x)` (reads the previous `last`), read as `c.last`
        and `c.prev()` and overwritten by a second call (also in a loop)."""
        r = self.rng
        t = r.choice(self.doubles())
        c = self.new_name("ch")
        a = self.squash(self.expr(1), 1.0)
        self.open_block()
        self.emit(f"{r.choice(['const ', ''])}Cache {c}{{"
                  f"{self.dbl(a).text}}};")
        terms, bound = [], 0.0
        for k in range(r.randint(2, 3)):
            m = r.choice(["eval", "sq", "acc"])
            x = self.arg2(1)
            u = self.new_name("u")
            if m == "acc" and self.chance(0.3):
                i = self.new_name("i")
                self.emit(f"double {u} = 0.0;")
                self.emit(f"for (int {i} = 0; {i} < {r.randint(1, 3)}; "
                          f"++{i})")
                self.emit(f"  {u} += 0.25 * {c}.acc({x.text});")
                ub = 3 * 0.25 * 16
            else:
                self.emit(f"double {u} = {c}.{m}({x.text});")
                ub = 16.0 if m == "acc" else 4.0
            read = r.choice([f"{c}.last", f"{c}.prev()", f"{c}.calls"])
            terms.append(f"{self.coef()} * {u}")
            terms.append(f"0.25 * {read}")
            bound += 1.5 * ub + 0.25 * 4 * 3
        self.fold(t, E(" + ".join(terms), bound))
        self.close_block()

    # refmethods: member functions writing their reference arguments.
    def s_refmethod(self, depth):
        """`RStep s{a}; double e = x;` then `s.step(e)` / `s.pull(e)` (members
        writing a `double &`, also in a loop and on array elements `w[j]`),
        `ad.advance(st)` (a const member writing a `RState &`), folded
        with the object's member into a double in scope."""
        r = self.rng
        t = r.choice(self.doubles())
        s, e, w, st = (self.new_name(c) for c in ("rs", "re", "rw", "rt"))
        a = self.squash(self.expr(1), 1.0)
        x = self.squash(self.expr(1), 1.0)
        self.open_block()
        self.emit(f"RStep {s}{{{self.dbl(a).text}}};")
        self.emit(f"double {e} = {self.dbl(x).text};")
        self.emit(f"double {w}[2] = {{{e}, 0.5 * {e}}};")
        self.emit(f"RState {st}{{{e}, {s}.k}};")
        self.emit(f"const RAdv {st}a{{0.125}};")
        for _ in range(r.randint(1, 3)):
            form = r.choice(["step", "pull", "loop", "elem", "adv"])
            if form == "step":
                self.emit(f"{s}.step({e});")
            elif form == "pull":
                self.emit(f"{s}.pull({e});")
            elif form == "loop":
                i = self.new_name("i")
                self.emit(f"for (int {i} = 0; {i} < {r.randint(1, 3)}; "
                          f"++{i})")
                self.emit(f"  {s}.step({r.choice([e, w + '[' + i + ' % 2]'])});")
            elif form == "elem":
                self.emit(f"{s}.step({w}[{r.randint(0, 1)}]);")
            else:
                self.emit(f"{st}a.advance({st});")
        # |k| <= 1, |e|, |w[j]| <= 2, |st.p|, |st.v| <= 2.
        self.fold(t, E(f"{self.coef()} * {e} + {self.coef()} * {s}.k + "
                       f"0.5 * {w}[0] * {w}[1] + 0.25 * {st}.p * {st}.v",
                       1.5 * 2 + 1.5 + 0.5 * 4 + 0.25 * 4))
        self.close_block()

    # --- functions ---------------------------------------------------------
    def function(self, name, annotated, protos):
        arity = self.rng.randint(1, 4)
        params = [Var(p, ARG_LIMIT, self.on("overwrite")) for p in PARAMS[:arity]]
        array_at = None
        if (self.on("arrays") or self.mem_arrays() or self.on("reseat")) \
                and self.chance(0.5):
            array_at = self.rng.randint(0, arity)
            params.insert(array_at, Var("p", ARG_LIMIT, False, True,
                                        length=PARAM_ARRAY))
        void = False
        out = None
        if self.on("outparams") and self.chance(OUT_CHANCE):
            # Results (also) through `double *out`: entry values are inputs
            # in [-2, 2], the checker seeds both exit values.
            out = Var("out", ARG_LIMIT, True, True, length=OUT_LEN)
            params.insert(self.rng.randint(0, len(params)), out)
            void = not self.chance(0.3)
            if array_at is not None:
                array_at = [p.name for p in params].index("p")
        pp = None
        if self.on("ptrptr") and not (self.on("lanes") or
                                      self.on("vecpull")) and \
                self.chance(PP_CHANCE):
            # `double **pp` to 3 doubles, in/out like `out` (the checker
            # passes `&ptr` and `&dptr`); the body reads and writes them as
            # `(*pp)[k]`, `**pp`, through `double *a = *pp;`.
            pp = Var("(*pp)", ARG_LIMIT, True, True, length=PP_LEN)
            params.insert(self.rng.randint(0, len(params)), pp)
            if out is None:
                void = self.chance(0.4)
            if array_at is not None:
                array_at = [p.name for p in params].index("p")
        self.scopes = [list(params), []]
        self.nlocals = 0
        self.lines = []
        self.indent = 1
        self.loops = []
        self.ret_bound = 0.0
        self.void = void
        for _ in range(self.rng.randint(0, 6)):
            self.stmt(2)
        if out is not None:
            self.finish_out(out)
        if pp is not None:
            self.finish_pp(pp)
        ret = E("0", 0.0)
        if not void:
            ret = self.limit(self.expr(3))
            # Return something that reads several live variables, so that
            # most statements reach the result.
            live = [v for s in self.scopes for v in s if v.scalar]
            ret = E(ret.text, max(ret.bound, self.ret_bound), ret.is_int)
            for v in self.rng.sample(live, min(len(live), self.rng.randint(1, 3))):
                op = self.rng.choice(["+", "-", "*"])
                b = v.bound * ret.bound if op == "*" else v.bound + ret.bound
                ret = self.limit(E(f"{v.name} {op} {paren(ret)}", b))
            ret = self.read_memory(ret)
            self.emit(f"return {ret.text};")
        sig = f"{'void' if void else 'double'} {name}({', '.join(self.param_decl(p) for p in params)})"
        first = "grad::hessian" if (self.on("hessian") and out is None and
                                    pp is None) else "grad"
        if first == "grad" and self.on("vecpull"):
            first = 'grad("lanes=2")'
        fwd = ('grad::forward("lanes=3")' if self.on("lanes")
               else "grad::forward")
        attr = (f"[[{first}, {fwd}]] " if self.on("forward")
                else f"[[{first}]] ")
        prefix = attr if annotated else self.rng.choice(
            ["static ", "inline ", ""])
        if annotated and protos is not None and self.chance(0.25):
            protos.append(f"{attr}{sig};")
            prefix = ""
        text = f"{prefix}{sig} {{\n" + "\n".join(self.lines) + "\n}\n"
        kinds = ["o" if p is out else "q" if p is pp else
                 "p" if p.array else "s" for p in params]
        self.funcs.append(Func(name, arity, max(ret.bound, self.ret_bound),
                               annotated, array_at, kinds, void,
                               out.bound if out is not None else 0.0,
                               pp.bound if pp is not None else 0.0))
        self.void = False
        return text

    def param_decl(self, p):
        if not p.array:
            return "double " + p.name
        if p.name == "(*pp)":
            return self.rng.choice(["double **pp", "double** pp"])
        if p.name == "out":
            if self.on("forward"):
                return self.rng.choice(["double *out", "double* out"])
            return self.rng.choice(["double *out", "double *out", "double* out",
                                    "double out[]", f"double out[{OUT_LEN}]"])
        if self.on("outparams") or self.on("pointers"):
            return self.rng.choice(["const double *p", "const double *p",
                                    "const double* p",
                                    f"const double p[{PARAM_ARRAY}]"])
        return "const double *p"


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
// Pb calls the pullback with seed s (out parameters: s * OUT_WEIGHTS) and
// adds every adjoint into d; it returns the number of replay mismatches.
using Pb = int (*)(const double *, double, double *);
// Pf returns the pushforward's derivative of F along V (feature forward).
using Pf = double (*)(const double *, const double *);
// Ph adds H V into D (feature hessian).
using Ph = void (*)(const double *, const double *, double *);
struct Case {
  const char *Name;
  int Arity;
  Fn F;
  Pb P;
  Pf Fw = nullptr;
  Ph Hv = nullptr;
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

enum { MaxArity = 10 }; // 4 scalars, a 4-element array, 2 out elements

// The pullback replays writes through pointers: out must end as f leaves it.
static int replay(const char *Name, const double *Got, const double *Want,
                  int N) {
  int Bad = 0;
  for (int I = 0; I < N; ++I)
    if (!(std::fabs(Got[I] - Want[I]) <= 1e-12 * (1 + std::fabs(Want[I])))) {
      std::printf("FAIL %s replay out[%d] got %.17g want %.17g\n", Name, I,
                  Got[I], Want[I]);
      ++Bad;
    }
  return Bad;
}

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

// Feature vecpull: lane 0 of the vector pullback's adjoints L (seeds s and
// -2 s) must be the scalar pullback's E, lane 1 -2 times it.
template <class L>
static int lanesCheck(const char *Name, const double *E, const L *Lv, int N) {
  int Bad = 0;
  for (int I = 0; I < N; ++I)
    if (!close(Lv[I].der[0], E[I], 1e-10, 1e-13) ||
        !close(Lv[I].der[1], -2 * E[I], 1e-12, 1e-300)) {
      std::printf("FAIL %s vector pullback adjoint %d: lanes %.17g %.17g, "
                  "scalar %.17g\n",
                  Name, I, Lv[I].der[0], Lv[I].der[1], E[I]);
      ++Bad;
    }
  return Bad;
}

static int run(const Case *Cases, int N, std::uint64_t Seed) {
  const int Points = 3, Tries = 40;
  int Failures = 0, Checked = 0, Skipped = 0, TotalPoints = 0;
  unsigned long long Digest = 14695981039346656037ULL;
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
      Bad += K.P(A, S, D);
      for (int I = 0; I < K.Arity; ++I) {
        unsigned long long Bits;
        std::memcpy(&Bits, &D[I], sizeof Bits);
        Digest = (Digest ^ Bits) * 1099511628211ULL;
      }
      if (K.Fw && Done == 0) {
        // The pushforward along V: the gradient (differences) dotted with V.
        double V[MaxArity], Dot = 0, Mag = 0;
        for (int I = 0; I < K.Arity; ++I) {
          V[I] = -1 + 2 * R.next();
          Dot += Want[I] * V[I];
          Mag += std::fabs(Want[I] * V[I]);
        }
        double Got = K.Fw(A, V);
        if (!close(Got, Dot, 1e-6, 1e-8 + 1e-7 * Mag)) {
          std::printf("FAIL %s.fw got %.17g want %.17g (at", K.Name, Got, Dot);
          for (int J = 0; J < K.Arity; ++J)
            std::printf(" %.17g", A[J]);
          std::printf(")\n");
          ++Bad;
        }
      }
      if (K.Hv && Done == 0) {
        // H v against central differences of the pullback along v.
        double V[MaxArity], Hv[MaxArity] = {}, Gp[MaxArity], Gm[MaxArity],
               X[MaxArity];
        for (int I = 0; I < K.Arity; ++I)
          V[I] = -1 + 2 * R.next();
        K.Hv(A, V, Hv);
        auto GradAt = [&](double H, double *G) {
          for (int I = 0; I < K.Arity; ++I) {
            X[I] = A[I] + H * V[I];
            G[I] = 0;
          }
          K.P(X, 1.0, G);
        };
        double Fd[MaxArity], H1 = 1e-3, Gp2[MaxArity], Gm2[MaxArity];
        GradAt(H1, Gp);
        GradAt(-H1, Gm);
        GradAt(H1 / 2, Gp2);
        GradAt(-H1 / 2, Gm2);
        for (int I = 0; I < K.Arity; ++I) {
          double D1 = (Gp[I] - Gm[I]) / (2 * H1);
          double D2 = (Gp2[I] - Gm2[I]) / H1;
          Fd[I] = (4 * D2 - D1) / 3;
          if (!close(Hv[I], Fd[I], 1e-5, 1e-6)) {
            std::printf("FAIL %s.hv%d got %.17g want %.17g\n", K.Name, I,
                        Hv[I], Fd[I]);
            ++Bad;
          }
        }
      }
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
  // Every adjoint computed, bit for bit: two builds of the same program
  // (run_many.sh's COMPARE_FLAGS) must print the same digest.
  std::printf("digest %016llx\n", Digest);
  std::printf("checked %d functions, %d points, %d failures, %d skipped points\n",
              Checked, TotalPoints, Failures, Skipped);
  return Failures != 0;
}

// -DPRIMAL_ONLY (no plugin): only the primal, at 20 points per function;
// every value must be finite and within the generator's bound.
static int primal(const Case *Cases, const double *Bounds, int N,
                  std::uint64_t Seed) {
  int Bad = 0;
  double Sum = 0;
  for (int C = 0; C < N; ++C) {
    Rng R{Seed * 1000003u + std::uint64_t(C)};
    for (int T = 0; T < 20; ++T) {
      double A[MaxArity];
      for (int I = 0; I < Cases[C].Arity; ++I)
        A[I] = -2 + 4 * R.next();
      double V = Cases[C].F(A);
      Sum += V;
      if (!std::isfinite(V) || std::fabs(V) > Bounds[C] * (1 + 1e-9)) {
        std::printf("FAIL %s primal %.17g bound %.17g\n", Cases[C].Name, V,
                    Bounds[C]);
        ++Bad;
      }
    }
  }
  std::printf("primal %d functions, %d failures, sum %.17g\n", N, Bad, Sum);
  return Bad != 0;
}
} // namespace fuzz
"""

# Helpers of the intalias feature: integers changed through a pointer or a
# reference.
INTALIAS_HELPERS = """\
static void bump_int(int *k, int s) { *k += s; }
static void bump_ref(int &k) { ++k; }
"""

# Helpers of the memory features (un-annotated: differentiated on demand).
SIDEFX_HELPERS = """\
static double g(double v) { return v / (1.0 + v * v); }
"""
OUTARG_HELPERS = """\
static void sq(double *x) { *x = *x * *x; }
static void axpy(int n, double a, const double *x, double *y) {
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}
static void step(double &acc, double u) { acc = 0.5 * acc + u * u; }
void prod(const double *a, const double *b, double *out) {
  out[0] = a[0] * b[0] - a[1] * b[1];
  out[1] = a[0] * b[1] + a[1] * b[0];
}
static void swap2(double &a, double &b) {
  double t = a;
  a = b;
  b = t;
}
static double *at(double *a, int i) { return a + i; }
static double &cell(double *a, int i) { return a[i]; }
static double *pmax(double *a, int n) {
  double *b = a;
  for (int i = 1; i < n; ++i)
    if (a[i] > *b)
      b = a + i;
  return b;
}
static double dot2(const double *a, const double *b) {
  return a[0] * b[0] + a[1] * b[1];
}
"""


# Helpers of the construct features (issue 49), one string per feature.
CONSTRUCT_HELPERS = {
    "refmethods": """struct RStep {
  double k;
  void step(double &x) { k *= 0.5 * std::tanh(x); x = 0.5 * x + k; }
  void pull(double &x) const { x = std::sin(x) * k; }
};
struct RState { double p, v; };
struct RAdv {
  double h;
  void advance(RState &s) const {
    s.v -= h * std::sin(s.p);
    s.p = 0.5 * s.p + h * s.v;
  }
};
""",
    "reseat": """static double take(const double *&q) { return *q++; }
""",
    "heapobj": """struct HV { double x, y, z; };
struct HS {
  double v;
  bool flip;
  double get() const { return flip ? -v : v * std::tanh(v); }
};
""",
    "ptrptr": """static double pload(double **pp, int i) {
  return (*pp)[i] * (*pp)[i + 1];
}
static void pscale(double **pp, double s) {
  double *a = *pp;
  a[0] *= s;
  a[1] += s * a[0];
}
static void pmap(const double **pa, double **pb, int n) {
  const double *a = *pa;
  double *b = *pb;
  for (int i = 0; i < n; ++i)
    b[i] = std::tanh(a[i]) + 0.5 * b[i];
}
static void padvance(double **pp, int k) { *pp += k; }
""",
    "argeffects": """namespace lib {
template <class T> T unit(T) { return 1; }
} // namespace lib
template <class A, class B> static B ignore2(A, B b) { return b; }
static double konst(double) { return 0.5; }
""",
    "refhelpers": """static double &same(double &v) { return v; }
static const double &csame(const double &v) { return v; }
static double &twice(double &v) {
  v *= 2;
  return v;
}
""",
    "constmembers": """struct Layer {
  double w, b;
  std::vector<double> forward(const std::vector<double> &h) const {
    std::vector<double> r(h.size());
    for (std::size_t i = 0; i < h.size(); ++i)
      r[i] = std::tanh(w * h[i] + b * h[(i + 1) % h.size()]);
    return r;
  }
  double score(const std::vector<double> &h) const {
    double s = 0;
    for (double v : h)
      s += w * v * v;
    return s;
  }
  double apply(const double *h, int n) const {
    double s = 0;
    for (int i = 0; i < n; ++i)
      s += w * h[i] * h[i] + b * h[i];
    return s;
  }
};
struct Net {
  std::vector<double> w;
  double eval(const std::vector<double> &h) const {
    double s = 0;
    for (std::size_t i = 0; i < w.size(); ++i)
      s += w[i] * h[i] * h[i];
    return s;
  }
};
struct CV { double x, y, z; };
struct Field {
  double k;
  double energy(const std::vector<CV> &ps) const {
    double e = 0;
    for (const CV &p : ps)
      e += k * (p.x * p.x + p.y * p.z);
    return e;
  }
};
""",
    "genlambdas": """template <class F> static double apply2(F f, double a) {
  return f(a) + 0.5 * f(0.5 * a);
}
""",
    "passed": """template <class F> static double sum3(F f, double a) {
  return f(a) + 0.5 * f(0.5 * a) + f(-a);
}
template <class F> static double viaSum(const F &f, double a) {
  return sum3(f, a) + f(0.25 * a);
}
template <class F, class G> static double both(F f, G g, double a) {
  return 0.5 * f(a) + g(0.5 * a);
}
template <class F> static void each3(F &&f, double a) {
  f(a);
  f(0.5 * a);
  f(-a);
}
""",
    "rvalues": """// Changes what it is given: the caller sees it through std::move.
static double scaled(double &&a, double b) {
  a *= b;
  return a + std::sin(b);
}
template <class U> static double twice(U &&a, double b) {
  return std::forward<U>(a) * b * 2;
}
""",
    "bound": """static double fsq(double u) { return 0.5 * u * u; }
static double fbump(double u) { return u / (1.0 + u * u); }
static double ptr3(double (*f)(double), double a) {
  return f(a) + 0.5 * (*f)(0.5 * a);
}
static double viaPtr(double (*f)(double), double a) {
  return ptr3(f, a) + f(0.25 * a);
}
static double fn3(const std::function<double(double)> &f, double a) {
  double s = 0;
  for (int i = 0; i < 3; ++i)
    s += f(a * (1.0 - 0.25 * i));
  return s;
}
""",
    "runalias": """static void upd(double &a, double &b) {
  a += 0.5 * b;
  b *= 0.75;
}
static void updp(double *a, const double *b) {
  *a = 0.5 * (*a + std::tanh(*b));
}
""",
    "mutablemembers": """struct Cache {
  double a;
  mutable double last = 0;
  mutable int calls = 0;
  double eval(double x) const {
    ++calls;
    last = a * x;
    return last * x;
  }
  double sq(double x) const {
    last = a * x * x;
    return last;
  }
  double acc(double x) const {
    last = 0.5 * last + a * x;
    return last * last;
  }
  double prev() const { return last; }
};
""",
}


def pushforward_wrapper(f, offs, lanes=False):
    """f's pushforward over the checker's flat vectors: the derivative of
    F(a) (the value plus the weighted out values) along v. With lanes, the
    vector pushforward along (v, 0, -2 v): lane 0 is returned, the others
    must agree with it (NaN otherwise)."""
    n = f.arity
    lines = [f"static double {f.name}_pf(const double *a, const double *v) {{"]
    T = "grad::lanes<double, 3>" if lanes else "double"

    def tan(x):
        return f"{T}{{{{{x}, 0.0, -2 * {x}}}}}" if lanes else x
    if "p" in offs:
        lines.append(f"  double pv[{PARAM_ARRAY}] = {{"
                     + ", ".join(f"a[{offs['p'] + i}]" for i in range(PARAM_ARRAY)) + "};")
        lines.append(f"  {T} tpv[{PARAM_ARRAY}] = {{"
                     + ", ".join(tan(f"v[{offs['p'] + i}]") for i in range(PARAM_ARRAY)) + "};")
    if "o" in offs:
        lines.append(f"  double ov[{OUT_LEN}] = {{"
                     + ", ".join(f"a[{offs['o'] + i}]" for i in range(OUT_LEN)) + "};")
        lines.append(f"  {T} tov[{OUT_LEN}] = {{"
                     + ", ".join(tan(f"v[{offs['o'] + i}]") for i in range(OUT_LEN)) + "};")
    if "q" in offs:   # (ptrptr; never with lanes)
        lines.append(f"  double qv[{PP_LEN}] = {{"
                     + ", ".join(f"a[{offs['q'] + i}]" for i in range(PP_LEN)) + "};")
        lines.append(f"  double tqv[{PP_LEN}] = {{"
                     + ", ".join(f"v[{offs['q'] + i}]" for i in range(PP_LEN)) + "};")
        lines.append("  double *qp = qv, *tqp = tqv;")
    xs, ts, i = [], [], 0
    for kd in f.kinds:
        if kd == "s":
            xs.append(f"a[{i}]")
            ts.append(tan(f"v[{i}]"))
            i += 1
        elif kd == "p":
            xs.append("pv")
            ts.append("tpv")
        elif kd == "q":
            xs.append("&qp")
            ts.append("&tqp")
        else:
            xs.append("ov")
            ts.append("tov")
    call = f"{f.name}_pushforward({', '.join(xs + ts)})"
    if not lanes:
        terms = [] if f.void else [f"{call}.der[0]"]
        if f.void:
            lines.append(f"  {call};")
        else:
            lines.append(f"  double r = {call}.der[0];")
            terms = ["r"]
        if "o" in offs:
            terms += [f"{fmt(OUT_WEIGHTS[k])} * tov[{k}]" for k in range(OUT_LEN)]
        if "q" in offs:
            terms += [f"{fmt(PP_WEIGHTS[k])} * tqv[{k}]" for k in range(PP_LEN)]
        lines.append(f"  return {' + '.join(terms) if terms else '0.0'};")
        lines.append("}")
        return lines
    if f.void:
        lines.append(f"  {call};")
        lines.append("  double r[3] = {0, 0, 0};")
    else:
        lines.append(f"  auto rd = {call};")
        lines.append("  double r[3] = {rd.der[0], rd.der[1], rd.der[2]};")
    if "o" in offs:
        lines.append("  for (int k = 0; k < 3; ++k)")
        lines.append("    r[k] += " + " + ".join(
            f"{fmt(OUT_WEIGHTS[j])} * tov[{j}].der[k]" for j in range(OUT_LEN)) + ";")
    lines.append("  if (r[1] != 0 || !fuzz::close(r[2], -2 * r[0], 1e-12, 1e-300))")
    lines.append("    return std::nan(\"\");")
    lines.append("  return r[0];")
    lines.append("}")
    return lines


def hvp_wrapper(f):
    """f's HVP over the checker's flat vectors (no out parameter): the
    scalars first, then the array parameter at offset f.arity."""
    lines = [f"static void {f.name}_hv(const double *a, const double *v, double *d) {{"]
    if "p" in f.kinds:
        lines.append(f"  double pv[{PARAM_ARRAY}] = {{"
                     + ", ".join(f"a[{f.arity + k}]" for k in range(PARAM_ARRAY)) + "};")
    xs, vs, ds, i = [], [], [], 0
    for kd in f.kinds:
        if kd == "s":
            xs.append(f"a[{i}]")
            vs.append(f"v[{i}]")
            ds.append(f"&d[{i}]")
            i += 1
        else:
            xs.append("pv")
            vs.append(f"v + {f.arity}")
            ds.append(f"d + {f.arity}")
    lines.append(f"  {f.name}_hvp({', '.join(xs + vs + ds)});")
    lines.append("}")
    return lines


def vector_pullback_check(f, offs, at, args):
    """Feature vecpull: the vector pullback with seeds (s, -2 s) against
    the scalar adjoints in e (out's final adjoints included)."""
    lines = ["  {"]
    if "o" in offs:
        lines.append(f"    double ow[{OUT_LEN}] = {{"
                     + ", ".join(f"a[{offs['o'] + i}]" for i in range(OUT_LEN)) + "};")
    lines.append(f"    grad::lanes<double, 2> L[{at}] = {{}};")
    if "o" in offs:
        for k in range(OUT_LEN):
            w = fmt(OUT_WEIGHTS[k])
            lines.append(f"    L[{offs['o'] + k}] = grad::lanes<double, 2>"
                         f"{{{{s * {w}, -2 * s * {w}}}}};")
    ls, i = [], 0
    for kd in f.kinds:
        if kd == "s":
            ls.append(f"&L[{i}]")
            i += 1
        else:
            ls.append(f"L + {offs[kd]}")
    seed = [] if f.void else ["grad::lanes<double, 2>{{s, -2 * s}}"]
    lines.append(f"    {f.name}_pullback({', '.join([args('ow')] + seed + ls)});")
    lines.append(f"    bad += fuzz::lanesCheck(\"{f.name}\", e, L, {at});")
    lines.append("  }")
    return lines


def wrappers(f, forward=False, hessian=False, lanes=False, vec=False):
    """The checker's view of f: F(a) and its pullback over one flat vector
    a of scalars, then the array parameter, then out's entry values."""
    n = f.arity
    offs, at = {}, n
    for kd in ("p", "o", "q"):
        if kd in f.kinds:
            offs[kd] = at
            at += {"p": PARAM_ARRAY, "o": OUT_LEN, "q": PP_LEN}[kd]
    if "q" in offs:
        return pp_wrappers(f, offs, at, forward), at
    copies = []
    if "p" in offs:
        copies.append(f"double pv[{PARAM_ARRAY}] = {{"
                      + ", ".join(f"a[{offs['p'] + i}]" for i in range(PARAM_ARRAY)) + "};")
    if "o" in offs:
        copies.append(f"double ov[{OUT_LEN}] = {{"
                      + ", ".join(f"a[{offs['o'] + i}]" for i in range(OUT_LEN)) + "};")

    def args(out_name):
        xs, i = [], 0
        for kd in f.kinds:
            if kd == "s":
                xs.append(f"a[{i}]")
                i += 1
            else:
                xs.append("pv" if kd == "p" else out_name)
        return ", ".join(xs)

    def adjoints(base):
        """The pullback's adjoint arguments into the flat array base."""
        xs, i = [], 0
        for kd in f.kinds:
            if kd == "s":
                xs.append(f"&{base}[{i}]")
                i += 1
            else:
                xs.append(f"{base} + {offs['p']}" if kd == "p" else "dov")
        return xs

    ds = adjoints("d")
    seed = [] if f.void else ["s"]
    body = " ".join(copies)
    w, pb = [], []
    pf = pushforward_wrapper(f, offs, lanes) if forward else []
    if hessian and "o" not in offs:
        pf += hvp_wrapper(f)
    # (vecpull: the scalar adjoints go to e first, compared with the lanes.)
    vec = vec and not (hessian and "o" not in offs)
    es = adjoints("e")
    if "o" not in offs and vec:
        w.append(f"static double {f.name}_w(const double *a) "
                 f"{{ {body + ' ' if body else ''}return {f.name}({args('ov')}); }}")
        pb.append(f"static int {f.name}_pb(const double *a, double s, double *d) {{")
        pb.append(f"  {body}")
        pb.append(f"  double e[{at}] = {{}};")
        pb.append(f"  {f.name}_pullback({', '.join([args('ov')] + seed + es)});")
        pb.append(f"  for (int k = 0; k < {at}; ++k)")
        pb.append("    d[k] += e[k];")
        pb.append("  int bad = 0;")
        pb += vector_pullback_check(f, offs, at, args)
        pb.append("  return bad;")
        pb.append("}")
        return w + pb + pf, at
    if "o" not in offs:
        w.append(f"static double {f.name}_w(const double *a) "
                 f"{{ {body + ' ' if body else ''}return {f.name}({args('ov')}); }}")
        pb.append(f"static int {f.name}_pb(const double *a, double s, double *d) "
                  f"{{ {body + ' ' if body else ''}"
                  f"{f.name}_pullback({', '.join([args('ov')] + seed + ds)}); return 0; }}")
        return w + pb + pf, at
    loss = " + ".join(f"{fmt(OUT_WEIGHTS[k])} * ov[{k}]" for k in range(OUT_LEN))
    ret = "" if f.void else "double r = "
    w.append(f"static double {f.name}_w(const double *a) {{")
    w.append(f"  {body}")
    w.append(f"  {ret}{f.name}({args('ov')});")
    w.append(f"  return {'' if f.void else 'r + '}{loss};")
    w.append("}")
    pb.append(f"static int {f.name}_pb(const double *a, double s, double *d) {{")
    pb.append(f"  {body}")
    pb.append(f"  double rv[{OUT_LEN}] = {{"
              + ", ".join(f"ov[{k}]" for k in range(OUT_LEN)) + "};")
    pb.append(f"  double dov[{OUT_LEN}] = {{"
              + ", ".join(f"s * {fmt(OUT_WEIGHTS[k])}" for k in range(OUT_LEN)) + "};")
    if vec:
        pb.append(f"  double e[{at}] = {{}};")
        pb.append(f"  {f.name}_pullback({', '.join([args('ov')] + seed + es)});")
        pb.append(f"  for (int k = 0; k < {OUT_LEN}; ++k)")
        pb.append(f"    e[{offs['o']} + k] = dov[k];")
        pb.append(f"  for (int k = 0; k < {at}; ++k)")
        pb.append("    d[k] += e[k];")
    else:
        pb.append(f"  {f.name}_pullback({', '.join([args('ov')] + seed + ds)});")
    pb.append(f"  {f.name}({args('rv')});")
    if not vec:
        pb.append(f"  for (int k = 0; k < {OUT_LEN}; ++k)")
        pb.append(f"    d[{offs['o']} + k] += dov[k];")
    pb.append(f"  int bad = fuzz::replay(\"{f.name}\", ov, rv, {OUT_LEN});")
    if vec:
        pb += vector_pullback_check(f, offs, at, args)
    pb.append("  return bad;")
    pb.append("}")
    return w + pb + pf, at


def pp_wrappers(f, offs, at, forward):
    """wrappers() for a function with `double **pp` (ptrptr): the 3 values
    behind it are inputs and, weighted by PP_WEIGHTS, outputs like out's;
    the checker passes `&qp` (`double *qp = qv;`) and its adjoint `&dqp`,
    and requires the pullback to leave qv (and ov) as f does."""
    def flat(name, off, n):
        return (f"double {name}[{n}] = {{"
                + ", ".join(f"a[{off + i}]" for i in range(n)) + "};")
    body = []
    if "p" in offs:
        body.append(flat("pv", offs["p"], PARAM_ARRAY))
    if "o" in offs:
        body.append(flat("ov", offs["o"], OUT_LEN))
    body += [flat("qv", offs["q"], PP_LEN), "double *qp = qv;"]

    def args(o, q):
        xs, i = [], 0
        for kd in f.kinds:
            if kd == "s":
                xs.append(f"a[{i}]")
                i += 1
            else:
                xs.append({"p": "pv", "o": o, "q": q}[kd])
        return ", ".join(xs)

    ds, i = [], 0
    for kd in f.kinds:
        if kd == "s":
            ds.append(f"&d[{i}]")
            i += 1
        else:
            ds.append(f"d + {offs['p']}" if kd == "p" else
                      {"o": "dov", "q": "&dqp"}[kd])
    loss = [f"{fmt(PP_WEIGHTS[k])} * qv[{k}]" for k in range(PP_LEN)]
    if "o" in offs:
        loss = [f"{fmt(OUT_WEIGHTS[k])} * ov[{k}]"
                for k in range(OUT_LEN)] + loss
    w = [f"static double {f.name}_w(const double *a) {{"]
    w += [f"  {x}" for x in body]
    w.append(f"  {'' if f.void else 'double r = '}{f.name}"
             f"({args('ov', '&qp')});")
    w.append(f"  return {'' if f.void else 'r + '}{' + '.join(loss)};")
    w.append("}")
    pb = [f"static int {f.name}_pb(const double *a, double s, double *d) {{"]
    pb += [f"  {x}" for x in body]
    if "o" in offs:
        pb.append(f"  double rv[{OUT_LEN}] = {{"
                  + ", ".join(f"ov[{k}]" for k in range(OUT_LEN)) + "};")
        pb.append(f"  double dov[{OUT_LEN}] = {{"
                  + ", ".join(f"s * {fmt(OUT_WEIGHTS[k])}"
                              for k in range(OUT_LEN)) + "};")
    pb.append(f"  double rq[{PP_LEN}] = {{"
              + ", ".join(f"qv[{k}]" for k in range(PP_LEN)) + "};")
    pb.append("  double *rqp = rq;")
    pb.append(f"  double dqv[{PP_LEN}] = {{"
              + ", ".join(f"s * {fmt(PP_WEIGHTS[k])}"
                          for k in range(PP_LEN)) + "};")
    pb.append("  double *dqp = dqv;")
    seed = [] if f.void else ["s"]
    pb.append(f"  {f.name}_pullback("
              f"{', '.join([args('ov', '&qp')] + seed + ds)});")
    pb.append(f"  {f.name}({args('rv', '&rqp')});")
    pb.append("  int bad = 0;")
    if "o" in offs:
        pb.append(f"  for (int k = 0; k < {OUT_LEN}; ++k)")
        pb.append(f"    d[{offs['o']} + k] += dov[k];")
        pb.append(f"  bad += fuzz::replay(\"{f.name}\", ov, rv, {OUT_LEN});")
    pb.append(f"  for (int k = 0; k < {PP_LEN}; ++k)")
    pb.append(f"    d[{offs['q']} + k] += dqv[k];")
    pb.append(f"  bad += fuzz::replay(\"{f.name}\", qv, rq, {PP_LEN});")
    pb.append("  return bad;")
    pb.append("}")
    return w + pb + (pushforward_wrapper(f, offs) if forward else [])


# The type of the shaped feature: a 2 x 2 block of a row-major array whose
# row length is a member.
SHAPED_HELPERS = """struct M2 {
  int n;
  double a[8];
  double &at(int i, int j) { return a[i * n + j]; }
  double &operator()(int i, int j) { return a[i * n + j]; }
  double *row(int i) { return a + i * n; }
};
"""


# The type of the owners feature: a 2 x n matrix in a std::vector member.
OWNER_HELPERS = """struct MV {
  int n;
  std::vector<double> a;
  explicit MV(int cols) : n(cols), a(2 * cols, 0.0) {}
  double &at(int i, int j) { return a[i * n + j]; }
  double &operator()(int i, int j) { return a[i * n + j]; }
};
"""


# Member functions of MV (ownermethods).
OWNER_METHODS = """  void set(int i, int j, double v) { a[i * n + j] = v; }
  void add(int i, int j, double v) { a[i * n + j] += v; }
  void damp(double s) {
    for (int k = 0; k < 2 * n; ++k)
      a[k] = 0.5 * std::tanh(a[k] * s);
  }
  double get(int i, int j) const { return a[i * n + j]; }
  double wget(int i, int j, double s) const { return a[i * n + j] * s; }
  double energy() const {
    double e = 0;
    for (int k = 0; k < 2 * n; ++k)
      e += a[k] * a[k];
    return 0.25 * std::tanh(e);
  }
"""


# Helpers of the values feature: objects returned, and taken by value and
# written.
VECTOR_VALUE_HELPERS = """std::vector<double> vscale(std::vector<double> a, double s) {
  for (std::size_t i = 0; i < a.size(); ++i)
    a[i] *= s;
  return a;
}
std::vector<double> vmix(double a, double b) { return {a * b, a - b, 0.5 * b}; }
"""
OWNER_VALUE_HELPERS = """MV mvmake(int n, double a, double b) {
  MV m(n);
  m.at(0, 0) = a;
  m(0, 1) = 0.5 * (a + b);
  m.a[n] = b;
  m.at(1, 1) = a - b;
  return m;
}
double mvsum(MV m) {
  m.at(0, 0) *= 0.5;
  double s = 0;
  for (double e : m.a)
    s += e;
  return s;
}
"""


# The type of the intmembers feature: an integer member between floating
# ones.
KSTRUCT_HELPERS = """struct K3 { double x; int k; double y; };
"""


# Helpers of the temps feature: they read a temporary's values in their
# derivative (`v[0] * x`: d/dx is v[0]).
TEMP_HELPERS = """static double tw(const std::vector<double> &v, double x) {
  return v[0] * x + v[1] * std::sin(x);
}
struct T2 { double a, b; };
static double tp(const T2 &p, double x) { return p.a * std::cos(x) + p.b * x; }
"""


# Types of the structs feature: an aggregate, a class whose constructor
# copies its parameters, and a helper that returns a struct.
STRUCT_HELPERS = """struct V3 { double x, y, z; };
struct C3 {
  double x, y, z;
  C3(double a, double b, double c) : x(a), y(b), z(c) {}
  explicit C3(double s) : C3(s, 0.5 * s, 1.0) {}
  double sum() const { return x + y + z; }
  void scale(double s) { x *= s; y += s * z; }
  C3 &operator+=(const C3 &o) { x += o.x; y += o.y; z += o.z; return *this; }
};
struct P3 {
  double x, y, z;
  P3(double a, double b, double c) : x(a * b), y(b - c) { z = c * x + 0.5 * y; }
  double lam(double t) const {
    auto f = [this](double u) { return x * u + y; };
    return f(t) + z;
  }
};
static V3 operator+(const V3 &a, const V3 &b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
template <class S> static S sstep(S &a, double s) {
  a.x *= s;
  S r = a;
  r.y += s;
  return r;
}
template <class S> static S sscale(const S &a, double s) {
  S r = a;
  r.x *= s;
  r.y *= s;
  r.z *= s;
  return r;
}
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
           "#include <cstdio>", "#include <cstring>", ""]
    if "loops" in features or "maps" in features:
        out[-1:-1] = ["#include <grad/grad.h>"]
    if "maps" in features:
        out[-1:-1] = ["#include <vector>"]
    if "complex" in features:
        out[-1:-1] = ["#include <complex>"]
    if "vectors" in features or "owners" in features or \
            "scratch" in features or "temps" in features:
        out[-1:-1] = ["#include <vector>"]
    if "rowrefs" in features:
        out[-1:-1] = ["#include <array>"]
    if "copies" in features:
        out[-1:-1] = ["#include <algorithm>", "#include <cstring>",
                      "#include <functional>"]
    if "heapobj" in features:
        out[-1:-1] = ["#include <memory>"]
    if "constmembers" in features or "runalias" in features:
        out[-1:-1] = ["#include <vector>"]
    if "preinc" in features or "functional" in features:
        out[-1:-1] = ["#include <functional>", "#include <numeric>"]
    if "runalias" in features:
        out[-1:-1] = ["#include <utility>"]
    if "bound" in features:
        out[-1:-1] = ["#include <functional>", "#include <numeric>",
                      "#include <vector>"]
    if "rvalues" in features:
        out[-1:-1] = ["#include <utility>"]
    if "positions" in features:
        out[-1:-1] = ["#include <algorithm>", "#include <iterator>",
                      "#include <vector>"]
    if "bits" in features:
        out[-1:-1] = ["#include <bit>"]
    if "sidefx" in features:
        out.append(SIDEFX_HELPERS)
    if "outargs" in features:
        out.append(OUTARG_HELPERS)
    if "intalias" in features:
        out.append(INTALIAS_HELPERS)
    if "structs" in features:
        out.append(STRUCT_HELPERS if "dtors" not in features else
                   STRUCT_HELPERS
                   .replace("struct V3 { double x, y, z; };",
                            "struct V3 { double x, y, z; ~V3() {} };")
                   .replace("  double x, y, z;\n  C3(",
                            "  double x, y, z;\n  ~C3() {}\n  C3(")
                   .replace("  double x, y, z;\n  P3(",
                            "  double x, y, z;\n  ~P3() {}\n  P3("))
    if "shaped" in features:
        out.append(SHAPED_HELPERS)
    if "intmembers" in features:
        out.append(KSTRUCT_HELPERS)
    if "owners" in features:
        out.append(OWNER_HELPERS if "ownermethods" not in features
                   else OWNER_HELPERS.replace("};\n", OWNER_METHODS + "};\n"))
    if "temps" in features:
        out.append(TEMP_HELPERS)
    if "values" in features and "vectors" in features:
        out.append(VECTOR_VALUE_HELPERS)
    if "values" in features and "owners" in features:
        out.append(OWNER_VALUE_HELPERS)
    for feature in CONSTRUCT_FEATURES + ("refmethods", "passed", "bound",
                                         "rvalues"):
        if feature in features and feature in CONSTRUCT_HELPERS:
            out.append(CONSTRUCT_HELPERS[feature])
    if protos:
        out += protos + [""]
    out += bodies
    out.append(HARNESS if "ptrptr" not in features else
               HARNESS.replace("enum { MaxArity = 10 }; // 4 scalars, a "
                               "4-element array, 2 out elements",
                               "enum { MaxArity = 13 }; // 4 scalars, a "
                               "4-element array, 2 out elements, 3 behind "
                               "pp"))
    sizes = []
    for f in checked:
        text, size = wrappers(f, "forward" in features, "hessian" in features,
                              "lanes" in features, "vecpull" in features)
        sizes.append(size)
        wi = next(i for i, t in enumerate(text) if "_pb(" in t)
        out += text[:wi]
        out.append("#ifndef PRIMAL_ONLY")
        out += text[wi:]
        out.append("#endif")
    out += ["#ifdef PRIMAL_ONLY", "#define PB(F) nullptr", "#else",
            "#define PB(F) F", "#endif"]
    fw = "forward" in features
    out.append("static const fuzz::Case Cases[] = {")
    for f, size in zip(checked, sizes):
        pb = f"{f.name}_pb"
        pf = f", PB({f.name}_pf)" if fw else (", nullptr" if "hessian" in features else "")
        if "hessian" in features and "o" not in f.kinds and \
                "q" not in f.kinds:
            pf += f", PB({f.name}_hv)"
        out.append(f"    {{\"{f.name}\", {size}, {f.name}_w, PB({pb}){pf}}},")
    out.append("};")
    out.append("")
    out.append("#ifdef PRIMAL_ONLY")
    bounds = []
    for f in checked:
        b = f.bound + sum(abs(w) for w in OUT_WEIGHTS) * f.out_bound
        if "q" in f.kinds:
            b += sum(abs(w) for w in PP_WEIGHTS) * f.pp_bound
        bounds.append(repr(b * (1 + 1e-9) + 1e-12))
    out.append("static const double Bounds[] = {" + ", ".join(bounds) + "};")
    out.append(f"int main() {{ return fuzz::primal(Cases, Bounds, {n}, {seed}u); }}")
    out.append("#else")
    out.append(f"int main() {{ return fuzz::run(Cases, {n}, {seed}u); }}")
    out.append("#endif")
    return "\n".join(out) + "\n"


def parse_features(text):
    feats = set()
    for f in text.split(","):
        f = f.strip()
        if not f:
            continue
        if f == "default":
            feats |= set(DEFAULT_FEATURES)
        elif f.startswith("-") and f[1:] in ALL_FEATURES:
            feats.discard(f[1:])
        elif f in GROUPS:
            feats |= set(GROUPS[f])
        elif f.startswith("-") and f[1:] in GROUPS:
            feats -= set(GROUPS[f[1:]])
        elif f in ALL_FEATURES:
            feats.add(f)
        else:
            raise argparse.ArgumentTypeError(
                f"unknown feature '{f}' (known: "
                f"{', '.join(ALL_FEATURES + tuple(GROUPS))})")
    feats.add("expr")
    if "lanes" in feats:
        feats.add("forward")
    if "fallthrough" in feats or "switchbreak" in feats:
        feats.add("switch")
    if "rowrefs" in feats:
        feats.update(("owners", "values", "locals"))
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
