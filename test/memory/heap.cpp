// Scratch memory from new[] and malloc gets a zeroed shadow of the same size,
// allocated with it and freed when the reverse sweep reaches the allocation;
// aliases into it (q = w + 1) share its shadow, also when it is allocated
// in a loop. delete[] and free are replayed as written. Scratch memory
// without floating data (`int *idx = new int[n]`, `long *k = (long
// *)malloc(...)`, and other pointers and references to integers) is
// declared and used as written in both modes (before, an error: "'new'
// expression", "local variable of type 'long *'"); the indices read from it
// are recorded for the reverse sweep. In forward mode, floating scratch
// gets zeroed tangent memory of the same size (the runtime's shadow_alloc),
// freed where the scratch is freed (before, an error).
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "fwdcheck.h"
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

[[grad, grad::forward]] double indexed(double x, double y) {
  int n = 3;
  int *idx = new int[n];
  for (int i = 0; i < n; ++i)
    idx[i] = n - 1 - i;
  double buf[3];
  for (int i = 0; i < n; ++i)
    buf[i] = x * i + y;
  int &first = idx[0];
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += buf[idx[i]] * (i + 1) * buf[first];
  delete[] idx;
  return s;
}

[[grad, grad::forward]] double mallocIndices(double x, double y) {
  long *idx = (long *)std::malloc(3 * sizeof(long));
  for (int i = 0; i < 3; ++i)
    idx[i] = 2 - i;
  double a[3] = {x, y, x * y};
  const char *why = "permuted";
  double s = a[idx[0]] * a[idx[2]] + (why[0] == 'p' ? y : x);
  std::free(idx);
  return s;
}

[[grad, grad::forward]] double heapForward(double x, double y) {
  int n = 3;
  double *buf = new double[n];
  for (int i = 0; i < n; ++i)
    buf[i] = x * i + y;
  double *w = (double *)std::malloc(2 * sizeof(double));
  w[0] = buf[2] * y;
  w[1] = std::sin(x);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += buf[i] * buf[n - 1 - i] + w[i % 2];
  std::free(w);
  delete[] buf;
  return s;
}

int main() {
  fwdcheck::both("heapForward", heapForward, heapForward_pullback,
                 heapForward_pushforward, 1.3, -0.7);
  // CHECK: ok heapForward.fwd.x
  // CHECK: ok heapForward.fwd.y
  fwdcheck::both("indexed", indexed, indexed_pullback, indexed_pushforward,
                 1.3, -0.7);
  fwdcheck::both("mallocIndices", mallocIndices, mallocIndices_pullback,
                 mallocIndices_pushforward, 1.3, -0.7);
  // CHECK: ok indexed.d0
  // CHECK: ok indexed.fwd.y
  // CHECK: ok mallocIndices.d1
  // CHECK: ok mallocIndices.fwd.x
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
