// grad-dump output for loops, the tape, break/continue, local arrays and
// local std::vector scratch buffers compiles without the plugin and computes
// bit-identical gradients to the plugin's pullbacks.
// RUN: rm -rf %t && split-file %s %t
// RUN: %dump %t/prims.cpp %dflags > %t/gen.inc
// RUN: %cxx -Wno-unknown-attributes -DFROM_DUMP -I%t %t/main.cpp -o %t/dumped
// RUN: %gradxx -I%t %t/main.cpp -o %t/plugin
// RUN: %t/dumped > %t/dumped.txt
// RUN: %t/plugin > %t/plugin.txt
// RUN: diff %t/dumped.txt %t/plugin.txt
// RUN: %FileCheck-strict %s --implicit-check-not=FAIL --input-file=%t/dumped.txt
// CHECK: ok rnn
// CHECK: ok jumps
// CHECK: ok scratch
// CHECK: ok vec

//--- prims.cpp
#include <cmath>
#include <grad/grad.h>
#include <vector>

[[grad]] inline double rnn(const double *x, int n, double w) {
  double h = 0;
  for (int i = 0; i < n; ++i)
    h = std::tanh(w * h + x[i]);
  return h;
}

[[grad]] inline double jumps(double x, double y) {
  double s = x;
  for (int i = 0; i < 50; ++i) {
    s = s * y + 0.1;
    if (i % 3 == 1)
      continue;
    if (s > 3)
      break;
  }
  return s;
}

[[grad]] inline double scratch(const double *x, int n) {
  double t[16];
  for (int i = 0; i < n; ++i)
    t[i] = x[i] * x[i];
  for (int i = 1; i < n; ++i)
    t[i] = t[i] * t[i - 1] + 0.5;
  return t[n - 1];
}

[[grad]] inline double vec(const double *x, int n) {
  std::vector<double> t(n);
  for (int i = 0; i < n; ++i)
    t[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += t[i] * t[(i + 1) % n];
  return s;
}

//--- main.cpp
#include "prims.cpp"
#ifdef FROM_DUMP
#include "gen.inc"
#endif
#include "gradcheck.h"

template <class F, class P>
static void arr(const char *Name, F f, P p) {
  const int N = 6;
  double X[N], D[N] = {};
  for (int I = 0; I < N; ++I)
    X[I] = 0.3 + 0.1 * I;
  p(X, N, D);
  std::printf("%s", Name);
  for (double V : D)
    std::printf(" %a", V);
  std::printf("\n");
  double Want = 0;
  {
    double Y[N];
    for (int I = 0; I < N; ++I)
      Y[I] = X[I];
    auto G = [&](double V) {
      Y[2] = V;
      return f(Y, N);
    };
    Want = gradcheck::fd(G, 0, X[2]);
  }
  gradcheck::expect(Name, D[2], Want);
}

int main() {
  arr("rnn", [](const double *X, int N) { return rnn(X, N, 0.8); },
      [](const double *X, int N, double *D) {
        double DW = 0;
        rnn_pullback(X, N, 0.8, 1.0, D, &DW);
      });
  double DX = 0, DY = 0;
  jumps_pullback(0.5, 1.3, 1.0, &DX, &DY);
  std::printf("jumps %a %a\n", DX, DY);
  gradcheck::expect("jumps", DY, gradcheck::fd(jumps, 1, 0.5, 1.3));
  arr("scratch", scratch, [](const double *X, int N, double *D) {
    scratch_pullback(X, N, 1.0, D);
  });
  arr("vec", vec, [](const double *X, int N, double *D) {
    vec_pullback(X, N, 1.0, D);
  });
  return gradcheck::failures();
}
