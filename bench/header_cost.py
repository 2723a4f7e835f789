#!/usr/bin/env python3
"""What including the runtime costs a translation unit (issue 14, item 5).

Compiles three files with clang++-19 -std=c++20 -O0 -c, alternating, --repeat
times each, and prints the median wall time and the median frontend time that
-ftime-trace reports ("Total Frontend"):
  base     #include <cmath> and <vector>
  core     base plus <grad/core.h> (what the plugin includes by itself)
  grad     base plus <grad/grad.h> (the whole runtime API)
The target: grad - base <= 0.3 s.

  bench/header_cost.py --include runtime/include [--repeat 9]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

SOURCES = {
    "base": "#include <cmath>\n#include <vector>\nint main() {}\n",
    "core": "#include <cmath>\n#include <vector>\n#include <grad/core.h>\n"
            "int main() {}\n",
    "grad": "#include <cmath>\n#include <vector>\n#include <grad/grad.h>\n"
            "int main() {}\n",
}


def compile_once(cxx, include, src, out):
    start = time.perf_counter()
    subprocess.run([cxx, "-std=c++20", "-O0", "-c", "-I", include,
                    "-ftime-trace", src, "-o", out], check=True)
    wall = time.perf_counter() - start
    with open(os.path.splitext(out)[0] + ".json") as f:
        trace = json.load(f)
    frontend = sum(e.get("dur", 0) for e in trace["traceEvents"]
                   if e.get("name") == "Total Frontend") / 1e6
    return wall, frontend


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--include", default="runtime/include")
    ap.add_argument("--cxx", default="clang++-19")
    ap.add_argument("--repeat", type=int, default=9)
    args = ap.parse_args()
    include = os.path.abspath(args.include)
    times = {k: ([], []) for k in SOURCES}
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in SOURCES.items():
            with open(os.path.join(tmp, name + ".cpp"), "w") as f:
                f.write(text)
        for _ in range(args.repeat):
            for name in SOURCES:
                wall, front = compile_once(
                    args.cxx, include, os.path.join(tmp, name + ".cpp"),
                    os.path.join(tmp, name + ".o"))
                times[name][0].append(wall)
                times[name][1].append(front)
    med = {k: (statistics.median(w), statistics.median(f))
           for k, (w, f) in times.items()}
    print(f"{'file':6} {'wall s':>8} {'frontend s':>11} {'wall - base':>12}")
    for name, (wall, front) in med.items():
        print(f"{name:6} {wall:8.3f} {front:11.3f} "
              f"{wall - med['base'][0]:12.3f}")
    extra = med["grad"][0] - med["base"][0]
    print(f"<grad/grad.h> costs {extra:.3f} s more than <cmath> + <vector> "
          f"(target <= 0.3): {'met' if extra <= 0.3 else 'NOT MET'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
