#!/usr/bin/env python3
"""Check that grad-dump's output compiles on its own, for every source given.

For every source file given (directories are searched for *.cpp; lit's
split-file sources are split first, as in dump-snapshot.py) that grad-dump
accepts (exit 0), compiles, without the plugin and with each compiler given,

    #include "decls.h"   // --declarations-to: the generated functions
    #include "SOURCE"    // the program, as written
    #include "gen.inc"   // grad-dump: their definitions

where SOURCE gets GRAD_IDE_MEMBERS(Class) at the places grad-dump's
--declarations names (docs/ide.md), so that member derivatives are declared
in their classes. Warnings are errors in gen.inc only (-Wall -Wextra
-Werror): the program and the headers it includes are system headers here,
their own warnings are not grad-dump's. Sources grad-dump refuses are
counted and skipped (their refusals are what the lit tests check).

  scripts/dump-compiles.py --grad-dump build/bin/grad-dump \\
      [--cxx clang++-19 --cxx g++] [-j N] [--known FILE] SOURCES...

Exits 1 when any accepted source's output fails to compile, printing the
compiler's first errors for each. --known names a file of `SOURCE  reason`
lines (SOURCE as printed, `#` comments): their failures are reported as
known, and a known one that compiles fails the run until its line is
removed, so that the list only shrinks.
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "scripts"))
from importlib import import_module  # noqa: E402

snapshot = import_module("dump-snapshot")

# `FILE:LINE:COL: grad-dump: add GRAD_IDE_MEMBERS(X) ...`
MEMBERS_NOTE = re.compile(
    r"^(.*):(\d+):(\d+): grad-dump: add (GRAD_IDE_MEMBERS\([^)]*\))")


def stage(src, tmp):
    """Copies SRC (or its split-file sections) into TMP; the .cpp files to
    check, as paths under TMP."""
    sections = snapshot.split_sections(src)
    if not sections:
        target = os.path.join(tmp, os.path.basename(src))
        shutil.copyfile(src, target)
        return [target]
    out = []
    for name, text in sections:
        target = os.path.join(tmp, name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8") as f:
            f.write(text)
        if name.endswith(".cpp"):
            out.append(target)
    return out


def include_dirs(src, tmp):
    d = os.path.dirname(os.path.abspath(src))
    return [tmp, d, os.path.join(d, "Inputs"),
            os.path.join(REPO, "test", "Inputs"),
            os.path.join(REPO, "runtime", "include")]


def insert_members(notes, tmp):
    """Inserts GRAD_IDE_MEMBERS(X) where the notes say, last place first so
    that earlier columns stay valid. Only files under TMP (copies)."""
    edits = {}
    for line in notes.splitlines():
        m = MEMBERS_NOTE.match(line)
        if m and os.path.abspath(m.group(1)).startswith(tmp + os.sep):
            edits.setdefault(os.path.abspath(m.group(1)), []).append(
                (int(m.group(2)), int(m.group(3)), m.group(4)))
    for path, places in edits.items():
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        for line, col, text in sorted(places, reverse=True):
            s = lines[line - 1]
            lines[line - 1] = s[:col - 1] + text + "; " + s[col - 1:]
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))


def as_system_header(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    with open(path, "w", encoding="utf-8") as f:
        f.write("#pragma GCC system_header\n" + text)


def conditional_depth(text):
    """How many #if blocks are open at the end of TEXT."""
    depth = 0
    for line in text.split("\n"):
        d = re.match(r"\s*#\s*(if|ifdef|ifndef|endif)\b", line)
        if d:
            depth += -1 if d.group(1) == "endif" else 1
    return depth


def split_before_main(cpp):
    """The program as system headers: CPP.sys, and CPP.main.sys from `int
    main` on when CPP has one (explicit specializations of pullback
    templates must come before main calls them, as in a program that
    includes the dump: docs/grad-dump.md). The paths to include."""
    with open(cpp, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"^int main\b", text, re.M)
    if m and conditional_depth(text[:m.start()]):
        m = None  # main inside #if: the dump goes at the end
    parts = [text[:m.start()], text[m.start():]] if m else [text]
    paths = [cpp + ".sys", cpp + ".main.sys"][:len(parts)]
    for path, part in zip(paths, parts):
        with open(path, "w", encoding="utf-8") as f:
            f.write("#pragma GCC system_header\n" + part)
    return paths


def check_one(args, cpp, tmp, incs):
    """None when grad-dump refuses CPP, else a list of failure texts."""
    flags = ["-std=c++20"] + ["-I" + d for d in incs]
    base = os.path.splitext(cpp)[0]
    gen, decls = base + ".gen.inc", base + ".decls.h"
    # One run writes the dump (stdout) and the declarations header.
    dump = subprocess.run([args.grad_dump, "--all-members",
                           "--declarations-to=" + decls, cpp, "--"] + flags,
                          capture_output=True, text=True, errors="replace")
    if dump.returncode != 0:
        return None
    with open(gen, "w", encoding="utf-8") as f:
        f.write(dump.stdout)
    insert_members(dump.stderr, tmp)
    as_system_header(decls)
    wrapper = base + ".check.cpp"
    parts = split_before_main(cpp)
    with open(wrapper, "w", encoding="utf-8") as f:
        for path in [decls, parts[0], gen] + parts[1:]:
            f.write('#include "%s"\n' % path)
    failures = []
    for cxx in args.cxx:
        cmd = [cxx, "-std=c++20", "-fsyntax-only", "-Wall", "-Wextra",
               "-Werror"] + ["-isystem" + d for d in incs] + [wrapper]
        p = subprocess.run(cmd, capture_output=True, text=True,
                           errors="replace")
        if p.returncode != 0:
            first = "\n".join(p.stderr.splitlines()[:args.lines])
            failures.append("%s:\n%s" % (cxx, first))
    return failures


def check_source(args, src):
    rel = os.path.relpath(os.path.abspath(src), REPO)
    results = []
    with tempfile.TemporaryDirectory(prefix="grad-compiles-") as tmp:
        tmp = os.path.realpath(tmp)
        cpps = stage(src, tmp)
        incs = include_dirs(src, tmp)
        for cpp in cpps:
            name = rel if len(cpps) == 1 and cpp.endswith(
                os.path.basename(src)) else rel + ":" + os.path.relpath(cpp, tmp)
            r = check_one(args, cpp, tmp, incs)
            if r:
                r = [t.replace(tmp + os.sep, "") for t in r]
            results.append((name, r))
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--grad-dump", required=True)
    ap.add_argument("--cxx", action="append",
                    help="compiler (repeatable; default clang++-19 and g++)")
    ap.add_argument("-j", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--lines", type=int, default=12,
                    help="lines of compiler output shown per failure")
    ap.add_argument("--known", help="file of known failures (see above)")
    ap.add_argument("sources", nargs="+")
    args = ap.parse_args()
    known = {}
    if args.known:
        with open(args.known, encoding="utf-8") as f:
            for line in f:
                line = line.split("#", 1)[0].strip()
                if line:
                    name, _, why = line.partition(" ")
                    known[name] = why.strip()
    args.cxx = args.cxx or ["clang++-19", "g++"]
    srcs = list(snapshot.sources(args.sources))
    with concurrent.futures.ThreadPoolExecutor(args.j) as pool:
        results = [r for rs in pool.map(lambda s: check_source(args, s), srcs)
                   for r in rs]
    refused = [n for n, r in results if r is None]
    failed = [(n, r) for n, r in results if r and n not in known]
    expected = [n for n, r in results if r and n in known]
    mended = [n for n, r in results if r is not None and not r and n in known]
    for name, texts in failed:
        print("=== %s" % name)
        for t in texts:
            print(t)
    for name in mended:
        print("=== %s: compiles now: remove it from %s" % (name, args.known))
    print("dump-compiles: %d sources, %d dumped and compiled with %s, "
          "%d refused by grad-dump (skipped), %d known failures, %d failed" %
          (len(results), len(results) - len(refused) - len(failed) -
           len(expected), " and ".join(args.cxx), len(refused),
           len(expected), len(failed) + len(mended)))
    failed += [(n, []) for n in mended]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
