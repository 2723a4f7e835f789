#!/usr/bin/env python3
"""docs/supported.md stays true to the tests.

Every table row of docs/supported.md names the lit tests that check it
(last column) and, in its Reverse / Forward / HVP / Vector cells, quotes
the error a refused construct gets. This script checks that
  - every test path a row names exists, and
  - every quoted message (each piece between '...' elisions) occurs in a
    test under test/, where a FileCheck line checks it: a message the
    plugin no longer prints, or prints differently, fails here.

  scripts/check-supported.py [--list] [ROOT]
"""
import pathlib
import re
import sys

# A quoted cell text is a message when it starts like one.
MESSAGE = re.compile(
    r"(cannot|call|local|assignment|'|the |read|write|use|lambda|member|"
    r"iterator|pointer|increment|construction|parameter|return|a |an |"
    r"callable)")


def rows(doc):
    for n, line in enumerate(doc.splitlines(), 1):
        if not line.startswith("| ") or line.startswith("| ---"):
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        if len(cells) == 7 and cells[0] != "Construct":
            yield n, cells


def main(argv):
    list_all = "--list" in argv
    args = [a for a in argv if not a.startswith("--")]
    root = pathlib.Path(args[0] if args else
                        pathlib.Path(__file__).resolve().parent.parent)
    doc = (root / "docs" / "supported.md").read_text()
    corpus = "\n".join(
        p.read_text(errors="replace") for p in (root / "test").rglob("*")
        if p.is_file() and p.suffix in (".cpp", ".test"))
    problems, checked = [], 0
    for n, cells in rows(doc):
        for path in re.findall(r"`(test/[^` ]+)`", cells[-1]):
            if not (root / path).exists():
                problems.append(f"docs/supported.md:{n}: test '{path}' does "
                                f"not exist")
        for cell in cells[2:6]:
            for quoted in re.findall(r"`([^`]*)`", cell):
                if not MESSAGE.match(quoted):
                    continue
                for piece in re.split(r"\s*\.\.\.\s*", quoted):
                    if len(piece) < 12:
                        continue
                    checked += 1
                    found = piece in corpus
                    if list_all:
                        print(f"docs/supported.md:{n}: "
                              f"{'ok' if found else 'NOT IN A TEST'}: {piece}")
                    if not found:
                        problems.append(
                            f"docs/supported.md:{n}: message '{piece}' is "
                            f"checked by no test under test/")
    for p in problems:
        print(p)
    print(f"check-supported: {checked} quoted messages, "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
