// The refusals quoted in docs/supported.md, section "Values": globals and
// static locals in forward mode, std::complex in an HVP, struct and pair
// results that have no pushforward.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s
#include <grad/grad.h>
#include <complex>
#include <utility>

double last;

namespace gw {
[[grad::forward]] double f(double x) {
  // CHECK: values.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate write of a differentiated value to 'last', which has no tangent (memory outside the function's differentiated parameters) in 'f' in forward mode
  last = x * x;
  return x;
}
} // namespace gw

namespace sl {
[[grad::forward]] double f(double x) {
  // CHECK: values.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate 'static' local 'scale' in 'f' in forward mode
  static double scale = 2;
  return scale * x;
}
} // namespace sl

namespace cx {
[[grad::hessian]] double f(double x, double y) {
  std::complex<double> z(x, y);
  // CHECK: values.cpp:[[@LINE+3]]:27: error: grad: cannot build the Hessian-vector product of 'f': call to 'exp' (the return type 'complex<double>' has no pushforward (a floating scalar or void is needed)) (in its pullback) has no forward-mode derivative
  // CHECK: values.cpp:[[@LINE+2]]:19: error: grad: cannot build the Hessian-vector product of 'f': operator '+' on 'complex<double>' (in its pullback) has no forward-mode derivative
  // CHECK: values.cpp:[[@LINE+1]]:3: error: grad: cannot build the Hessian-vector product of 'f': operator '*' on 'double' (in its pullback) has no forward-mode derivative
  return std::abs(z * z + std::exp(z));
}
} // namespace cx
// (And errors inside <complex>, at the members std::real and std::imag call.)
// CHECK: {{.*}}complex:{{[0-9]+}}:{{[0-9]+}}: error: grad: cannot differentiate call to member function 'imag' in 'imag' in forward mode
// CHECK: {{.*}}complex:{{[0-9]+}}:{{[0-9]+}}: error: grad: cannot differentiate call to member function 'real' in 'real' in forward mode

struct Vec3 {
  double x, y, z;
};
namespace sr {
// CHECK: values.cpp:[[@LINE+1]]:3: error: grad: cannot declare the pushforward of 'f': the return type 'Vec3' has no pushforward (a floating scalar or void is needed)
[[grad::forward]] Vec3 f(double x, double y) { return Vec3{x, y, x * y}; }
} // namespace sr

namespace pr {
[[grad::forward]] double f(double x, double y) {
  std::pair<double, double> p{x * y, y};
  // CHECK: values.cpp:[[@LINE+1]]:12: error: grad: cannot differentiate call to 'make_pair' (the return type 'pair<{{.*}}>' has no pushforward (a floating scalar or void is needed)) in 'f' in forward mode
  auto q = std::make_pair(x, y);
  return p.first * q.second;
}
} // namespace pr

struct P {
  double a, b;
};
P mk(double x, double y) { return P{x * y, y}; }
namespace sb {
[[grad::hessian]] double f(double x, double y) {
  // CHECK: values.cpp:[[@LINE+1]]:17: error: grad: cannot build the Hessian-vector product of 'f': call to 'mk' (the return type 'P' has no pushforward (a floating scalar or void is needed)) (in its pullback) has no forward-mode derivative
  auto [u, v] = mk(x, y);
  return u * v;
}
} // namespace sb
