// Returns inside loops: a search loop returning the first element above a
// threshold, a return from a nested loop, and returns from while loops.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "vecgrad.h"
#include <cmath>
#include <grad/grad.h>
#include <vector>

// Only the found element (and t) may get an adjoint.
[[grad]] double search(const double *x, int n, double t) {
  for (int i = 0; i < n; ++i) {
    if (x[i] > t)
      return x[i] * t;
  }
  return t;
}

// Overwrites before the return inside the loop.
[[grad]] double first_big(double x, double y) {
  double s = x;
  for (int i = 0; i < 20; ++i) {
    s = s * y + 0.25;
    if (s > 2) {
      s = s * x;
      return s + i;
    }
    s = std::sin(s) + s;
  }
  return -s;
}

[[grad]] double nested_search(const double *a, int n, double x) {
  double s = x;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      s = s * 0.9 + a[i * n + j] * x;
      if (s > 1.5)
        return s * a[j];
    }
  return s;
}

[[grad]] double while_return(double x, double y) {
  double s = x;
  int i = 0;
  while (i < 10) {
    s = s * y;
    if (s < 0.1)
      return s + x;
    ++i;
  }
  return s * s;
}

int main() {
  std::vector<double> X = {0.1, -0.4, 0.3, 0.9, 0.8, 0.05};
  int N = (int)X.size();
  for (double T : {0.5, 0.2, 2.0}) {
    std::vector<double> In = X;
    In.push_back(T);
    auto F = [&](const std::vector<double> &V) { return search(V.data(), N, V[N]); };
    std::vector<double> D(N + 1, 0.0);
    search_pullback(In.data(), N, T, 1.0, D.data(), &D[N]);
    vecgrad::check("search.t" + std::to_string(T), F, In, D);
  }
  // CHECK: ok search.t0.500000.d3
  // CHECK: ok search.t0.200000.d2
  // CHECK: ok search.t2.000000.d6
  // CHECK: ok first_big.d0
  // CHECK: ok first_big.d1
  gradcheck::check_grad("first_big", first_big, first_big_pullback, 0.3, 1.2);
  // Never returns early.
  gradcheck::check_grad("first_big", first_big, first_big_pullback, 0.3, 0.5);
  // CHECK: ok nested_search.d9
  {
    int M = 3;
    auto In = vecgrad::sample(M * M + 1, 3);
    for (auto &V : In)
      V = 0.5 + 0.5 * V;
    auto F = [&](const std::vector<double> &V) {
      return nested_search(V.data(), M, V[M * M]);
    };
    std::vector<double> D(M * M + 1, 0.0);
    nested_search_pullback(In.data(), M, In[M * M], 1.0, D.data(), &D[M * M]);
    vecgrad::check("nested_search", F, In, D);
  }
  // CHECK: ok while_return.d1
  gradcheck::check_grad("while_return", while_return, while_return_pullback,
                        0.9, 0.5);
  gradcheck::check_grad("while_return", while_return, while_return_pullback,
                        0.9, 1.05);
  return gradcheck::failures();
}
