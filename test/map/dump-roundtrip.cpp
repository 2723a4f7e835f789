// grad-dump output for map / broadcast (forward, reverse and stateful
// lowering, a stored map result, a nested map) compiles without the plugin
// (SPEC: "The printed code compiles without the plugin") and gives the same
// gradients as the plugin's own pullbacks.
// RUN: rm -rf %t && split-file %s %t
// RUN: %dump %t/prims.cpp %dflags > %t/gen.inc
// RUN: %cxx -Wno-unknown-attributes -DFROM_DUMP -I%t -I%S/Inputs %t/main.cpp -o %t/dumped
// RUN: %gradxx -I%t -I%S/Inputs %t/main.cpp -o %t/plugin
// RUN: %t/dumped > %t/dumped.txt
// RUN: %t/plugin > %t/plugin.txt
// RUN: diff %t/dumped.txt %t/plugin.txt
// RUN: %FileCheck-strict %s --implicit-check-not=FAIL --input-file=%t/dumped.txt
// CHECK: ok fwd[2]
// CHECK: ok rev.x[2]
// CHECK: ok rev.y[1]
// CHECK: ok running[2]
// CHECK: ok stored[2]
// CHECK: ok nested[2]
// CHECK: ok bcast.s

//--- prims.cpp
#include <cmath>
#include <grad/grad.h>
#include <vector>

using V = std::vector<double>;

[[grad]] inline double fwd(const V &x) {
  return grad::sum(grad::map([](double z) { return std::tanh(z) * z; }, x));
}

[[grad]] inline double rev(const V &x, const V &y) {
  return grad::sum(grad::map([&](double z) { return z * z + y[0] * z; }, x));
}

[[grad]] inline double running(const V &x) {
  double acc = 0;
  return grad::sum(grad::map([&acc](double z) { acc += z; return acc; }, x));
}

[[grad]] inline double stored(const V &x) {
  auto y = grad::map([](double z) { return std::exp(z); }, x);
  return grad::dot(y, y) + grad::sum(y);
}

[[grad]] inline double nested(const V &x) {
  return grad::sum(grad::map([](double u) { return std::sin(u); },
                             grad::map([](double z) { return z * z; }, x)));
}

[[grad]] inline double bcast(const grad::tensor<double> &a, double s) {
  return grad::sum(grad::broadcast([](double p, double q) { return p * q * q; }, a, s));
}

//--- main.cpp
#include "prims.cpp"
#ifdef FROM_DUMP
#include "gen.inc"
#endif
#include "mapcheck.h"

int main() {
  const V x{0.3, -1.2, 2.5}, y{0.7, -0.4};
  V d(3);
  fwd_pullback(x, 1.0, &d);
  mapcheck::check_elems("fwd", [](const V &v) { return fwd(v); }, x, d);
  V dx(3), dy(2);
  rev_pullback(x, y, 1.0, &dx, &dy);
  mapcheck::check_elems("rev.x", [&](const V &v) { return rev(v, y); }, x, dx);
  mapcheck::check_elems("rev.y", [&](const V &v) { return rev(x, v); }, y, dy);
  V dr(3);
  running_pullback(x, 1.0, &dr);
  mapcheck::check_values("running", dr, V{3, 2, 1});
  V ds(3);
  stored_pullback(x, 1.0, &ds);
  mapcheck::check_elems("stored", [](const V &v) { return stored(v); }, x, ds);
  V dn(3);
  nested_pullback(x, 1.0, &dn);
  mapcheck::check_elems("nested", [](const V &v) { return nested(v); }, x, dn);
  grad::tensor<double> a({2, 2}, {0.1, 0.2, -0.3, 0.4}), da({2, 2});
  double dsc = 0;
  bcast_pullback(a, 1.5, 1.0, &da, &dsc);
  mapcheck::check_elems("bcast.s", [&](double v) { return bcast(a, v); }, 1.5, dsc);
  return gradcheck::failures();
}
