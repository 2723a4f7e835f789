// Standard algorithms over iterators of std::vector and std::array of
// floating elements (`std::fill(v.begin(), v.end(), x)`, `std::accumulate`,
// `std::inner_product`, `v.begin() + k`) are the same calls over pointers
// into their elements, differentiated from their bodies; `a.fill(x)` on a
// std::array is `std::fill` over its elements. Reverse and forward mode.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "fwdcheck.h"
#include "gradcheck.h"
#include <algorithm>
#include <array>
#include <numeric>
#include <vector>

using namespace gradcheck;
using fwdcheck::both;

[[grad, grad::forward]] double fills(double x, double y) {
  std::vector<double> v(4);
  std::fill(v.begin(), v.end(), x);
  std::fill(v.begin() + 2, v.end(), y * y);
  std::array<double, 3> a;
  a.fill(x * y);
  a[1] = a[1] * y;
  return v[0] * v[3] + v[1] + a[0] * a[1] + a[2];
}

[[grad, grad::forward]] double sums(double x, double y) {
  std::vector<double> v{x, y, x * y, 2.0};
  std::array<double, 4> w{y, x, 1.0, x - y};
  double s = std::accumulate(v.begin(), v.end(), 0.0);
  double d = std::inner_product(v.cbegin(), v.cend(), w.begin(), 0.0);
  double t = std::accumulate(v.begin() + 1, v.end() - 1, x);
  return s * d + t;
}

// A vector parameter filled and summed.
// The same algorithms over pointers, called nowhere else in the file:
// forward mode instantiates their bodies itself (before, "no visible
// body", since the primal's instantiation comes at the end of the file).
[[grad, grad::forward]] double pointers(double x, double y) {
  double a[3] = {x, y, x * y};
  const double b[3] = {0.5, -1.0, 2.0};
  return std::accumulate(a, a + 3, 0.0) * x +
         std::inner_product(a, a + 3, b, 0.0) * y;
}

[[grad, grad::forward]] double param(std::vector<double> v, double x) {
  std::fill(v.begin(), v.begin() + 2, x);
  return std::accumulate(v.begin(), v.end(), 0.0) * v[2];
}

int main() {
  both("fills", fills, fills_pullback, fills_pushforward, 0.7, 1.3);
  both("sums", sums, sums_pullback, sums_pushforward, 0.7, 1.3);
  both("sums2", sums, sums_pullback, sums_pushforward, -1.1, 0.4);
  both("pointers", pointers, pointers_pullback, pointers_pushforward, 0.7,
       1.3);
  {
    std::vector<double> v{0.5, 1.5, 2.5, -1.0}, dv(4, 0.0);
    double dx = 0;
    param_pullback(v, 0.8, 1.0, &dv, &dx);
    auto f = [&](double a, double b, double c, double d, double x) {
      return param({a, b, c, d}, x);
    };
    expect("param.dv0", dv[0], fd(f, 0, 0.5, 1.5, 2.5, -1.0, 0.8));
    expect("param.dv2", dv[2], fd(f, 2, 0.5, 1.5, 2.5, -1.0, 0.8));
    expect("param.dv3", dv[3], fd(f, 3, 0.5, 1.5, 2.5, -1.0, 0.8));
    expect("param.dx", dx, fd(f, 4, 0.5, 1.5, 2.5, -1.0, 0.8));
    std::vector<double> tv{0.0, 0.0, 1.0, 0.0};
    expect("param.fwd.v2", param_pushforward(v, 0.8, tv, 0.0).der[0],
           fd(f, 2, 0.5, 1.5, 2.5, -1.0, 0.8));
    std::vector<double> t0(4, 0.0);
    expect("param.fwd.x", param_pushforward(v, 0.8, t0, 1.0).der[0],
           fd(f, 4, 0.5, 1.5, 2.5, -1.0, 0.8));
  }
  return failures();
}
// CHECK: ok fills.d0
// CHECK: ok fills.d1
// CHECK: ok fills.fwd.x
// CHECK: ok fills.fwd.y
// CHECK: ok sums.d0
// CHECK: ok sums.d1
// CHECK: ok sums.fwd.x
// CHECK: ok sums.fwd.y
// CHECK: ok sums2.fwd.y
// CHECK: ok pointers.fwd.x
// CHECK: ok pointers.fwd.y
// CHECK: ok param.dv0
// CHECK: ok param.dv2
// CHECK: ok param.dv3
// CHECK: ok param.dx
// CHECK: ok param.fwd.v2
// CHECK: ok param.fwd.x
// (Dereferenced iterator results, `*std::max_element(v.begin(), v.end())`:
// iterator-results.cpp.)
