// Standard algorithms given lambdas, functions and <functional> objects
// (issue 51, point 3), over pointer ranges and vector iterators: each call
// is differentiated through a view of the algorithm's own body (its
// iterators first made pointers into the vector, driver/CallableViews.h),
// in reverse and forward mode and in HVPs.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "fwdcheck.h"
#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <vector>

double bump(double x) { return std::exp(-x * x); }

// transform (one and two ranges), accumulate with a lambda and with
// std::plus<>, over vectors.
[[grad]] double maps(double a, double k) {
  std::vector<double> x{a, 2 * a, a * a}, y(3), z(3);
  std::transform(x.begin(), x.end(), y.begin(),
                 [&](double v) { return k * v * v; });
  std::transform(x.begin(), x.end(), y.begin(), z.begin(),
                 [](double u, double v) { return u * std::sin(v); });
  double s = std::accumulate(z.begin(), z.end(), 0.0,
                             [k](double acc, double v) { return acc + k * v; });
  return s + std::accumulate(y.begin(), y.end(), 1.0, std::plus<>()) +
         std::accumulate(x.begin(), x.end(), 1.0, std::multiplies<double>());
}

// reduce, transform_reduce (one and two ranges), inner_product with two
// operations, over pointers; a function passed by name.
[[grad]] double reductions(double a, double b) {
  double x[5] = {a, b, a * b, a - b, 0.5 * a};
  double y[5] = {b, a, 1.0, b * b, 2.0};
  double r = std::reduce(x, x + 5, 0.0, [](double u, double v) { return u + v * v; });
  double t = std::transform_reduce(x, x + 5, 0.0, std::plus<>(), bump);
  double d = std::transform_reduce(x, x + 5, y, 0.0);
  double p = std::inner_product(x, x + 5, y, 0.0, std::plus<>(),
                                [&](double u, double v) { return u * v * a; });
  return r + t + d * p;
}

// Scans and differences with operations, for_each writing what it
// captures, generate with a running state.
[[grad]] double scans(double a, double k) {
  std::vector<double> x{a, k, a * k, 1.5}, y(4), z(4), w(4);
  std::partial_sum(x.begin(), x.end(), y.begin(),
                   [&](double u, double v) { return k * u + v; });
  std::inclusive_scan(x.begin(), x.end(), z.begin(), std::multiplies<>());
  std::exclusive_scan(x.begin(), x.end(), w.begin(), 1.0,
                      [](double u, double v) { return u + v * v; });
  double d[4];
  std::adjacent_difference(y.begin(), y.end(), d,
                           [](double u, double v) { return u * u - v; });
  double s = 0;
  std::for_each(z.begin(), z.end(), [&](double v) { s += std::sin(v); });
  double t = 0;
  std::generate(w.begin(), w.end(), [&] {
    t += 0.25;
    return std::cos(k * t);
  });
  return s + d[3] * d[1] + w[2] * w[3] + y[3] + z[3];
}

// A trimmed statistic: sorted with a comparator (the permutation found on
// the values, the values moved with their adjoints), the extremes dropped.
[[grad]] double trimmed(double a, double b) {
  std::vector<double> v{a, b, a * b, std::sin(a), b - a};
  std::sort(v.begin(), v.end(), [](double x, double y) { return x > y; });
  double s = 0;
  for (int i = 1; i < 4; ++i)
    s += v[i] * i;
  return s;
}

[[grad::forward]] double fwd(double a, double k) {
  std::vector<double> x{a, k, a * k}, y(3);
  std::transform(x.begin(), x.end(), y.begin(),
                 [&](double v) { return std::sin(k * v); });
  return std::accumulate(y.begin(), y.end(), 0.0,
                         [](double s, double v) { return s + v * v; });
}

[[grad::hessian]] double curved(double a, double b) {
  double x[3] = {a, b, a * b};
  std::sort(x, x + 3, [](double u, double v) { return u < v; });
  return std::inner_product(x, x + 3, x, 0.0, std::plus<>(),
                            [&](double u, double v) { return u * v * b; });
}

int main() {
  gradcheck::check_grad("maps", maps, maps_pullback, 0.7, 1.3);
  // CHECK: ok maps.d1
  gradcheck::check_grad("reductions", reductions, reductions_pullback, 0.6,
                        -0.4);
  // CHECK: ok reductions.d1
  gradcheck::check_grad("scans", scans, scans_pullback, 0.8, 1.1);
  // CHECK: ok scans.d1
  gradcheck::check_grad("trimmed", trimmed, trimmed_pullback, 0.7, 1.9);
  // CHECK: ok trimmed.d1
  using V = std::vector<double>;
  fwdcheck::each("fwd", [](const V &Y) { return fwd(Y[0], Y[1]); },
                 [](const V &Y, const V &D) {
                   return fwd_pushforward(Y[0], Y[1], D[0], D[1]).der[0];
                 },
                 V{0.7, 1.4});
  // CHECK: ok fwd.v1
  gradcheck::check_hvp("curved", curved_hvp, curved_pullback, 0.4, 1.2);
  // CHECK: ok curved.h11
  return gradcheck::failures();
}
