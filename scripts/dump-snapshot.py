#!/usr/bin/env python3
"""Snapshot of the code the plugin generates, for checking that a change
which should not alter behaviour (a refactoring) leaves it byte-identical.

For every source file given (directories are searched for *.cpp), runs
grad-dump on it and records the generated code, the diagnostics and the exit
status in one text file per source under OUT. Files holding several sources
in `//--- name` sections (lit's split-file format) are split first and each
.cpp section is dumped on its own, with the other sections on the include
path. Paths in diagnostics are made relative, so snapshots compare across
machines and checkouts.

  scripts/dump-snapshot.py --grad-dump build/bin/grad-dump --out DIR SOURCES...
  scripts/dump-snapshot.py ... --compare REFDIR     (exit 1 on any difference)

The lit test test/dump/snapshots.test keeps test/dump and examples/ equal to
the snapshots committed in test/dump/snapshots; after an intended change to
generated code, refresh them with scripts/update-dump-snapshots.sh.
"""
import argparse
import concurrent.futures
import difflib
import os
import re
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sources(args):
    for a in args:
        if os.path.isdir(a):
            for root, dirs, files in os.walk(a):
                dirs.sort()
                for f in sorted(files):
                    if f.endswith(".cpp"):
                        yield os.path.join(root, f)
        else:
            yield a


def split_sections(path):
    """The `//--- name` sections of a split-file source, or None."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    sections, name = [], None
    for line in lines:
        m = re.match(r"^//--- (\S+)\s*$", line)
        if m:
            name = m.group(1)
            sections.append([name, []])
        elif name is not None:
            sections[-1][1].append(line)
    return [(n, "\n".join(body) + "\n") for n, body in sections] or None


def run_dump(grad_dump, path, extra_includes, shown_as, tmp_prefix):
    cmd = [grad_dump, path, "--", "-std=c++20",
           "-I" + os.path.join(REPO, "runtime", "include"),
           "-I" + os.path.join(REPO, "test", "Inputs")]
    cmd += ["-I" + d for d in extra_includes]
    p = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
    def relative(text):
        if tmp_prefix:
            text = text.replace(tmp_prefix, "%t")
        return text.replace(REPO + os.sep, "")
    return ("==== %s (exit %d)\n%s==== stderr\n%s" %
            (shown_as, p.returncode, relative(p.stdout), relative(p.stderr)))


def snapshot_one(grad_dump, src):
    rel = os.path.relpath(os.path.abspath(src), REPO)
    sections = split_sections(src)
    if not sections:
        return rel, run_dump(grad_dump, os.path.abspath(src), [], rel, None)
    out = []
    with tempfile.TemporaryDirectory(prefix="grad-snap-") as tmp:
        for name, text in sections:
            target = os.path.join(tmp, name)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "w", encoding="utf-8") as f:
                f.write(text)
        for name, _ in sections:
            if name.endswith(".cpp"):
                out.append(run_dump(grad_dump, os.path.join(tmp, name),
                                    [tmp], rel + ":" + name, tmp))
    return rel, "".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--grad-dump", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--compare", help="reference snapshot directory")
    ap.add_argument("-j", type=int, default=os.cpu_count() or 2)
    ap.add_argument("sources", nargs="+")
    args = ap.parse_args()

    srcs = list(sources(args.sources))
    with concurrent.futures.ThreadPoolExecutor(args.j) as pool:
        results = list(pool.map(lambda s: snapshot_one(args.grad_dump, s), srcs))

    for rel, text in results:
        target = os.path.join(args.out, rel + ".dump")
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8") as f:
            f.write(text)
    print("dump-snapshot: %d sources -> %s" % (len(results), args.out))
    if not args.compare:
        return 0

    differ = 0
    for rel, text in results:
        ref = os.path.join(args.compare, rel + ".dump")
        if not os.path.exists(ref):
            print("dump-snapshot: no reference for %s (%s)" % (rel, ref))
            differ += 1
            continue
        with open(ref, encoding="utf-8") as f:
            want = f.read()
        if want != text:
            differ += 1
            sys.stdout.writelines(difflib.unified_diff(
                want.splitlines(True), text.splitlines(True),
                "reference/" + rel, "now/" + rel, n=2))
    if differ:
        print("dump-snapshot: %d of %d sources differ from %s" %
              (differ, len(results), args.compare))
        return 1
    print("dump-snapshot: all %d sources identical to %s" %
          (len(results), args.compare))
    return 0


if __name__ == "__main__":
    sys.exit(main())
