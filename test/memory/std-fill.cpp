// std::fill over pointer ranges (array and v.data()) is differentiated from
// its body: the filled elements' adjoints flow into the fill value.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "vecgrad.h"
#include <algorithm>
#include <vector>

[[grad]] double f(double x, double y) {
  std::vector<double> v(3);
  std::fill(v.data(), v.data() + v.size(), x);
  double buf[4];
  std::fill(buf, buf + 4, y * y);
  return v[1] * v[2] + buf[2] * v[0] + buf[1];
}

int main() {
  double Dx = 0, Dy = 0;
  f_pullback(0.7, 1.3, 1.0, &Dx, &Dy);
  // CHECK: ok f.d0
  // CHECK: ok f.d1
  vecgrad::check("f", [](const std::vector<double> &Y) {
    return f(Y[0], Y[1]);
  }, {0.7, 1.3}, {Dx, Dy});
  return gradcheck::failures();
}
