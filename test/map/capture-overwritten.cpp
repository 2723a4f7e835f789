// A scalar parameter that is overwritten before a capturing lambda reads
// it: the lambda's capture adjoint belongs to the overwritten value and
// flows back through the assignment (not straight into the caller's d_y,
// which is the adjoint of y's initial value).
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>
#include <grad/grad.h>
#include <vector>

using gradcheck::expect;

[[grad]] double f(const std::vector<double> &v, double y) {
  y = y * y + std::sin(y);
  return grad::sum(grad::map([&](double e) { return e * y + std::cos(e * y); }, v));
}

int main() {
  std::vector<double> v{0.5, -1.25, 2.0}, dv(3);
  double y = 0.7, dy = 0, h = 1e-5;
  f_pullback(v, y, 1.0, &dv, &dy);
  // CHECK: ok dy
  expect("dy", dy, (f(v, y + h) - f(v, y - h)) / (2 * h), 1e-6);
  for (int i = 0; i < 3; ++i) {
    auto w = v, u = v;
    w[i] += h;
    u[i] -= h;
    // CHECK-COUNT-3: ok dv
    expect("dv", dv[i], (f(w, y) - f(u, y)) / (2 * h), 1e-6);
  }
  return gradcheck::failures();
}
