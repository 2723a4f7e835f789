// A map's operand declared in a loop body: the reverse sweep needs each
// iteration's vector, which goes on the tape (elements, then the size) and
// comes back with its size. Before, the tape took trivially copyable values
// only and the generated code did not compile (found by the generator's
// `maps` mode).
// RUN: %gradxx -I%S/Inputs %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "mapcheck.h"

#include <cmath>
#include <vector>

using namespace gradcheck;

[[grad]] double grow(double x, double n) {
  double y = x;
  for (int i = 0; i < 3; ++i) {
    // Sizes 1, 2, 3: each iteration's vector comes back at its size.
    std::vector<double> m(i + 1, y * n);
    m[0] = x;
    y = grad::sum(grad::map([](double el) { return std::tanh(el); }, m)) / 2;
  }
  return y;
}

[[grad]] double captured(double x, double n) {
  double y = x;
  for (int i = 0; i < 4; ++i) {
    std::vector<double> m{x, y * n};
    y = grad::sum(grad::map([&](double el) { return std::sin(el * n); }, m));
  }
  return y;
}

int main() {
  double dx = 0, dn = 0;
  grow_pullback(0.4, 0.7, 1.0, &dx, &dn);
  // CHECK: ok grow.dx
  expect("grow.dx", dx, fd(grow, 0, 0.4, 0.7));
  // CHECK: ok grow.dn
  expect("grow.dn", dn, fd(grow, 1, 0.4, 0.7));
  dx = dn = 0;
  captured_pullback(0.4, 0.7, 1.0, &dx, &dn);
  // CHECK: ok captured.dx
  expect("captured.dx", dx, fd(captured, 0, 0.4, 0.7));
  // CHECK: ok captured.dn
  expect("captured.dn", dn, fd(captured, 1, 0.4, 0.7));
  return failures();
}
