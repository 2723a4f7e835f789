// A map's operand declared in a loop body: the reverse sweep needs each
// iteration's vector, which goes on the tape (elements, then the size) and
// comes back with its size; a grad::tensor comes back with its shape. Before, the tape took trivially copyable values
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

[[grad]] double shaped(double x, double n) {
  double y = x;
  for (int i = 0; i < 3; ++i) {
    // (The fill value's adjoint is the sum of the elements' adjoints.)
    grad::tensor<double> m({std::size_t(i) + 1, 2}, y * n);
    m(0, 1) = x;
    y = grad::sum(grad::map([](double el) { return std::tanh(el); }, m)) / 3;
  }
  return y;
}

// A tensor filled with a differentiated value, outside a loop.
[[grad]] double filled(double x, double n) {
  grad::tensor<double> m({2, 2}, x * n);
  m[1] = n;
  return grad::sum(grad::map([](double el) { return std::sin(el); }, m));
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
  dx = dn = 0;
  shaped_pullback(0.4, 0.7, 1.0, &dx, &dn);
  // CHECK: ok shaped.dx
  expect("shaped.dx", dx, fd(shaped, 0, 0.4, 0.7));
  // CHECK: ok shaped.dn
  expect("shaped.dn", dn, fd(shaped, 1, 0.4, 0.7));
  dx = dn = 0;
  filled_pullback(0.4, 0.7, 1.0, &dx, &dn);
  // CHECK: ok filled.dx
  expect("filled.dx", dx, fd(filled, 0, 0.4, 0.7));
  // CHECK: ok filled.dn
  expect("filled.dn", dn, fd(filled, 1, 0.4, 0.7));
  return failures();
}
