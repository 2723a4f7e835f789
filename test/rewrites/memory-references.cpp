// Rewrites suggested by the refusals about references and bits in reverse
// mode: the value of an accessor's reference into a struct (bind it to a
// local reference), an assignment through such an accessor (bind the
// result to a local pointer or reference), a function returning a
// non-const reference bound to one of two reference parameters (return a
// reference into one pointer parameter), and the bits of a double copied
// into an integer (compute with the floating value itself). The first part
// checks each message and its location; the second compiles the rewrites
// under the same names and checks their gradients against central finite
// differences.
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | %FileCheck-strict %s --check-prefix=ERR
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>
#include <cstdint>
#include <cstring>

struct Particle {
  double x, v;
};
static double &pos(Particle *p) { return p->x; }

#ifdef ERRORS
// ADVICE: (bind it to a local reference first)
// ERR: memory-references.cpp:[[@LINE+4]]:14: error: grad: cannot differentiate value of 'pos(&p)', a reference into '&p' (bind it to a local reference first) in 'kinetic'
// ERR: memory-references.cpp:[[@LINE+1]]:3: note: while differentiating 'kinetic' requested here
[[grad]] double kinetic(double x, double v) {
  Particle p{x, v};
  double e = pos(&p) * p.v;
  return e * p.v;
}

// ADVICE: (bind the result to a local pointer or reference first)
// ERR: memory-references.cpp:[[@LINE+4]]:3: error: grad: cannot differentiate assignment to call to 'pos' through 'pos(&p)' (bind the result to a local pointer or reference first) in 'drift'
// ERR: memory-references.cpp:[[@LINE+1]]:3: note: while differentiating 'drift' requested here
[[grad]] double drift(double x, double v, double h) {
  Particle p{x, v};
  pos(&p) += h * p.v;
  return p.x * p.x;
}

// The larger of two values, scaled in place; the reference is returned for
// chaining.
double &scaleLarger(double &a, double &b, double s) {
  double &m = a > b ? a : b;
  m *= s;
  // ADVICE: (a function returning a non-const reference may return only a reference parameter, '*this', or a reference into one pointer or reference parameter)
  // ERR: memory-references.cpp:[[@LINE+1]]:10: error: grad: cannot differentiate returned reference (a function returning a non-const reference may return only a reference parameter, '*this', or a reference into one pointer or reference parameter) in 'scaleLarger'
  return m;
}
// ERR: memory-references.cpp:[[@LINE+4]]:3: note: while differentiating 'scaleLarger', called here
// ERR: memory-references.cpp:[[@LINE+1]]:3: note: while differentiating 'boost' requested here
[[grad]] double boost(double x, double y) {
  double a = x, b = y;
  scaleLarger(a, b, 3);
  return a * b + a;
}

// |x| by clearing the sign bit.
// ADVICE: (compute with the floating value itself)
// ERR: memory-references.cpp:[[@LINE+4]]:3: error: grad: cannot differentiate copy of the bits of the differentiated value 'x' into 'std::uint64_t' ('std::memcpy(&u, &x, sizeof u)'): the derivative cannot follow the bits (compute with the floating value itself) in 'magnitude'
// ERR: memory-references.cpp:[[@LINE+1]]:3: note: while differentiating 'magnitude' requested here
[[grad]] double magnitude(double x, double y) {
  std::uint64_t u;
  std::memcpy(&u, &x, sizeof u);
  u &= ~(std::uint64_t(1) << 63);
  double a;
  std::memcpy(&a, &u, sizeof a);
  return a * y;
}
#else
[[grad]] double kinetic(double x, double v) {
  Particle p{x, v};
  double &px = pos(&p);
  double e = px * p.v;
  return e * p.v;
}

[[grad]] double drift(double x, double v, double h) {
  Particle p{x, v};
  double &px = pos(&p);
  px += h * p.v;
  return p.x * p.x;
}

// A reference into one pointer parameter.
double &scaleLarger(double *ab, double s) {
  double &m = ab[0] > ab[1] ? ab[0] : ab[1];
  m *= s;
  return m;
}
[[grad]] double boost(double x, double y) {
  double ab[2] = {x, y};
  scaleLarger(ab, 3);
  return ab[0] * ab[1] + ab[0];
}

[[grad]] double magnitude(double x, double y) {
  double a = std::fabs(x);
  return a * y;
}
#endif

int main() {
  gradcheck::check_grad("kinetic", kinetic, kinetic_pullback, 0.7, -1.3);
  // CHECK: ok kinetic.d0
  // CHECK: ok kinetic.d1
  gradcheck::check_grad("drift", drift, drift_pullback, 0.7, -1.3, 0.2);
  // CHECK: ok drift.d0
  // CHECK: ok drift.d1
  // CHECK: ok drift.d2
  gradcheck::check_grad("boost", boost, boost_pullback, 0.7, 1.3);
  // CHECK: ok boost.d0
  // CHECK: ok boost.d1
  gradcheck::check_grad("boost.b", boost, boost_pullback, 1.9, 1.3);
  // CHECK: ok boost.b.d0
  // CHECK: ok boost.b.d1
  gradcheck::check_grad("magnitude", magnitude, magnitude_pullback, -0.7,
                        1.3);
  // CHECK: ok magnitude.d0
  // CHECK: ok magnitude.d1
  return gradcheck::failures();
}
