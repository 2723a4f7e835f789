// A mutable lambda passed to map is an error at the lambda (its copies'
// state is not something the lowering can replay), with the request note;
// so is a lambda that writes a by-copy capture.
// RUN: not %gradxx -I%S/Inputs -fsyntax-only %s 2>&1 | %FileCheck-strict %s --implicit-check-not=error: --implicit-check-not=note:
#include <grad/grad.h>

#include <vector>

using V = std::vector<double>;

// CHECK: error-mutable.cpp:[[@LINE+4]]:30: error: grad: cannot differentiate mutable lambda in 'counter'
// CHECK: error-mutable.cpp:[[@LINE+1]]:3: note: while differentiating 'counter' requested here
[[grad]] double counter(const V &x) {
  double k = 1;
  return grad::sum(grad::map([k](double z) mutable { k += 1; return k * z; }, x));
}

// CHECK: error-mutable.cpp:[[@LINE+3]]:30: error: grad: cannot differentiate mutable lambda in 'mutable_pure'
// CHECK: error-mutable.cpp:[[@LINE+1]]:3: note: while differentiating 'mutable_pure' requested here
[[grad]] double mutable_pure(const V &x) {
  return grad::sum(grad::map([](double z) mutable { return z * z; }, x));
}
