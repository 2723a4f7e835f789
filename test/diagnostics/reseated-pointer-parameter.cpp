// A pointer parameter made to point into other memory (`b = a;`) is an error
// at the assignment: a pointer parameter's shadow is its adjoint at the
// offset from its entry value, which holds only while it points into its
// own memory. Before (issue 49) the offsets were taken across two arrays:
// half the gradient, no diagnostic. Moving it within its own memory (`++b`,
// `b += 2`, `b = b + 1`) stays accepted, and the suggested rewrite (a local
// pointer, which tracks several storages) gives the right gradient.
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | %FileCheck-strict %s --check-prefix=ERR
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "vecgrad.h"

#ifdef ERRORS
// ERR: reseated-pointer-parameter.cpp:[[@LINE+2]]:3: error: grad: cannot differentiate pointer parameter 'b' made to point into other memory (declare a local pointer for it: 'auto *b2 = b;', then use and move b2) in 'f'
[[grad]] double f(double *a, double *b) {
  b = a;
  ++b;
  return a[0] * 2 + b[0] * 3;
}
#endif

// The rewrite the message suggests.
[[grad]] double g(double *a, double *b) {
  auto *b2 = b;
  b2 = a;
  a = 1 + a;
  ++b2;
  return a[0] * 2 + b2[0] * 3 + a[1] * b2[1];
}

[[grad]] double moved(const double *a, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    s += a[0] * a[0];
    a += 1;
  }
  return s;
}

int main() {
  auto X = vecgrad::sample(6, 3);
  std::vector<double> a(X.begin(), X.begin() + 3), b(X.begin() + 3, X.end()),
      da(3), db(3);
  g_pullback(a.data(), b.data(), 1.0, da.data(), db.data());
  vecgrad::check("g", [](const std::vector<double> &Y) {
    std::vector<double> u(Y.begin(), Y.begin() + 3), v(Y.begin() + 3, Y.end());
    return g(u.data(), v.data());
  }, X, {da[0], da[1], da[2], db[0], db[1], db[2]});
  // CHECK: ok g.d0
  // CHECK: ok g.d5
  std::vector<double> dm(3);
  moved_pullback(a.data(), 3, 1.0, dm.data());
  vecgrad::check("moved", [](const std::vector<double> &Y) {
    return moved(Y.data(), 3);
  }, a, dm);
  // CHECK: ok moved.d2
  return gradcheck::failures();
}
