#!/usr/bin/env python3
"""Compile time of deep compositions, with and without the plugin (issue 6).

Generates, for each depth N, three shapes of an N-block residual chain
(h = h + 0.1 * tanh(w * h + b)):
  distinct   N distinct [[grad]] functions, each calling the previous one;
  template   one recursive function template N deep (if constexpr);
  vector     a std::vector of N layers with a [[grad]] call operator, looped
             over (the depth is data: compile time must not depend on N).
and compiles each with clang++-19 -O1, once plain and once with the plugin.
Prints the median of --repeat runs, the ratio plugin/plain, and the growth
from N to 4N.

  bench/compile_time.py --plugin build/lib/ClangGrad.so --include runtime/include
  bench/compile_time.py ... --profile   # frontend / backend / plugin split
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


# With --runtime every shape includes <grad/grad.h>: nested calls then get
# split derivatives (linear run time, more code to compile).
RUNTIME = ""


def distinct(n):
    out = ["#include <cmath>" + RUNTIME,
           "[[grad]] double f0(double x) { return x; }"]
    for i in range(1, n + 1):
        out.append(
            f"[[grad]] double f{i}(double x) {{ double h = f{i - 1}(x); "
            f"return h + 0.1 * std::tanh({1 + i % 7}.0 * h + 0.5); }}")
    out.append(f"double use(double x) {{ double d = 0; f{n}_pullback(x, 1.0, &d); return d; }}")
    return "\n".join(out) + "\n"


def template(n):
    return f"""#include <cmath>{RUNTIME}
template <int N> double block(double x) {{
  if constexpr (N == 0)
    return x;
  else {{
    double h = block<N - 1>(x);
    return h + 0.1 * std::tanh((1 + N % 7) * h + 0.5);
  }}
}}
[[grad]] double net(double x) {{ return block<{n}>(x); }}
double use(double x) {{ double d = 0; net_pullback(x, 1.0, &d); return d; }}
"""


def vector(n):
    return """#include <cmath>
#include <vector>
#include <grad/grad.h>
struct Layer {
  double w, b;
  [[grad]] double operator()(double x) const { return x + 0.1 * std::tanh(w * x + b); }
};
[[grad]] double net(const std::vector<Layer> &L, double x) {
  for (std::size_t i = 0; i < L.size(); ++i)
    x = L[i](x);
  return x;
}
double use(const std::vector<Layer> &L, std::vector<Layer> &dL, double x) { double d = 0; net_pullback(L, x, 1.0, &dL, &d); return d; }
"""


SHAPES = {"distinct": distinct, "template": template, "vector": vector}


def sources(tmp, shape, gen, n):
    """Writes the source with the plugin and the plain one (without the
    plugin the pullback calls do not exist); returns both paths."""
    src = os.path.join(tmp, f"{shape}{n}.cpp")
    with open(src, "w") as f:
        f.write(gen(n))
    plain_src = os.path.join(tmp, f"{shape}{n}_plain.cpp")
    with open(plain_src, "w") as f:
        f.write("\n".join(l for l in gen(n).splitlines()
                          if "_pullback" not in l) + "\n")
    return src, plain_src


def phases(cxx, flags, src, tmp):
    """Frontend, backend (optimizer + codegen) and plugin seconds of one
    compile, from -ftime-trace."""
    trace = os.path.join(tmp, "trace.json")
    r = subprocess.run([cxx] + flags + ["-c", src, "-o", os.devnull,
                                        "-ftime-trace=" + trace,
                                        "-ftime-trace-granularity=0"],
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"compile failed for {src}:\n{r.stderr[:2000]}")
    with open(trace) as f:
        events = json.load(f)["traceEvents"]
    total = {e["name"][len("Total "):]: e["dur"] / 1e6 for e in events
             if e.get("name", "").startswith("Total ")}
    return (total.get("Frontend", 0.0), total.get("Backend", 0.0),
            total.get("grad: pullback", 0.0) +
            total.get("grad: end of translation unit", 0.0))


def compile_time(cxx, flags, src, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        r = subprocess.run([cxx] + flags + ["-c", src, "-o", os.devnull],
                           capture_output=True, text=True)
        times.append(time.perf_counter() - t0)
        if r.returncode != 0:
            sys.exit(f"compile failed for {src}:\n{r.stderr[:2000]}")
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cxx", default="clang++-19")
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--include", required=True)
    ap.add_argument("--depths", default="10,100,400,1000")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--runtime", action="store_true",
                    help="include <grad/grad.h> in every shape")
    ap.add_argument("--profile", action="store_true",
                    help="instead of wall times, print where the time goes "
                         "(-ftime-trace): frontend, LLVM backend, and the "
                         "plugin's own time")
    args = ap.parse_args()
    depths = [int(d) for d in args.depths.split(",")]
    global RUNTIME
    if args.runtime:
        RUNTIME = "\n#include <grad/grad.h>"
    base = ["-std=c++20", "-O1", "-ftemplate-depth=4096", "-I" + args.include,
            "-Wno-unknown-attributes"]
    with tempfile.TemporaryDirectory() as tmp:
        if args.profile:
            profile(args, depths, base, tmp)
            return
        print("| shape | N | plain (s) | plugin (s) | plugin/plain | growth N->4N (plugin) |")
        print("|---|---:|---:|---:|---:|---:|")
        for shape, gen in SHAPES.items():
            results = {}
            for n in depths:
                src, plain_src = sources(tmp, shape, gen, n)
                plain = compile_time(args.cxx, base, plain_src, args.repeat)
                plug = compile_time(args.cxx, base + ["-fplugin=" + args.plugin],
                                    src, args.repeat)
                results[n] = plug
                growth = ""
                if n // 4 in results:
                    growth = f"{plug / results[n // 4]:.2f}"
                print(f"| {shape} | {n} | {plain:.3f} | {plug:.3f} | "
                      f"{plug / plain:.2f} | {growth} |", flush=True)


def profile(args, depths, base, tmp):
    print("| shape | N | frontend plain / plugin (s) | of which the plugin (s) "
          "| backend plain / plugin (s) | plugin per block (ms) |")
    print("|---|---:|---:|---:|---:|---:|")
    for shape, gen in SHAPES.items():
        for n in depths:
            src, plain_src = sources(tmp, shape, gen, n)
            pf, pb, _ = phases(args.cxx, base, plain_src, tmp)
            gf, gb, own = phases(args.cxx, base + ["-fplugin=" + args.plugin],
                                 src, tmp)
            print(f"| {shape} | {n} | {pf:.3f} / {gf:.3f} | {own:.3f} | "
                  f"{pb:.3f} / {gb:.3f} | {1000 * own / n:.3f} |", flush=True)


if __name__ == "__main__":
    main()
