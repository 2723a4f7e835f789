// Loops, tapes and split derivatives need no #include: the plugin makes
// its runtime (grad/core.h) available by itself. Compiled without -I.
// RUN: %clangxx -std=c++20 -O1 -fplugin=%plugin %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// The header the plugin includes is immune to the user's macros.
// RUN: %clangxx -std=c++20 -O1 -fplugin=%plugin -DV=1 -DT=2 -DS=3 -DP=4 -DN=5 -DSize=6 -Dpos=7 %s -o %t.macros && %t.macros | %FileCheck-strict %s --implicit-check-not=FAIL
#include <cmath>
#include <cstdio>

// A loop: values go on the thread's stack.
[[grad]] double horner(const double *c, int n, double x) {
  double y = 0;
  for (int i = n - 1; i >= 0; --i)
    y = y * x + c[i];
  return y;
}

// Nested calls: split into halves whose frames go on the same stack.
double f1(double x) { return std::sin(x) * x; }
double f2(double x) { return f1(x) + f1(2 * x); }
double f3(double x) { return f2(x) * f2(x + 1); }
[[grad]] double top(double x) { return f3(x) + std::exp(-f3(x)); }

static int Failures = 0;
static void expect(const char *Name, double Got, double Want) {
  bool OK = std::fabs(Got - Want) <= 1e-9 + 1e-7 * std::fabs(Want);
  std::printf("%s %s got %.17g want %.17g\n", OK ? "ok" : "FAIL", Name, Got,
              Want);
  Failures += !OK;
}

int main() {
  const double C[4] = {1, -2, 3, 0.5};
  double DC[4] = {0, 0, 0, 0}, DX = 0;
  horner_pullback(C, 4, 0.7, 1.0, DC, &DX);
  // CHECK: ok horner.dx
  expect("horner.dx", DX, -2 + 2 * 3 * 0.7 + 3 * 0.5 * 0.49);
  // CHECK: ok horner.dc3
  expect("horner.dc3", DC[3], 0.7 * 0.7 * 0.7);
  double H = 1e-5, X = 0.3, D = 0;
  top_pullback(X, 1.0, &D);
  // CHECK: ok top
  expect("top", D, (top(X + H) - top(X - H)) / (2 * H));
  return Failures;
}
