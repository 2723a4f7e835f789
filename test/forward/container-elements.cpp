// Forward mode: `v[i] *= e` and `v[i] /= e` on std::vector and std::array
// elements (their operator[] only computes an address: the old value is
// read again for the product and quotient rules), also in loops.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <array>
#include <vector>

using namespace gradcheck;

[[grad::forward]] double fv(double x, double y) {
  std::vector<double> v{x, y, x * y};
  v[1] *= y;
  v[0] /= x + 1;
  std::array<double, 2> a{x, y};
  a[0] *= x;
  a[1] /= v[1];
  for (int i = 0; i < 3; ++i)
    v[i] *= v[(i + 1) % 3] + a[i % 2];
  return v[0] + v[1] * a[1] + a[0] + v[2];
}

int main() {
  expect("fv.x", fv_pushforward(0.7, 1.3, 1, 0).der[0], fd(fv, 0, 0.7, 1.3));
  expect("fv.y", fv_pushforward(0.7, 1.3, 0, 1).der[0], fd(fv, 1, 0.7, 1.3));
  expect("fv.val", fv_pushforward(0.7, 1.3, 0.2, 0.1).val, fv(0.7, 1.3));
  expect("fv2.x", fv_pushforward(-1.7, 0.4, 1, 0).der[0],
         fd(fv, 0, -1.7, 0.4));
  return failures();
}
// CHECK: ok fv.x
// CHECK: ok fv.y
// CHECK: ok fv.val
// CHECK: ok fv2.x
