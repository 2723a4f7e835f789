// Forward mode follows the same contract as reverse mode for calls whose
// derivative is known to be zero (issue 49): a function marked
// [[grad::nodiff]] is a constant for differentiation in pushforwards too
// (it was pushed forward: d/dx 10 for 5), and a call none of whose
// arguments carries a tangent runs the primal, never the user's
// NAME_pushforward (which was called with zero tangents: a user derivative
// that is not linear in them gave 4 for 0).
// RUN: %gradxx %s -o %t && %t | FileCheck %s --implicit-check-not=FAIL
#include "gradcheck.h"
using gradcheck::expect;

[[grad::nodiff]] double frozen(double x) { return 2.5 * x; }

// d/dx = frozen(x) (a constant) + 2 x.
[[grad, grad::forward]] double usesFrozen(double x) {
  return frozen(x) * x + x * x;
}

int Calls = 0;
double g(double a) { return a * a; }
// A user derivative that also counts its calls (and adds a constant, so a
// call with a zero tangent would show).
grad::dual<double> g_pushforward(double a, double t_a) {
  ++Calls;
  return {a * a, {2 * a * t_a + (t_a == 0 ? 4.0 : 0.0)}};
}

// g(2.0) carries no tangent. (A local computed from constants still gets
// a zero tangent in forward mode, and with it the user's pushforward.)
[[grad::forward]] double constantArgs(double x) {
  return g(2.0) * x + g(x);
}

int main() {
  double x = 2.0;
  expect("usesFrozen.fwd", usesFrozen_pushforward(x, 1.0).der[0],
         2.5 * x + 2 * x);
  double dx = 0;
  usesFrozen_pullback(x, 1.0, &dx);
  expect("usesFrozen.rev", dx, 2.5 * x + 2 * x);
  Calls = 0;
  expect("constantArgs", constantArgs_pushforward(x, 1.0).der[0],
         4.0 + 2 * x);
  expect("constantArgs.calls", Calls, 1);
  std::printf("done\n");
}
// CHECK: done
