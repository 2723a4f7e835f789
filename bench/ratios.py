#!/usr/bin/env python3
"""Median ratios from Google Benchmark JSON output (bench/run.sh).

Benchmarks are named KERNEL/VARIANT with VARIANT one of primal, grad, hand
(a hand-written derivative, or direct CBLAS calls for mm_*) and enzyme
(Enzyme's gradient, when the benchmark was built with it). For every
kernel this prints the median CPU times and grad/primal and grad/hand (and,
with Enzyme, enzyme/primal and enzyme/hand); the targets from
docs/performance.md are checked where a row has one.

usage: ratios.py RESULT.json [RESULT.json ...] [--markdown]
"""

import json
import sys

# (label, numerator, denominator, target): numerator/denominator <= target.
TARGETS = [
    ("dot grad/primal", "dot/grad", "dot/primal", 3.0),
    ("sumsq grad/primal", "sumsq/grad", "sumsq/primal", 3.0),
    ("horner grad/primal", "horner/grad", "horner/primal", 3.0),
    ("rnn grad/primal", "rnn/grad", "rnn/primal", 3.0),
    ("xAx grad/primal", "xAx/grad", "xAx/primal", 3.0),
    ("xAxRows grad/primal", "xAxRows/grad", "xAxRows/primal", 3.0),
    # Issue 14: GMM gradient / objective <= 3.0 (and at most the hand
    # derivative's ratio, printed above), tanh map kernel <= 1.0.
    ("gmm grad/primal", "gmm/grad", "gmm/primal", 3.0),
    ("gmm_vec grad/primal", "gmm_vec/grad", "gmm_vec/primal", 3.0),
    ("gmm_c grad/primal", "gmm_c/grad", "gmm_c/primal", 3.0),
    ("fabs grad/hand", "fabs/grad", "fabs/hand", 1.2),
    ("cbrt grad/hand", "cbrt/grad", "cbrt/hand", 1.2),
    ("tanh grad/hand", "tanh/grad", "tanh/hand", 1.0),
    ("composite grad/hand", "composite/grad", "composite/hand", 1.2),
    ("composite grad / tanh grad", "composite/grad", "tanh/grad", 1.05),
    ("compare grad/primal", "compare/grad", "compare/primal", 1.0),
    ("capture grad/hand", "capture/grad", "capture/hand", 1.3),
    ("broadcast grad/primal", "broadcast/grad", "broadcast/primal", 2.0),
    ("mm_f32 grad/cblas", "mm_f32/grad", "mm_f32/hand", 1.1),
    ("mm_f64 grad/cblas", "mm_f64/grad", "mm_f64/hand", 1.1),
    ("net grad mixed/float", "net_mixed/grad", "net_float/grad", 1.3),
    # Forward mode (bench/forward.cpp): fw_*/grad is the pushforward,
    # hvp_*/primal the pullback and hvp_*/grad the Hessian-vector product.
    ("fw_dot pushforward/primal", "fw_dot/grad", "fw_dot/primal", 1.5),
    ("fw_horner pushforward/primal", "fw_horner/grad", "fw_horner/primal", 1.5),
    ("fw_rnn pushforward/primal", "fw_rnn/grad", "fw_rnn/primal", 1.5),
    ("fw_xAx pushforward/primal", "fw_xAx/grad", "fw_xAx/primal", 1.5),
    ("hvp_rosen hvp/pullback", "hvp_rosen/grad", "hvp_rosen/primal", 3.0),
    ("hvp_quad hvp/pullback", "hvp_quad/grad", "hvp_quad/primal", 3.0),
    # Full Jacobians (bench/jacobian.cpp): vector forward mode against 300
    # pullbacks; the target is (lanes / primal) <= (reverse / primal) / 5.
    ("jac_hand lanes26/reverse", "jac_hand/lanes26", "jac_hand/reverse", 0.2),
    ("jac_hand lanes8/reverse", "jac_hand/lanes8", "jac_hand/reverse", 0.2),
]


def load(paths):
    """Median CPU time (ns) of every benchmark in the given JSON files."""
    scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
    med = {}
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        for b in data["benchmarks"]:
            if b.get("aggregate_name", "median") != "median":
                continue
            name = b.get("run_name", b["name"])
            med[name] = b["cpu_time"] * scale[b.get("time_unit", "ns")]
    return med


def fmt_time(ns):
    for unit, div in (("s", 1e9), ("ms", 1e6), ("us", 1e3)):
        if ns >= div:
            return "%.3g %s" % (ns / div, unit)
    return "%.3g ns" % ns


def ratio(med, num, den):
    if num not in med or den not in med:
        return None
    if med[den] == 0:
        return 0.0 if med[num] == 0 else float("inf")
    return med[num] / med[den]


def main(argv):
    markdown = "--markdown" in argv
    paths = [a for a in argv if a != "--markdown"]
    if not paths:
        sys.exit(__doc__)
    med = load(paths)
    kernels = []
    for name in med:
        k = name.split("/")[0]
        if k not in kernels:
            kernels.append(k)

    enzyme = any(name.endswith("/enzyme") for name in med)
    variants = ("primal", "grad", "hand") + (("enzyme",) if enzyme else ())
    pairs = [("grad", "primal"), ("grad", "hand")]
    if enzyme:
        pairs += [("enzyme", "primal"), ("enzyme", "hand")]
    header = ["kernel"] + list(variants) + ["%s/%s" % p for p in pairs]
    if markdown:
        print("| " + " | ".join(header) + " |")
        print("|---" + "|---:" * (len(header) - 1) + "|")
    else:
        print(" ".join("%12s" % h for h in header))
    for k in kernels:
        cells = [fmt_time(med[k + "/" + v]) if k + "/" + v in med else "-"
                 for v in variants]
        rs = [ratio(med, k + "/" + n, k + "/" + d) for n, d in pairs]
        rs = ["-" if r is None else "%.2f" % r for r in rs]
        if k == "copy":
            cells = [fmt_time(med["copy/x"])] + ["-"] * (len(variants) - 1)
        if markdown:
            print("| %s |" % " | ".join([k] + cells + rs))
        else:
            print(" ".join("%12s" % c for c in [k] + cells + rs))

    print()
    if markdown:
        print("| ratio | median | target | met |")
        print("|---|---:|---:|---|")
    for label, num, den, target in TARGETS:
        r = ratio(med, num, den)
        if r is None:
            continue
        met = "met" if r <= target else "NOT MET"
        if markdown:
            print("| %s | %.2f | <= %.2f | %s |" % (label, r, target, met))
        else:
            print("%-30s %7.2f  (target <= %.2f)  %s" % (label, r, target, met))


if __name__ == "__main__":
    main(sys.argv[1:])
