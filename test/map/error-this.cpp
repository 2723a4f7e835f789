// A lambda capturing 'this' that writes members of the object is an error
// at the lambda, with the request note (lambdas that only read members are
// supported: test/classes/lambdas-this.cpp).
// RUN: not %gradxx -I%S/Inputs -fsyntax-only %s 2>&1 | %FileCheck-strict %s --implicit-check-not=error: --implicit-check-not=note:
#include <grad/grad.h>

#include <vector>

using V = std::vector<double>;

struct Model {
  double w = 2;
  // CHECK: error-this.cpp:[[@LINE+3]]:32: error: grad: cannot differentiate lambda capturing 'this' that writes members of 'this' in 'loss'
  // CHECK: error-this.cpp:[[@LINE+1]]:5: note: while differentiating 'loss' requested here
  [[grad]] double loss(const V &x) {
    return grad::sum(grad::map([this](double z) { w += z; return w * z * z; }, x));
  }
};
