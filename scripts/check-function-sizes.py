#!/usr/bin/env python3
"""Check the size of the plugin's functions (issue 52: small functions).

Measures every function defined under plugin/ with Universal Ctags (the
length of a function is its last line minus its first, plus one) and fails
if one is longer than --max lines, or more than --max-long are longer than
--long lines. Prints the longest ones.

  scripts/check-function-sizes.py [--max 120] [--long 80] [--max-long 10]

The same figures by hand:
  ctags --c++-kinds=f --fields=+ne -o - $(git ls-files 'plugin/*.cpp' 'plugin/*.h')
"""
import argparse
import os
import shutil
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sources():
    out = []
    for root, dirs, files in os.walk(os.path.join(REPO, "plugin")):
        dirs.sort()
        for f in sorted(files):
            if f.endswith((".cpp", ".h")):
                out.append(os.path.relpath(os.path.join(root, f), REPO))
    return out


def sizes(ctags):
    tags = subprocess.run(
        [ctags, "--c++-kinds=f", "--fields=+ne", "-o", "-"] + sources(),
        cwd=REPO, check=True, capture_output=True, text=True).stdout
    for line in tags.splitlines():
        cols = line.split("\t")
        fields = dict(c.split(":", 1) for c in cols[3:] if ":" in c)
        if "line" in fields and "end" in fields:
            n = int(fields["end"]) - int(fields["line"]) + 1
            yield n, cols[1], int(fields["line"]), cols[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max", type=int, default=120)
    ap.add_argument("--long", type=int, default=80)
    ap.add_argument("--max-long", type=int, default=10)
    args = ap.parse_args()
    ctags = shutil.which("ctags")
    if not ctags:
        print("check-function-sizes: ctags (Universal Ctags) not found",
              file=sys.stderr)
        return 2
    all_sizes = sorted(sizes(ctags), reverse=True)
    long = [s for s in all_sizes if s[0] > args.long]
    print(f"check-function-sizes: {len(all_sizes)} functions, "
          f"{sum(1 for s in all_sizes if s[0] > args.max)} over {args.max} "
          f"lines, {len(long)} over {args.long} (allowed: none over "
          f"{args.max}, {args.max_long} over {args.long})")
    for n, path, line, name in long:
        print(f"  {path}:{line}: {name}: {n} lines")
    if not all_sizes:
        print("check-function-sizes: ctags found no functions",
              file=sys.stderr)
        return 2
    bad = any(n > args.max for n, *_ in all_sizes) or len(long) > args.max_long
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
