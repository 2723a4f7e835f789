// A reference bound to what a function returns by reference, where the
// referent may change while the reference lives (a helper choosing between
// two locals that are written later), is an error that says to take the
// value. (std::min, std::max and std::clamp are tracked: memory/selectors.cpp.)
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

static const double &pick(const double &a, const double &b) {
  return a < b ? b : a;
}

[[grad]] double g(double x, double y) {
  double p = x, q = y;
  const double &m = pick(p, q);
  p = 5 * x;
  // CHECK: reference-to-result.cpp:[[@LINE+1]]:10: error: grad: cannot differentiate reference 'm' whose target the plugin cannot track (it is bound to what 'pick' returns: take the value, 'double m = ...') in 'g'
  return m * x;
}
// CHECK: reference-to-result.cpp:[[@LINE-7]]:3: note: while differentiating 'g' requested here
// CHECK: 1 error generated
