// Read-only arrays and containers passed to a helper with a body: the
// helper's pullback accumulates into the caller's adjoint storage (this
// used to be a silently zero gradient).
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <grad/grad.h>
#include <vector>

double g(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i];
  return s;
}
double h(const std::vector<double> &v) { return v[0] * v[1]; }
[[grad]] double f(const double *x, int n, double y) { return g(x, n) * y; }
[[grad]] double f2(const std::vector<double> &v, double y) { return h(v) * y; }

int main() {
  double x[3] = {1, 2, 3}, dx[3] = {0, 0, 0}, dy = 0;
  f_pullback(x, 3, 2.0, 1.0, dx, &dy);
  // CHECK: ok f.dx2
  gradcheck::expect("f.dx0", dx[0], 4);
  gradcheck::expect("f.dx2", dx[2], 12);
  // CHECK: ok f.dy
  gradcheck::expect("f.dy", dy, 14);
  std::vector<double> v{2, 5}, dv(2, 0.0);
  double dy2 = 0;
  f2_pullback(v, 3.0, 1.0, &dv, &dy2);
  // CHECK: ok f2.dv0
  gradcheck::expect("f2.dv0", dv[0], 15);
  gradcheck::expect("f2.dv1", dv[1], 6);
  gradcheck::expect("f2.dy", dy2, 10);
  return gradcheck::failures();
}
