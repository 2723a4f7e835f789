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
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time


def distinct(n):
    out = ["#include <cmath>", "[[grad]] double f0(double x) { return x; }"]
    for i in range(1, n + 1):
        out.append(
            f"[[grad]] double f{i}(double x) {{ double h = f{i - 1}(x); "
            f"return h + 0.1 * std::tanh({1 + i % 7}.0 * h + 0.5); }}")
    out.append(f"double use(double x) {{ double d = 0; f{n}_pullback(x, 1.0, &d); return d; }}")
    return "\n".join(out) + "\n"


def template(n):
    return f"""#include <cmath>
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
    args = ap.parse_args()
    depths = [int(d) for d in args.depths.split(",")]
    base = ["-std=c++20", "-O1", "-ftemplate-depth=4096", "-I" + args.include,
            "-Wno-unknown-attributes"]
    with tempfile.TemporaryDirectory() as tmp:
        print("| shape | N | plain (s) | plugin (s) | plugin/plain | growth N->4N (plugin) |")
        print("|---|---:|---:|---:|---:|---:|")
        for shape, gen in SHAPES.items():
            results = {}
            for n in depths:
                src = os.path.join(tmp, f"{shape}{n}.cpp")
                with open(src, "w") as f:
                    f.write(gen(n))
                # Without the plugin the pullback calls do not exist.
                plain_src = os.path.join(tmp, f"{shape}{n}_plain.cpp")
                with open(plain_src, "w") as f:
                    f.write("\n".join(l for l in gen(n).splitlines()
                                      if "_pullback" not in l) + "\n")
                plain = compile_time(args.cxx, base, plain_src, args.repeat)
                plug = compile_time(args.cxx, base + ["-fplugin=" + args.plugin],
                                    src, args.repeat)
                results[n] = plug
                growth = ""
                if n // 4 in results:
                    growth = f"{plug / results[n // 4]:.2f}"
                print(f"| {shape} | {n} | {plain:.3f} | {plug:.3f} | "
                      f"{plug / plain:.2f} | {growth} |", flush=True)


if __name__ == "__main__":
    main()
