#!/usr/bin/env python3
"""Every rewrite the plugin's messages suggest is checked by a test.

A refusal names what the user wrote, why, and in parentheses a rewrite
that is accepted ("(write the loop)", "(bind it to a local reference
first)"). This script finds those parenthesized clauses in the plugin's
string literals and checks that each one is
  - covered: a test under test/ has a line `// ADVICE: TEXT` whose TEXT
    contains the clause, and the same file checks the message (the clause
    appears on another line of it, an ERR:/CHECK: line), and compiles and
    runs the rewrite (the test's other RUN lines), or
  - listed in test/rewrites/not-advice.txt with the reason it is not a
    rewrite (an explanation such as "(only accumulated into here)"), or
  - an internal error ("(internal error...").

  scripts/check-advice.py [--list] [ROOT]

--list prints every clause with where it is covered. Exit status 1 when a
clause is neither covered nor listed, or when a listed clause no longer
exists in the plugin (the list stays true).
"""
import pathlib
import re
import sys

LITERAL = re.compile(r'"(?:[^"\\\n]|\\.)*"(?:\s*"(?:[^"\\\n]|\\.)*")*')
PIECE = re.compile(r'"((?:[^"\\]|\\.)*)"')
# A clause: '(' then a word, up to ')' or the literal's end ('()' inside).
CLAUSE = re.compile(r"\(([a-zA-Z`](?:[^()]|\(\))*)(\)|$)")
# Macro parameter lists in .def files are not messages.
MACRO_PARAMS = re.compile(r"^[A-Z][A-Za-z]*(, [A-Z][A-Za-z]*)+$")


def strip_comments(text):
    return re.sub(r"//[^\n]*", "", text)


def clauses(root):
    """(file, line, clause, needle) for every advice-like clause in the
    plugin; the needle is '(clause)' whole, or '(clause' where the message
    goes on with a name."""
    for path in sorted((root / "plugin").rglob("*")):
        if path.suffix not in (".cpp", ".h", ".def") or path.name.endswith(
                "Test.cpp"):
            continue
        text = strip_comments(path.read_text())
        for m in LITERAL.finditer(text):
            literal = "".join(PIECE.findall(m.group(0)))
            for c in CLAUSE.finditer(literal):
                body = c.group(1)
                # Format placeholders and short asides are not rewrites.
                if len(body) < 8 or MACRO_PARAMS.match(body):
                    continue
                line = text.count("\n", 0, m.start()) + 1
                if c.group(2) == ")":
                    yield path.relative_to(root), line, body, f"({body})"
                else:
                    # Cut where the message inserts a name: a prefix.
                    key = body.rstrip(" '`")
                    yield path.relative_to(root), line, key, f"({key}"


def advice_lines(root):
    """{test file: [ADVICE texts]} and each file's other lines."""
    out = {}
    for path in sorted((root / "test").rglob("*")):
        if path.suffix not in (".cpp", ".test") or not path.is_file():
            continue
        lines = path.read_text(errors="replace").splitlines()
        adv = [l.split("ADVICE:", 1)[1].strip() for l in lines
               if "ADVICE:" in l]
        if adv:
            out[path.relative_to(root)] = (adv, [l for l in lines
                                                 if "ADVICE:" not in l])
    return out


def main(argv):
    list_all = "--list" in argv
    args = [a for a in argv if not a.startswith("--")]
    root = pathlib.Path(args[0] if args else
                        pathlib.Path(__file__).resolve().parent.parent)
    listed = {}
    known = root / "test" / "rewrites" / "not-advice.txt"
    for l in known.read_text().splitlines():
        if l.strip() and not l.startswith("#"):
            clause, _, reason = l.partition("|")
            listed[clause.strip()] = reason.strip()
    tests = advice_lines(root)
    missing, seen = [], set()
    for path, line, key, needle in clauses(root):
        if key in seen:
            continue
        seen.add(key)
        where = None
        if key.startswith("internal error"):
            where = "internal error"
        elif key in listed:
            where = "not advice: " + listed[key]
        else:
            for test, (adv, other) in tests.items():
                if any(needle in a for a in adv) and any(
                        needle in o for o in other):
                    where = str(test)
                    break
        if list_all:
            print(f"{path}:{line}: ({key}) -> {where or 'NOT COVERED'}")
        if where is None:
            missing.append((path, line, key))
    stale = [k for k in listed if k not in seen]
    for path, line, key in missing:
        print(f"{path}:{line}: advice '({key}' has no test: add a test with "
              f"'// ADVICE: ({key}...' that checks the message and the "
              f"rewrite, or list it in test/rewrites/not-advice.txt")
    for k in stale:
        print(f"test/rewrites/not-advice.txt: '{k}' is not in the plugin "
              f"any more: remove the line")
    covered = len(seen) - len(missing)
    print(f"check-advice: {covered} of {len(seen)} clauses covered or "
          f"exempt, {len(missing)} missing, {len(stale)} stale")
    return 1 if missing or stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
