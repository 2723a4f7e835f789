// Scratch memory from new[] and malloc gets a zeroed shadow of the same size,
// allocated with it and freed when the reverse sweep reaches the allocation;
// aliases into it (q = w + 1) share its shadow, also when it is allocated
// in a loop. delete[] and free are replayed as written.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "vecgrad.h"
#include <cmath>
#include <cstdlib>

// DUMP-LABEL: void scratch_pullback(const double *x, int n, double d_ret, double *d_x) {
// DUMP: double *t = new double [n];
// DUMP-NEXT: _d_t = static_cast<double *>(::grad::detail::shadow_alloc(static_cast<unsigned long>(n) * 8UL));
// DUMP: ::grad::detail::shadow_free(_d_u);
// DUMP: ::grad::detail::shadow_free(_d_t);
[[grad]] double scratch(const double *x, int n) {
  double *t = new double[n];
  for (int i = 0; i < n; ++i)
    t[i] = x[i] * x[i];
  double *u = (double *)std::malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    u[i] = std::sin(t[i]) + t[n - 1 - i];
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += u[i] * t[i];
  delete[] t;
  std::free(u);
  return s;
}

[[grad]] double perstep(const double *x, int n, int m) {
  double s = 0;
  for (int k = 0; k < m; ++k) {
    double *w = new double[n];
    for (int i = 0; i < n; ++i)
      w[i] = x[i] * (k + 1);
    double *q = w + 1;
    for (int i = 0; i + 1 < n; ++i)
      s += std::cos(q[i]) * w[i];
    delete[] w;
  }
  return s;
}

int main() {
  auto X = vecgrad::sample(5, 11);
  std::vector<double> D(5);
  scratch_pullback(X.data(), 5, 1.0, D.data());
  // CHECK: ok scratch.d0
  // CHECK: ok scratch.d4
  vecgrad::check("scratch", [](const std::vector<double> &Y) {
    return scratch(Y.data(), 5);
  }, X, D);
  std::vector<double> E(5);
  perstep_pullback(X.data(), 5, 3, 1.0, E.data());
  // CHECK: ok perstep.d0
  // CHECK: ok perstep.d4
  vecgrad::check("perstep", [](const std::vector<double> &Y) {
    return perstep(Y.data(), 5, 3);
  }, X, E);
  return gradcheck::failures();
}
