// A by-reference capture that the function overwrites after the map (or that
// changes between loop iterations): each map's pullback must see the value
// the capture had when that map ran, not its final value.
// RUN: %gradxx -I%S/Inputs %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "mapcheck.h"

#include <cmath>
#include <vector>

using V = std::vector<double>;

[[grad]] double overwritten(const V &x, double a0) {
  double a = a0;
  double s = grad::sum(grad::map([&](double z) { return a * z * z; }, x));
  a = a * a + 1.0;
  return s * a;
}

[[grad]] double in_loop(const V &x, double a) {
  double t = 0;
  double c = a;
  for (int i = 0; i < 3; ++i) {
    t += grad::sum(grad::map([&](double z) { return std::sin(c * z); }, x));
    c = c * 1.5;
  }
  return t;
}

int main() {
  const V x{0.3, -1.2, 2.5};
  V dx(3);
  double da = 0;
  overwritten_pullback(x, 0.7, 1.0, &dx, &da);
  // CHECK: ok overwritten.x[2]
  // CHECK: ok overwritten.a
  mapcheck::check_elems("overwritten.x", [](const V &v) { return overwritten(v, 0.7); }, x, dx);
  mapcheck::check_elems("overwritten.a", [&](double v) { return overwritten(x, v); }, 0.7, da);
  V ex(3);
  double ea = 0;
  in_loop_pullback(x, 0.7, 1.0, &ex, &ea);
  // CHECK: ok in_loop.x[2]
  // CHECK: ok in_loop.a
  mapcheck::check_elems("in_loop.x", [](const V &v) { return in_loop(v, 0.7); }, x, ex);
  mapcheck::check_elems("in_loop.a", [&](double v) { return in_loop(x, v); }, 0.7, ea);
  return gradcheck::failures();
}
