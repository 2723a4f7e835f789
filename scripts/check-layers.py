#!/usr/bin/env python3
"""Check the plugin's layering (docs/design.md, "Map of the plugin").

The folders under plugin/ are ranked; a file may include plugin headers only
from its own rank or below, and forward/ and reverse/ (siblings) may not
include each other. Files in analysis/ compute and print facts: they may not
include the headers that build code (ast/SemaBuilder.h, ast/Replay.h).

  scripts/check-layers.py            check; print each violation as file:line
  scripts/check-layers.py --graph    print the include edges between folders
  scripts/check-layers.py --objects BUILD
                                     also check the built objects: a
                                     function declared in a lower layer
                                     must not be defined in a higher one
                                     (a use resolved up the layers is an
                                     upward edge the includes do not show)

KNOWN lists the upward edges that the restructuring has not removed yet. A
violation not in KNOWN fails, and so does an entry of KNOWN that no longer
occurs: the list can only shrink.
"""
import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PLUGIN = os.path.join(REPO, "plugin")
RANK = {"ast": 0, "analysis": 1, "lift": 2, "forward": 3, "reverse": 3,
        "driver": 4}
SIBLINGS = {("forward", "reverse"), ("reverse", "forward")}
CODE_BUILDING = {"ast/SemaBuilder.h", "ast/Replay.h"}

# (including file, included header): edges to remove (docs/plan-layers.md).
KNOWN = {
}


def violations():
    found = {}
    for folder in sorted(RANK):
        root = os.path.join(PLUGIN, folder)
        for name in sorted(os.listdir(root)):
            path = os.path.join(root, name)
            rel = folder + "/" + name
            with open(path, encoding="utf-8") as f:
                for no, line in enumerate(f, 1):
                    m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                    if not m:
                        continue
                    inc = m.group(1)
                    to = inc.split("/")[0]
                    if to not in RANK:
                        if os.path.exists(os.path.join(PLUGIN, inc)):
                            found[(rel, inc)] = (no, "include without folder")
                        continue
                    why = None
                    if RANK[to] > RANK[folder]:
                        why = "%s (rank %d) includes %s (rank %d)" % (
                            folder, RANK[folder], to, RANK[to])
                    elif (folder, to) in SIBLINGS:
                        why = "%s and %s are siblings" % (folder, to)
                    elif folder == "analysis" and inc in CODE_BUILDING:
                        why = "analysis builds no code"
                    if why:
                        found[(rel, inc)] = (no, why)
    return found


def object_violations(build):
    """Uses of a symbol by an object of one layer that only an object of a
    higher (or sibling) layer defines."""
    import shutil
    import subprocess
    nm = shutil.which("llvm-nm") or shutil.which("nm")
    with open(os.path.join(PLUGIN, "CMakeLists.txt"), encoding="utf-8") as f:
        sources = re.findall(r"^\s+((?:%s)/\w+\.cpp)\s*$" % "|".join(RANK),
                             f.read(), re.M)
    objdir = os.path.join(build, "plugin", "CMakeFiles", "GradCore.dir")
    defined, used = {}, {}
    for src in sources:
        obj = os.path.join(objdir, src + ".o")
        if not os.path.exists(obj):
            print("check-layers: %s not built" % obj)
            return None
        out = subprocess.run([nm, "-C", obj], capture_output=True,
                             text=True, check=True).stdout
        for line in out.splitlines():
            m = re.match(r"^(?:[0-9a-f]+)?\s+([A-Za-z])\s+(.*)$", line)
            if not m:
                continue
            kind, name = m.groups()
            if kind in "TDBR":
                defined.setdefault(name, set()).add(src)
            elif kind == "U":
                used.setdefault(src, set()).add(name)
    found = {}
    for src, names in used.items():
        layer = src.split("/")[0]
        for name in names:
            for definer in defined.get(name, ()):
                to = definer.split("/")[0]
                if RANK[to] > RANK[layer] or (layer, to) in SIBLINGS:
                    found.setdefault((src, definer), set()).add(
                        name.split("(")[0])
    return found


def main():
    for folder in os.listdir(PLUGIN):
        full = os.path.join(PLUGIN, folder)
        if os.path.isdir(full) and folder not in RANK:
            print("check-layers: plugin/%s/ has no rank" % folder)
            return 1
    stray = [n for n in os.listdir(PLUGIN)
             if os.path.isfile(os.path.join(PLUGIN, n)) and n != "CMakeLists.txt"]
    if stray:
        print("check-layers: files outside the layer folders: " + ", ".join(stray))
        return 1
    found = violations()
    if "--graph" in sys.argv:
        for (src, inc), (no, why) in sorted(found.items()):
            print("plugin/%s:%d: %s: %s" % (src, no, inc, why))
        return 0
    status = 0
    for (src, inc), (no, why) in sorted(found.items()):
        if (src, inc) not in KNOWN:
            print("plugin/%s:%d: error: #include \"%s\": %s" % (src, no, inc, why))
            status = 1
    for src, inc in sorted(KNOWN):
        if (src, inc) not in found:
            print("check-layers: plugin/%s no longer includes %s: remove it from KNOWN"
                  % (src, inc))
            status = 1
    print("check-layers: %d upward edges left to remove, %d new" %
          (len(KNOWN), sum(1 for k in found if k not in KNOWN)))
    if "--objects" in sys.argv:
        objs = object_violations(sys.argv[sys.argv.index("--objects") + 1])
        if objs is None:
            return 1
        for (src, definer), names in sorted(objs.items()):
            print("plugin/%s: error: uses %s, defined up the layers in plugin/%s"
                  % (src, ", ".join(sorted(names)), definer))
            status = 1
        print("check-layers: %d uses of functions defined up the layers" %
              len(objs))
    return status


if __name__ == "__main__":
    sys.exit(main())
