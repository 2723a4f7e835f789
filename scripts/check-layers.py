#!/usr/bin/env python3
"""Check the plugin's layering (docs/design.md, "Map of the plugin").

The folders under plugin/ are ranked; a file may include plugin headers only
from its own rank or below, and forward/ and reverse/ (siblings) may not
include each other. Files in analysis/ compute and print facts: they may not
include the headers that build code (ast/SemaBuilder.h, ast/Replay.h).

  scripts/check-layers.py            check; print each violation as file:line
  scripts/check-layers.py --graph    print the include edges between folders

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
    # The forms of std::min/max/clamp and of calls over iterators are built
    # here (docs/plan-layers.md sec. 5a: to move to lift/).
    ("analysis/Selectors.cpp", "ast/SemaBuilder.h"),
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
    return status


if __name__ == "__main__":
    sys.exit(main())
