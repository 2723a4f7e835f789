// The refusals quoted in docs/supported.md, section "Library": <cmath>
// functions without a rule, <numeric> algorithms in HVPs, algorithm results over a vector in a vector pullback,
// functions without a body in forward mode, grad::map over a local vector,
// grad::tensor and grad::matmul in forward mode and HVPs.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s
#include <grad/grad.h>
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

// <cmath> functions without a rule: reverse, HVP, vector pullback (with
// a user pullback declared without a body).
namespace tr {
// CHECK-DAG: library.cpp:[[@LINE+1]]:38: error: grad: cannot differentiate call to 'tgamma' in 'f': it has no visible body, no derivative rule and no user pullback
[[grad]] double f(double x) { return std::tgamma(x); }
} // namespace tr
namespace th {
void tgamma_pullback(double x, double d_ret, double *d_x);
// CHECK-DAG: library.cpp:[[@LINE+2]]:47: error: grad: cannot differentiate call to 'tgamma' (it has no visible body, no derivative rule and no user pushforward) in 'f' in forward mode
// CHECK-DAG: library.cpp:[[@LINE+1]]:40: error: grad: cannot differentiate call to 'tgamma_pullback' (it has no visible body, no derivative rule and no user pushforward) in 'f' in forward mode
[[grad::hessian]] double f(double x) { return tgamma(x) * x; }
} // namespace th
namespace tv {
void tgamma_pullback(double x, double d_ret, double *d_x);
// CHECK-DAG: library.cpp:[[@LINE+1]]:42: error: grad: cannot build the vector pullback of 'f': call to 'tgamma_pullback', a pullback without a visible body (the vector form of a pullback is built from its body)
[[grad("lanes=2")]] double f(double x) { return tgamma(x) * x; }
} // namespace tv

// Scans in an HVP: the forward half returns the output iterator (std
// accumulate, inner_product and fill in HVPs and vector pullbacks:
// test/calls/library-hvp-lanes.cpp).
namespace sh {
[[grad::hessian]] double f(const double *a) {
  double o[3];
  // CHECK-DAG: library.cpp:[[@LINE+1]]:3: error: grad: cannot build the Hessian-vector product of 'f': call to '_grad_inclusive_scan_fwd_0', which writes differentiated memory and has no visible body or user pushforward (in its pullback) has no forward-mode derivative
  std::inclusive_scan(a, a + 3, o);
  return o[2] * o[1];
}
} // namespace sh

// std::max_element over a vector, vector pullback.
namespace mv {
[[grad("lanes=2")]] double f(double x, double y) {
  std::vector<double> v{x, y * x};
  // CHECK-DAG: library.cpp:[[@LINE+1]]:3: error: grad: cannot build the vector pullback of 'f': call to 'data' on the adjoint of 'v' (the vector pullback of a container supports element access, size and resizing)
  return *std::max_element(v.begin(), v.end());
}
} // namespace mv

// A function without a body, forward mode.
double smooth(double t, double k);
namespace sm {
// CHECK-DAG: library.cpp:[[@LINE+1]]:47: error: grad: cannot differentiate call to 'smooth' (it has no visible body, no derivative rule and no user pushforward) in 'f' in forward mode
[[grad::forward]] double f(double x) { return smooth(x, 2 * x); }
} // namespace sm

// grad::map over a local vector, vector pullback.
namespace mp {
[[grad("lanes=2")]] double f(double x, double y) {
  std::vector<double> v{x, y};
  // CHECK-DAG: library.cpp:[[@LINE+1]]:3: error: grad: cannot build the vector pullback of 'f': use of the adjoint 'd_ret' as a value
  return grad::sum(grad::map([](double a) { return a * a; }, v));
}
} // namespace mp

// grad::tensor parameters, forward mode.
namespace tn {
[[grad::forward]] double f(const grad::tensor<double> &t) {
  // CHECK-DAG: library.cpp:[[@LINE+1]]:24: error: grad: cannot differentiate call operator of 'grad::tensor<double>' (forward mode does not differentiate member functions yet) in 'f' in forward mode
  return t[0] * t[0] + t(0, 1);
}
} // namespace tn

// grad::matmul, forward mode and HVP.
namespace mf {
[[grad::forward]] double f(const grad::tensor<double> &a, const grad::tensor<double> &b) {
  // CHECK-DAG: library.cpp:[[@LINE+1]]:20: error: grad: cannot differentiate call to 'matmul' (the return type 'tensor<std::common_type_t<double, double>>' has no pushforward (a floating scalar or void is needed)) in 'f' in forward mode
  return grad::sum(grad::matmul(a, b));
}
} // namespace mf
namespace mh {
[[grad::hessian]] double f(const grad::tensor<double> &a, const grad::tensor<double> &b) {
  // CHECK-DAG: library.cpp:[[@LINE+2]]:20: error: grad: cannot build the Hessian-vector product of 'f': call to 'matmul' (the return type 'tensor<std::common_type_t<double, double>>' has no pushforward (a floating scalar or void is needed)) (in its pullback) has no forward-mode derivative
  // CHECK-DAG: library.cpp:[[@LINE+1]]:3: error: grad: cannot build the Hessian-vector product of 'f': call to 'zeros_like' (the return type 'tensor<double>' has no pushforward (a floating scalar or void is needed)) (in its pullback) has no forward-mode derivative
  return grad::sum(grad::matmul(a, b));
}
} // namespace mh
