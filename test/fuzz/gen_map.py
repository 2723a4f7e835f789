#!/usr/bin/env python3
"""Random grad::map / grad::broadcast programs for the differential fuzzer.

Each function sums a map or broadcast over std::vector<double> inputs whose
callable is drawn from the four lambda classes the plugin distinguishes:
pure (forward, dual numbers), capturing a scalar or a vector element
(reverse), and stateful (writes a captured accumulator). main() checks every
adjoint (each vector element and each scalar) against central finite
differences with Richardson extrapolation.

  gen_map.py --seed S --functions N -o FILE.cpp
"""
import argparse
import random

UNARY = ["std::tanh({})", "std::sin({})", "std::exp(0.3 * {})",
         "std::log(1.5 + {} * {})", "std::sqrt(1.0 + {} * {})",
         "std::atan({})", "({} * {})", "(0.5 * {})"]


def expr(rng, leaves, depth):
    if depth == 0 or rng.random() < 0.3:
        return rng.choice(leaves)
    k = rng.randrange(3)
    if k == 0:
        f = rng.choice(UNARY)
        a = expr(rng, leaves, depth - 1)
        return f.replace("{}", "(" + a + ")")
    op = rng.choice(["+", "-", "*"])
    return "(" + expr(rng, leaves, depth - 1) + " " + op + " " + \
        expr(rng, leaves, depth - 1) + ")"


def function(rng, i):
    kind = rng.choice(["pure", "pure2", "capscalar", "capvec", "stateful",
                       "broadcast"])
    name = f"m{i}"
    if kind == "pure":
        body = expr(rng, ["z"], 3)
        src = (f"[[grad]] double {name}(const V &x, const V &y, double s) {{\n"
               f"  return grad::sum(grad::map([](double z) {{ return {body}; }}, x)) * s;\n}}\n")
    elif kind == "pure2":
        body = expr(rng, ["a", "b"], 3)
        src = (f"[[grad]] double {name}(const V &x, const V &y, double s) {{\n"
               f"  return grad::sum(grad::map([](double a, double b) {{ return {body}; }}, x, y)) + s;\n}}\n")
    elif kind == "capscalar":
        body = expr(rng, ["z", "s"], 3)
        src = (f"[[grad]] double {name}(const V &x, const V &y, double s) {{\n"
               f"  return grad::sum(grad::map([&](double z) {{ return {body}; }}, x));\n}}\n")
    elif kind == "capvec":
        body = expr(rng, ["z", "y[0]", "y[1]"], 3)
        src = (f"[[grad]] double {name}(const V &x, const V &y, double s) {{\n"
               f"  return grad::sum(grad::map([&](double z) {{ return {body}; }}, x)) * s;\n}}\n")
    elif kind == "stateful":
        body = expr(rng, ["z", "acc"], 2)
        src = (f"[[grad]] double {name}(const V &x, const V &y, double s) {{\n"
               f"  double acc = s;\n"
               f"  double t = grad::sum(grad::map([&acc](double z) {{ acc = 0.5 * acc + {body}; return acc * z; }}, x));\n"
               f"  return t + acc;\n}}\n")
    else:
        body = expr(rng, ["a", "c"], 3)
        src = (f"[[grad]] double {name}(const V &x, const V &y, double s) {{\n"
               f"  return grad::sum(grad::broadcast([](double a, double c) {{ return {body}; }}, x, s)) + grad::dot(x, y);\n}}\n")
    return name, src


PRELUDE = r'''#include <grad/grad.h>
#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>

using V = std::vector<double>;
static int Failures = 0, Checked = 0;

static double fd(const std::function<double(double)> &F, double X) {
  auto D = [&](double H) { return (F(X + H) - F(X - H)) / (2 * H); };
  double H = 1e-3 * (std::fabs(X) > 1 ? std::fabs(X) : 1.0);
  return (4 * D(H / 2) - D(H)) / 3;
}

static void expect(const char *Name, int I, double Got, double Want) {
  ++Checked;
  if (std::fabs(Got - Want) <= 1e-8 + 1e-6 * std::fabs(Want))
    return;
  ++Failures;
  std::printf("FAIL %s[%d] got %.17g want %.17g\n", Name, I, Got, Want);
}

using Fn = double (*)(const V &, const V &, double);
using Pb = void (*)(const V &, const V &, double, double, V *, V *, double *);

static void check(const char *Name, Fn F, Pb P, V X, V Y, double S) {
  V DX(X.size(), 0.0), DY(Y.size(), 0.0);
  double DS = 0;
  P(X, Y, S, 1.0, &DX, &DY, &DS);
  for (std::size_t I = 0; I < X.size(); ++I)
    expect(Name, int(I), DX[I], fd([&](double V0) { V Z = X; Z[I] = V0; return F(Z, Y, S); }, X[I]));
  for (std::size_t I = 0; I < Y.size(); ++I)
    expect(Name, 100 + int(I), DY[I], fd([&](double V0) { V Z = Y; Z[I] = V0; return F(X, Z, S); }, Y[I]));
  expect(Name, 200, DS, fd([&](double V0) { return F(X, Y, V0); }, S));
}
'''


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--functions", type=int, default=10)
    ap.add_argument("-o", required=True)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    out = [PRELUDE]
    names = []
    for i in range(a.functions):
        n, src = function(rng, i)
        names.append(n)
        out.append(src)
    out.append("int main() {")
    for n in names:
        xs = ", ".join(f"{rng.uniform(-0.9, 0.9):.3f}" for _ in range(4))
        ys = ", ".join(f"{rng.uniform(-0.9, 0.9):.3f}" for _ in range(4))
        s = f"{rng.uniform(0.2, 0.9):.3f}"
        out.append(f'  check("{n}", {n}, {n}_pullback, V{{{xs}}}, V{{{ys}}}, {s});')
    out.append('  std::printf("checked %d functions, %d adjoints, %d failures\\n", '
               f'{a.functions}, Checked, Failures);')
    out.append("  return Failures != 0;\n}")
    with open(a.o, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
