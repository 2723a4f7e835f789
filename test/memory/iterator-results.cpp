// The dereferenced iterator result of a standard algorithm over iterators
// of a std::vector or std::array of floating elements
// (`*std::max_element(v.begin(), v.end())`, log-sum-exp as it is usually
// written) is the same call over pointers into the elements, dereferenced:
// read, written through, with a comparator, inside loops, in both modes.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s --function=top %dflags | FileCheck %s --check-prefix=DUMP
// RUN: not %gradxx -fsyntax-only -DREFUSED %s 2>&1 | FileCheck %s --check-prefix=REFUSED
#include "fwdcheck.h"
#include "gradcheck.h"
#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

using namespace gradcheck;
using fwdcheck::both;

[[grad]] double lse(const std::vector<double> &x) {
  double mx = *std::max_element(x.begin(), x.end());
  double s = 0;
  for (double v : x)
    s += std::exp(v - mx);
  return mx + std::log(s);
}

// The largest element's derivative is w, the others' zero.
[[grad]] double top(const std::vector<double> &v, double w) {
  return *std::max_element(v.begin(), v.end()) * w;
}
// DUMP: void top_pullback(const std::vector<double> &v, double w, double d_ret, std::vector<double> *d_v, double *d_w) {
// DUMP: _p0 = ::std::max_element<const double *>(v.data(), v.data() + v.size());
// DUMP-NEXT: _o0 = _p0 - v.data();
// DUMP: *((*d_v).data() + _o0) += d_ret * w;

static bool byAbs(double a, double b) { return std::fabs(a) < std::fabs(b); }

[[grad, grad::forward]] double picks(double x, double y) {
  std::vector<double> v = {x, y, x * y, 1.5};
  std::array<double, 3> a = {y, x - y, 0.25};
  double s = *std::max_element(v.begin(), v.end()) * x;
  s += *std::min_element(v.cbegin() + 1, v.cend(), byAbs) * y;
  *std::max_element(a.begin(), a.end()) *= x;
  s += a[0] + a[1] * a[2];
  for (int i = 0; i < 3; ++i) {
    v[i] *= y;
    s += *std::min_element(v.begin(), v.begin() + 3) * (i + 1);
  }
  return s;
}

// Written through, and the index of the element found, on a vector that
// grows after it.
[[grad, grad::forward]] double found(double x, double y) {
  std::vector<double> v = {x, y, x * y};
  *std::max_element(v.begin(), v.end()) = 0.5 * x;
  long k = std::max_element(v.begin(), v.end()) - v.begin();
  v.push_back(y * y);
  double s = *std::min_element(v.begin(), v.end()) * (k + 1);
  return s + v[0] + v[1] * v[2] + v[3];
}

int main() {
  both("found", found, found_pullback, found_pushforward, 0.7, 1.3);
  both("found2", found, found_pullback, found_pushforward, 2.1, -0.4);
  std::vector<double> x = {0.3, 1.2, -0.5, 0.9}, dx(4, 0.0);
  lse_pullback(x, 1.0, &dx);
  for (int i = 0; i < 4; ++i) {
    auto f = [&](double u) {
      std::vector<double> xs = x;
      xs[i] = u;
      return lse(xs);
    };
    expect("lse.d" + std::to_string(i), dx[i], fd(f, 0, x[i]));
  }
  std::vector<double> dv(4, 0.0);
  double dw = 0;
  top_pullback(x, 0.7, 1.0, &dv, &dw);
  expect("top.d0", dv[0], 0.0);
  expect("top.d1", dv[1], 0.7);
  expect("top.d3", dv[3], 0.0);
  expect("top.w", dw, 1.2);
  both("picks", picks, picks_pullback, picks_pushforward, 0.7, 1.3);
  both("picks2", picks, picks_pullback, picks_pushforward, 2.1, -0.4);
  return failures();
}
// CHECK: ok found.d0
// CHECK: ok found.d1
// CHECK: ok found.fwd.x
// CHECK: ok found2.fwd.y
// CHECK: ok lse.d0
// CHECK: ok lse.d3
// CHECK: ok top.d1
// CHECK: ok top.w
// CHECK: ok picks.d0
// CHECK: ok picks.d1
// CHECK: ok picks.fwd.x
// CHECK: ok picks2.fwd.y

#ifdef REFUSED
// An iterator result kept in a local stays an error.
[[grad]] double kept(const std::vector<double> &v) {
  auto m = std::max_element(v.begin(), v.end());
// REFUSED: iterator-results.cpp:[[@LINE-1]]:8: error: grad: cannot differentiate iterator 'm'
  return *m;
}
// std::lower_bound moves its first iterator through std::advance: where its
// result points is not followed.
[[grad, grad::forward]] double bound(double x, double y) {
  std::vector<double> v = {x, y, x * y};
  return *std::lower_bound(v.begin(), v.end(), 0.5);
// REFUSED: iterator-results.cpp:[[@LINE-1]]:11: error: grad: cannot differentiate pointer returned by 'lower_bound', whose target the plugin cannot track (it must point into one pointer or container argument) in 'bound' in forward mode
// REFUSED: iterator-results.cpp:[[@LINE-2]]:11: error: grad: cannot differentiate dereference of the pointer 'lower_bound' returns, whose target the plugin cannot track (it must point into one pointer or container argument) in 'bound'
}
#endif
