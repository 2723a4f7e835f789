// Checks: <cmath> functions that have no derivative rule are refused at the
// call with a note giving the exact pullback (reverse) or pushforward
// (forward) to declare, and a user pullback/pushforward with that signature
// is used. Found in Ceres Solver (copysign in its quaternion to angle-axis
// conversion) and CoDiPack's expression tests (copysign, ldexp, frexp,
// tgamma, remainder). The user rules for copysign are checked against finite
// differences on both sides of zero.
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | %FileCheck-strict %s --check-prefix=ERR
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>

#ifdef ERRORS
// ERR: missing-math-rules.cpp:[[@LINE+3]]:10: error: grad: cannot differentiate call to 'copysign' in 'sign': it has no visible body, no derivative rule and no user pullback
// ERR: note: declare a pullback to supply the derivative: 'void copysign_pullback(double {{.*}}, double {{.*}}, double d_ret, double *{{.*}}, double *{{.*}})'
[[grad]] double sign(double x, double y) {
  return std::copysign(x, y) * x;
}
// ERR: missing-math-rules.cpp:[[@LINE+2]]:43: error: grad: cannot differentiate call to 'ldexp' in 'scaled': it has no visible body, no derivative rule and no user pullback
// ERR: note: declare a pullback to supply the derivative: 'void ldexp_pullback(double {{.*}}, int {{.*}}, double d_ret, double *{{.*}})'
[[grad]] double scaled(double x) { return std::ldexp(x, 3) + x; }
// ERR: missing-math-rules.cpp:[[@LINE+2]]:52: error: grad: cannot differentiate call to 'frexp' in 'mantissa': it has no visible body, no derivative rule and no user pullback
// ERR: note: declare a pullback to supply the derivative: 'void frexp_pullback(double {{.*}}, int *{{.*}}, double d_ret, double *{{.*}})'
[[grad]] double mantissa(double x) { int e; return std::frexp(x, &e); }
// ERR: missing-math-rules.cpp:[[@LINE+2]]:42: error: grad: cannot differentiate call to 'tgamma' in 'gamma': it has no visible body, no derivative rule and no user pullback
// ERR: note: declare a pullback to supply the derivative: 'void tgamma_pullback(double {{.*}}, double d_ret, double *{{.*}})'
[[grad]] double gamma(double x) { return std::tgamma(x); }
// ERR: missing-math-rules.cpp:[[@LINE+2]]:41: error: grad: cannot differentiate call to 'remainder' in 'wrap': it has no visible body, no derivative rule and no user pullback
// ERR: note: declare a pullback to supply the derivative: 'void remainder_pullback(double {{.*}}, double {{.*}}, double d_ret, double *{{.*}}, double *{{.*}})'
[[grad]] double wrap(double x) { return std::remainder(x, 5.0); }
// ERR: missing-math-rules.cpp:[[@LINE+3]]:10: error: grad: cannot differentiate call to 'copysign' (it has no visible body, no derivative rule and no user pushforward) in 'signF' in forward mode
// ERR: note: declare a pushforward to supply the derivative: '::grad::dual<double> copysign_pushforward(double {{.*}}, double {{.*}}, double {{.*}}, double {{.*}})'
[[grad::forward]] double signF(double x, double y) {
  return std::copysign(x, y) * x;
}
// ERR: missing-math-rules.cpp:[[@LINE+2]]:52: error: grad: cannot differentiate call to 'tgamma' (it has no visible body, no derivative rule and no user pushforward) in 'gammaF' in forward mode
// ERR: note: declare a pushforward to supply the derivative: '::grad::dual<double> tgamma_pushforward(double {{.*}}, double {{.*}})'
[[grad::forward]] double gammaF(double x) { return std::tgamma(x); }
#else
// copysign(x, y) is |x| with the sign of y: d/dx is +-1, d/dy is 0 (away
// from y == 0).
void copysign_pullback(double x, double y, double d_ret, double *d_x,
                       double *d_y) {
  *d_x += (std::signbit(x) == std::signbit(y) ? 1.0 : -1.0) * d_ret;
}
::grad::dual<double> copysign_pushforward(double x, double y, double t_x,
                                          double t_y) {
  return {std::copysign(x, y),
          (std::signbit(x) == std::signbit(y) ? 1.0 : -1.0) * t_x};
}
[[grad, grad::forward]] double sign(double x, double y) {
  return std::copysign(x, y) * x + y;
}

int main() {
  const double P[4][2] = {{0.7, -2.0}, {-0.7, 2.0}, {0.7, 2.0}, {-0.7, -2.0}};
  for (auto &p : P) {
    gradcheck::check_grad("rev", sign, sign_pullback, p[0], p[1]);
    gradcheck::expect("fwd.x", sign_pushforward(p[0], p[1], 1.0, 0.0).der[0],
                      gradcheck::fd(sign, 0, p[0], p[1]));
    gradcheck::expect("fwd.y", sign_pushforward(p[0], p[1], 0.0, 1.0).der[0],
                      gradcheck::fd(sign, 1, p[0], p[1]));
  }
  // CHECK-COUNT-4: ok fwd.y
  return gradcheck::failures();
}
#endif
