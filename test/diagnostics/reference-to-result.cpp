// A reference bound to what a function returns by reference, where the
// referent may change while the reference lives (std::max of two locals that
// are written later), is an error that says to take the value.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s
#include <algorithm>

[[grad]] double g(double x, double y) {
  double p = x, q = y;
  const double &m = std::max(p, q);
  p = 5 * x;
  // CHECK: reference-to-result.cpp:[[@LINE+1]]:10: error: grad: cannot differentiate reference 'm' whose target the plugin cannot track (it is bound to what 'max' returns: take the value, 'double m = ...') in 'g'
  return m * x;
}
// CHECK: reference-to-result.cpp:[[@LINE-7]]:3: note: while differentiating 'g' requested here
// CHECK: 1 error generated
