"""Compares the horner_pullback listing of getting-started.md with grad-dump."""
import sys

doc = open(sys.argv[1]).read()
dump = open(sys.argv[2]).read()
head = "void horner_pullback(const double *c, int n, double x, double d_ret, double *d_c, double *d_x) {"
start = doc.index("```cpp\n" + head) + len("```cpp\n")
shown = doc[start:doc.index("```", start)].rstrip()
real = dump[dump.index(head):].rstrip()
if shown != real:
    import difflib
    sys.stdout.writelines(difflib.unified_diff(
        shown.splitlines(True), real.splitlines(True), "docs", "grad-dump"))
    sys.exit("docs/getting-started.md: the horner dump differs from grad-dump's output")
print("ok")
