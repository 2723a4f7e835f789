// Malformed input in and around [[grad]] functions: clang's ordinary errors,
// never a crash. -fno-crash-diagnostics keeps a crash from writing files.
// RUN: rm -rf %t && split-file --leading-lines %s %t
// RUN: not %gradxx -fsyntax-only -fno-crash-diagnostics %t/bad.cpp 2>&1 | FileCheck %s --check-prefix=BAD --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %gradxx -fsyntax-only -fno-crash-diagnostics %t/deleted.cpp 2>&1 | FileCheck %s --check-prefix=DELETED --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump"
// RUN: not %gradxx -fsyntax-only -fno-crash-diagnostics %t/after-error.cpp 2>&1 | FileCheck %s --check-prefix=AFTER --implicit-check-not="PLEASE submit" --implicit-check-not="Stack dump" --implicit-check-not=error:
// RUN: %gradxx -fno-crash-diagnostics %t/defaults.cpp -o %t/defaults 2>&1 | count 0
// RUN: %t/defaults | %FileCheck-strict %s --check-prefix=DEFAULTS --implicit-check-not=FAIL

//--- after-error.cpp
// A refused argument inside the argument of sin (whose sin and cos are
// computed together): before, the null rebuilt argument crashed the
// compiler (random construct programs).
#include <cmath>
struct Layer {
  double w, b;
  double apply(const double *h, int n) const {
    double s = 0;
    for (int i = 0; i < n; ++i)
      s += w * h[i] * h[i] + b * h[i];
    return s;
  }
};
[[grad]] double inblock(double x, double y) {
  {
    double a9[3] = {y * .25, x, 2.0};
    // AFTER: after-error.cpp:[[@LINE+1]]:70: error: grad: cannot differentiate argument 'a9 + 2' of member function 'apply'
    double s = 20.0 * sin(0.05 * (Layer{std::tanh(x * 3), 1.0}.apply(a9 + 2, 1)));
  }
  return x;
}

//--- bad.cpp
// BAD: bad.cpp:[[@LINE+2]]:18: error: expected expression
[[grad]] double syntax(double x) {
  double y = x * ;
  // BAD: bad.cpp:[[@LINE+1]]:13: error: expected expression
  return y +;
}
// BAD: bad.cpp:[[@LINE+2]]:14: error: use of undeclared identifier 'undeclared_thing'
[[grad]] double undeclared(double x) {
  return x * undeclared_thing;
}
// BAD: bad.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate 'main': return type 'int' is not differentiable
[[grad]] int main() { return 0; }
int g;
// BAD: bad.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate 'ref': return type 'int &' is not differentiable
[[grad]] int &ref(double x) { return g; }
// BAD: bad.cpp:[[@LINE+2]]:15: error: expected ';' at end of declaration
[[grad]] double missing_semicolon(double x) {
  double y = x
  return y;
}
[[grad]] double calls_broken(double x) { return syntax(x) + undeclared(x); }
// BAD: {{[0-9]+}} errors generated.

//--- deleted.cpp
[[grad]] double gone(double x) = delete;
[[grad]] double gone2(double x, double y) = delete;
// DELETED: deleted.cpp:[[@LINE+1]]:46: error: call to deleted function 'gone'
[[grad]] double uses_gone(double x) { return gone(x); }
// DELETED: {{[0-9]+}} error{{s?}} generated.

//--- defaults.cpp
// A [[grad]] function with a default argument: the pullback takes every
// parameter; a caller relying on the default is differentiated through it.
#include "gradcheck.h"
[[grad]] double scaled(double x, double k = 2.0) { return x * k; }
[[grad]] double twice(double x) { return scaled(x) * x; }
int main() {
  double dx = 0, dk = 0;
  scaled_pullback(1.5, 2.0, 1.0, &dx, &dk);
  // DEFAULTS: ok scaled.dx
  gradcheck::expect("scaled.dx", dx, 2.0);
  // DEFAULTS: ok scaled.dk
  gradcheck::expect("scaled.dk", dk, 1.5);
  dx = 0;
  twice_pullback(1.5, 1.0, &dx);
  // DEFAULTS: ok twice.dx
  gradcheck::expect("twice.dx", dx, 4 * 1.5);
  return gradcheck::failures();
}
