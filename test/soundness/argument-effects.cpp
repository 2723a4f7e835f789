// A side effect inside an argument of a call whose value the function does
// not use (`lib::unit(x += 0.5 * y);` where `unit` returns a constant): the
// call is replayed with the effect hoisted out of it, never dropped. Before
// (issue 49), a discarded call of a differentiable function was dropped
// with its arguments (d/dx 2.8 for 3.7). Only a <cmath> call without side
// effects in its arguments is dropped now; any other callee may log, count
// or throw.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "fwdcheck.h"
#include <cmath>

namespace lib {
template <class T> T unit(T) { return 1; }
inline double twice(double v, double w) { return 2 * v + w; }
} // namespace lib

static int Calls = 0;
static double counted(double v) {
  ++Calls;
  return v;
}

[[grad, grad::forward]] double effect(double x, double y) {
  lib::unit(x += 0.5 * y);
  lib::twice(y *= x, x);
  return x * y;
}

[[grad, grad::forward]] double kept(double x, double y) {
  counted(x * y);
  std::sin(x); // dropped: nothing to keep
  return x + y;
}

int main() {
  fwdcheck::both("effect", effect, effect_pullback, effect_pushforward, 1.3,
                 -0.7);
  // CHECK: ok effect.d0
  // CHECK: ok effect.d1
  // CHECK: ok effect.fwd.x
  Calls = 0;
  double dx = 0, dy = 0;
  kept_pullback(1.3, -0.7, 1.0, &dx, &dy);
  gradcheck::expect("kept.calls", Calls, 1);
  // CHECK: ok kept.calls
  return gradcheck::failures();
}
