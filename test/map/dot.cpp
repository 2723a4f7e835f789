// dot(map(f, x), y): the map's seed is the array y * d_ret, not a scalar.
// RUN: %gradxx -I%S/Inputs %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags -I%S/Inputs | FileCheck %s --check-prefix=DUMP
#include "mapcheck.h"

#include <cmath>
#include <vector>

using V = std::vector<double>;

// DUMP-LABEL: void dot_map_pullback(const V &x, const V &y, double d_ret, V *d_x, V *d_y) {
// DUMP: dot_pullback(
// DUMP: tangent_pullback<&::_grad_tangent_{{[0-9]+}}, 1UL>(
[[grad]] double dot_map(const V &x, const V &y) {
  return grad::dot(grad::map([](double z) { return std::sin(z) * z; }, x), y);
}

// Both operands mapped, and the mapped operand second.
[[grad]] double dot_both(const V &x, const V &y) {
  return grad::dot(grad::map([](double z) { return z * z; }, x),
                   grad::map([](double a, double b) { return std::exp(a) * b; }, y, x));
}

[[grad]] double dot_tensor(const grad::tensor<double> &x, const grad::tensor<double> &y) {
  return grad::dot(y, grad::map([](double z) { return std::cos(z); }, x));
}

int main() {
  const V x{0.3, -1.2, 2.5}, y{1.1, 0.7, -0.4};
  V dx(3), dy(3);
  dot_map_pullback(x, y, 1.0, &dx, &dy);
  // CHECK: ok dot_map.x[2]
  // CHECK: ok dot_map.y[2]
  mapcheck::check_elems("dot_map.x", [&](const V &v) { return dot_map(v, y); }, x, dx);
  mapcheck::check_elems("dot_map.y", [&](const V &v) { return dot_map(x, v); }, y, dy);
  V ex(3), ey(3);
  dot_both_pullback(x, y, 1.0, &ex, &ey);
  // CHECK: ok dot_both.x[2]
  // CHECK: ok dot_both.y[2]
  mapcheck::check_elems("dot_both.x", [&](const V &v) { return dot_both(v, y); }, x, ex);
  mapcheck::check_elems("dot_both.y", [&](const V &v) { return dot_both(x, v); }, y, ey);
  using T = grad::tensor<double>;
  T tx({2, 2}, {0.1, 0.2, -0.3, 1.4}), ty({2, 2}, {2.0, -1.0, 0.5, 0.25});
  T dtx({2, 2}), dty({2, 2});
  dot_tensor_pullback(tx, ty, 1.0, &dtx, &dty);
  // CHECK: ok dot_tensor.x[3]
  // CHECK: ok dot_tensor.y[3]
  mapcheck::check_elems("dot_tensor.x", [&](const T &v) { return dot_tensor(v, ty); }, tx, dtx);
  mapcheck::check_elems("dot_tensor.y", [&](const T &v) { return dot_tensor(tx, v); }, ty, dty);
  return gradcheck::failures();
}
