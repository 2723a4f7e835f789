// Checks: a default-initialised local of a class type with no floating data
// (`Stats s;`, no initializer) is refused in reverse mode at the variable.
// Found in Ceres Solver (empty cost functors, test problems with only static
// data), CppAD (bookkeeping structs in its optimizer examples) and ADOL-C
// (its NLP problem classes); 37 functions of the corpus stop here, the most
// frequent refusal. Value-initialised (`Stats s{};`) the same code
// differentiates in reverse mode, and forward mode accepts both forms: both
// checked against finite differences.
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | %FileCheck-strict %s --check-prefix=ERR
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>
#include <cstddef>

struct Stats {
  std::size_t evaluations;
  int lastStatus;
};
struct Empty {};

#ifdef ERRORS
// ERR: default-construct-no-float.cpp:[[@LINE+2]]:9: error: grad: cannot differentiate construction of 'Stats' in 'counted'
[[grad]] double counted(double x) {
  Stats s;
  s.evaluations = 1;
  return x * std::sin(x);
}
// ERR: default-construct-no-float.cpp:[[@LINE+2]]:9: error: grad: cannot differentiate construction of 'Empty' in 'tagged'
[[grad]] double tagged(double x) {
  Empty e;
  (void)e;
  return x * x;
}
#endif

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
  return gradcheck::failures();
}
