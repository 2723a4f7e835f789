// A class that keeps its numbers in a std::vector member, built by its own
// constructor from differentiated values (`Poly p({a, b});`): the message
// used to name the construction without a reason. The rewrite constructs
// it from values without derivatives, then assigns its members. The first
// RUN line checks the message, its location and its note; the second
// compiles the rewrite under the same name and checks its derivatives
// against central finite differences.
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | %FileCheck-strict %s --check-prefix=ERR
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <vector>

struct Poly {
  std::vector<double> c;
  explicit Poly(std::vector<double> v) : c(v) {}
  // Horner's rule, highest coefficient first.
  double at(double x) const {
    double s = 0;
    for (double k : c)
      s = s * x + k;
    return s;
  }
};

#ifdef ERRORS
// ADVICE: (construct it from values without derivatives, then assign its members)
[[grad]] double curve(double a, double b) {
  Poly p({a, b, a * b});
  // ERR: objects-owner-constructors.cpp:[[@LINE-1]]:8: error: grad: cannot differentiate construction of 'Poly' by its constructor from differentiated values (construct it from values without derivatives, then assign its members) in 'curve'
  return p.at(0.5) * a;
  // ERR: objects-owner-constructors.cpp:[[@LINE-4]]:3: note: while differentiating 'curve' requested here
}
#else
[[grad]] double curve(double a, double b) {
  Poly p(std::vector<double>(3));
  p.c[0] = a;
  p.c[1] = b;
  p.c[2] = a * b;
  return p.at(0.5) * a;
}
#endif

int main() {
#ifndef ERRORS
  gradcheck::check_grad("curve", curve, curve_pullback, 1.3, -0.6);
#endif
  // CHECK: ok curve.d0
  // CHECK: ok curve.d1
  return gradcheck::failures();
}
