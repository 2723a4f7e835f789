// Horner's rule acc = acc * x + c[i]: the accumulator is overwritten every
// iteration; adjoints for x (against the closed-form derivative) and c.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "vecgrad.h"
#include <grad/grad.h>

// DUMP-LABEL: void horner_pullback(const double *c, int n, double x, double d_ret, double *d_c, double *d_x) {
// DUMP: d_c[{{.*}}] +=
[[grad]] double horner(const double *c, int n, double x) {
  double acc = 0;
  for (int i = 0; i < n; ++i)
    acc = acc * x + c[i];
  return acc;
}

int main() {
  const int N = 9;
  auto In = vecgrad::sample(N + 1, 7);
  In[N] = 0.85;
  std::vector<double> D(N + 1, 0.0);
  horner_pullback(In.data(), N, In[N], 1.0, D.data(), &D[N]);
  auto F = [&](const std::vector<double> &V) { return horner(V.data(), N, V[N]); };
  // CHECK: ok horner.d0
  // CHECK: ok horner.d8
  // CHECK: ok horner.d9
  vecgrad::check("horner", F, In, D);
  // Closed forms: d/dc[i] = x^(n-1-i), d/dx = sum (n-1-i) c[i] x^(n-2-i).
  double DX = 0;
  for (int I = 0; I + 1 < N; ++I)
    DX += (N - 1 - I) * In[I] * std::pow(In[N], N - 2 - I);
  // CHECK: ok horner.closed.dx
  gradcheck::expect("horner.closed.dx", D[N], DX, 1e-12);
  // CHECK: ok horner.closed.dc0
  gradcheck::expect("horner.closed.dc0", D[0], std::pow(In[N], N - 1), 1e-12);
  return gradcheck::failures();
}
