// Checks: a default-initialised local of a class type with no floating data
// (`Stats s;`, no initializer), found in Ceres Solver (empty cost functors,
// test problems with only static data), CppAD (bookkeeping structs in its
// optimizer examples) and ADOL-C (its NLP problem classes): 37 functions of
// the corpus stopped here, the most frequent refusal, until reverse mode
// replayed it as written (default-initialised, like `Stats s{};`). Both
// forms, in both modes, checked against finite differences.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>
#include <cstddef>

struct Stats {
  std::size_t evaluations;
  int lastStatus;
};
struct Empty {};

[[grad]] double counted(double x) {
  Stats s;
  s.evaluations = 1;
  return x * std::sin(x);
}
[[grad]] double tagged(double x) {
  Empty e;
  (void)e;
  return x * x;
}

[[grad, grad::forward]] double braced(double x) {
  Stats s{};
  s.evaluations = 1;
  return x * std::sin(x);
}
[[grad::forward]] double plainFwd(double x) {
  Stats s;
  s.evaluations = 1;
  return x * std::sin(x);
}

int main() {
  double x = 0.8, dx = 0;
  braced_pullback(x, 1.0, &dx);
  gradcheck::expect("braced.rev", dx, gradcheck::fd(braced, 0, x));
  // CHECK: ok braced.rev
  gradcheck::expect("braced.fwd", braced_pushforward(x, 1.0).der[0],
                    gradcheck::fd(braced, 0, x));
  // CHECK: ok braced.fwd
  gradcheck::expect("plain.fwd", plainFwd_pushforward(x, 1.0).der[0],
                    gradcheck::fd(plainFwd, 0, x));
  // CHECK: ok plain.fwd
  gradcheck::check_grad("counted", counted, counted_pullback, x);
  // CHECK: ok counted.d0
  gradcheck::check_grad("tagged", tagged, tagged_pullback, x);
  // CHECK: ok tagged.d0
  return gradcheck::failures();
}
