// Stateful lambdas whose result is not summed (the seed is an array) and in
// a broadcast (the state follows the broadcast's row-major element order).
// RUN: %gradxx -I%S/Inputs %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "mapcheck.h"

#include <cmath>
#include <vector>

using V = std::vector<double>;
using T = grad::tensor<double>;

[[grad]] double stateful_dot(const V &x, const V &w) {
  double acc = 0;
  return grad::dot(grad::map([&](double z) { acc += z * z; return acc; }, x), w);
}

[[grad]] double stateful_bcast(const T &a, const T &b) {
  double acc = 0;
  return grad::sum(grad::broadcast([&](double p, double q) { acc = acc * 0.5 + p * q; return acc; }, a, b));
}

int main() {
  const V x{0.3, -1.2, 2.5}, w{1.0, -0.5, 2.0};
  V dx(3), dw(3);
  stateful_dot_pullback(x, w, 1.0, &dx, &dw);
  // CHECK: ok stateful_dot.x[2]
  // CHECK: ok stateful_dot.w[2]
  mapcheck::check_elems("stateful_dot.x", [&](const V &v) { return stateful_dot(v, w); }, x, dx);
  mapcheck::check_elems("stateful_dot.w", [&](const V &v) { return stateful_dot(x, v); }, w, dw);
  const T a({2, 3}, {0.3, -1.2, 2.5, 0.7, -0.1, 1.9}), b({3}, {0.5, 1.5, -0.7});
  T da({2, 3}), db({3});
  stateful_bcast_pullback(a, b, 1.0, &da, &db);
  // CHECK: ok stateful_bcast.a[5]
  // CHECK: ok stateful_bcast.b[2]
  mapcheck::check_elems("stateful_bcast.a", [&](const T &v) { return stateful_bcast(v, b); }, a, da);
  mapcheck::check_elems("stateful_bcast.b", [&](const T &v) { return stateful_bcast(a, v); }, b, db);
  return gradcheck::failures();
}
