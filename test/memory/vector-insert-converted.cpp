// std::vector::insert with values that convert to the element type (int
// literals: `v.insert(p, 2, 0)`, `v.insert(p, 1)`) was refused with advice
// to "insert one value, a count of one value, ...", which the code already
// does (found by the advice audit, issue 54): accepted, checked against
// finite differences.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <vector>

[[grad]] double f(double x, double y) {
  std::vector<double> v{x, y};
  v.insert(v.begin(), 2, 0);
  v.insert(v.begin() + 1, 1);
  v.insert(v.end(), x * y);
  double s = 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    s += v[i] * (i + 1) * v[i];
  return s;
}

int main() {
  gradcheck::check_grad("f", f, f_pullback, 0.7, -1.3);
  // CHECK: ok f.d0
  // CHECK: ok f.d1
  return gradcheck::failures();
}
