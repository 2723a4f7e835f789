// A Hessian-vector product of a function that resizes a std::vector taken
// by value: the pushforward of its pullback wrote the direction's copy
// through a const reference (a Clang error inside the generated code).
// The direction is now copied like the value; what remains is the plugin's
// own refusal of the pullback's read of the vector's adjoint, at the
// function.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s
#include <vector>

[[grad::hessian]] double h(std::vector<double> v, double y) {
  // CHECK: hvp-resized-value-param.cpp:[[@LINE-1]]:26: error: grad: cannot build the Hessian-vector product of 'h': read of the adjoint 'd_v' (only accumulated into here) (in its pullback) has no forward-mode derivative
  // CHECK: hvp-resized-value-param.cpp:[[@LINE-2]]:3: note: while differentiating 'h' requested here
  v.push_back(y);
  double s = 0;
  for (double e : v)
    s += e * e * y;
  return s;
}
