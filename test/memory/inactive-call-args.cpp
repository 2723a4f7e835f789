// A helper that writes memory without derivatives reached through an
// accessor (`axpy(1, 0.75, &t.at(1, 1), &t.at(0, 0))` where t carries no
// derivative): the call counted as writing differentiated memory (an
// accessor's result was memory of unknown origin) while its pointer
// arguments were found to carry none, and the helper's analysis then
// found `y` receiving derivatives through `a` without an adjoint
// ("pointer parameter 'y' ... is not in the wrt list"). An accessor
// returning a reference or pointer into its object now reaches that
// object. (Found by the random-program generator, seed 54211 of
// all,memory,structs,owners,shaped,values.)
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include <cmath>
#include "gradcheck.h"
using namespace gradcheck;

struct M2 {
  int n;
  double a[8];
  double &at(int i, int j) { return a[i * n + j]; }
};

static void axpy(int n, double a, const double *x, double *y) {
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}

[[grad]] double f(double x) {
  M2 t{3, {}};
  t.at(1, 1) = 2.0;
  double s = 0;
  for (int k = 0; k < 2; ++k) {
    axpy(1, 0.75, &t.at(1, 1), &t.at(0, 0)); // no derivatives
    s += std::sin(x * t.at(0, 0));
  }
  // The same helper with derivatives, after.
  double u[2] = {x, x * x}, v[2] = {1.0, 0.5};
  axpy(2, 0.5, u, v);
  return s + v[0] * v[1];
}

int main() {
  double dx = 0;
  f_pullback(0.7, 1.0, &dx);
  expect("f", dx, fd(f, 0, 0.7));
  return failures();
}
// CHECK: ok f
