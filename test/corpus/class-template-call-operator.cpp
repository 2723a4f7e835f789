// Checks: a local object of a class template with std::vector scratch
// members, called through a non-const member template operator(), is
// refused: in reverse mode at the call, in forward mode at the
// construction. Found in CppAD (its determinant objects, used as
// `Det det(n); det(x)`, fill member work vectors in operator()). A const
// call operator on a local object without scratch state differentiates in
// reverse mode (checked against finite differences); forward mode refuses
// call operators on class objects altogether, which is not tested here.
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | %FileCheck-strict %s --check-prefix=ERR
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "vecgrad.h"
#include <cstddef>
#include <vector>

#ifdef ERRORS
template <class S> class SquareSum {
  std::vector<S> work_;

public:
  explicit SquareSum(std::size_t n) : work_(n) {}
  template <class V> S operator()(const V &x) {
    S s = 0;
    for (std::size_t i = 0; i < work_.size(); ++i) {
      work_[i] = x[i] * x[i];
      s += work_[i];
    }
    return s;
  }
};
// ERR: class-template-call-operator.cpp:[[@LINE+3]]:10: error: grad: cannot differentiate call to non-const member function 'operator()' whose result is used (if it does not change its object, declare it 'const') in 'rev'
[[grad]] double rev(const std::vector<double> &x) {
  SquareSum<double> sum(x.size());
  return sum(x);
}
// ERR: class-template-call-operator.cpp:[[@LINE+2]]:21: error: grad: cannot differentiate constructor call of 'SquareSum<double>' in 'fwd' in forward mode
[[grad::forward]] double fwd(const std::vector<double> &x) {
  SquareSum<double> sum(x.size());
  return sum(x);
}
#endif

// Without scratch members and with a const call operator.
template <class S> struct Weighted {
  S w;
  template <class V> S operator()(const V &x) const {
    S s = 0;
    for (std::size_t i = 0; i < x.size(); ++i)
      s += w * x[i] * x[i] * (i + 1);
    return s;
  }
};
[[grad]] double ok(const std::vector<double> &x) {
  Weighted<double> q{1.5};
  return q(x);
}

int main() {
  auto X = vecgrad::sample(4, 2);
  std::vector<double> d(4, 0.0);
  ok_pullback(X, 1.0, &d);
  vecgrad::check("rev", ok, X, d);
  // CHECK: ok rev.d0
  // CHECK: ok rev.d3
  return gradcheck::failures();
}
