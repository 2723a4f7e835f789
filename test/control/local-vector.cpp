// Local std::vector<double> tmp(n) scratch buffers inside loops.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "vecgrad.h"
#include <cmath>
#include <grad/grad.h>
#include <vector>

[[grad]] double circular(const double *x, int n) {
  std::vector<double> t(n);
  for (int i = 0; i < n; ++i)
    t[i] = x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += t[i] * t[(i + 1) % n];
  return s;
}

// Ping-pong between two buffers for several sweeps.
[[grad]] double diffuse(const double *x, int n, double k) {
  std::vector<double> a(n), b(n);
  for (int i = 0; i < n; ++i)
    a[i] = x[i];
  for (int s = 0; s < 4; ++s) {
    for (int i = 0; i < n; ++i) {
      double l = a[(i + n - 1) % n], r = a[(i + 1) % n];
      b[i] = a[i] + k * (l - 2 * a[i] + r);
    }
    for (int i = 0; i < n; ++i)
      a[i] = std::tanh(b[i]);
  }
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i] * (i + 1);
  return s;
}

int main() {
  const int N = 6;
  auto X = vecgrad::sample(N, 9);
  {
    std::vector<double> D(N, 0.0);
    circular_pullback(X.data(), N, 1.0, D.data());
    auto F = [&](const std::vector<double> &V) { return circular(V.data(), N); };
    // CHECK: ok circular.d0
    // CHECK: ok circular.d5
    vecgrad::check("circular", F, X, D);
  }
  {
    std::vector<double> In = X;
    In.push_back(0.2);
    std::vector<double> D(N + 1, 0.0);
    diffuse_pullback(In.data(), N, In[N], 1.0, D.data(), &D[N]);
    auto F = [&](const std::vector<double> &V) { return diffuse(V.data(), N, V[N]); };
    // CHECK: ok diffuse.d0
    // CHECK: ok diffuse.d6
    vecgrad::check("diffuse", F, In, D);
  }
  return gradcheck::failures();
}
