// Forward mode through `switch` (fallthrough, `default` anywhere, `break`
// inside nested statements, init-statements, enums, a switch inside a
// loop), `goto`, and range-based `for` (over local arrays, std::vector, std::array
// and initializer lists, by value and by reference, writing through the
// element reference), scalar and vector mode; checked against central
// differences.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "fwdcheck.h"
#include <array>
#include <cmath>
#include <vector>

using V = std::vector<double>;

enum class Kind { Square, Sine, Mix };

// DUMP-LABEL: ::grad::dual<double> sw_pushforward(double x, double y, int k, double t_x, double t_y) {
// DUMP: switch (k) {
// DUMP: case 0:
[[grad::forward("lanes=2")]] double sw(double x, double y, int k) {
  double s = x;
  switch (k) {
  case 0:
    s *= y;
    [[fallthrough]];
  case 1:
    s += std::sin(x * y);
    break;
  default:
    s = s * s;
    if (s > 100)
      break;
    s -= y;
    break;
  case 3:
  case 4: {
    double t = std::exp(y);
    s = t * x;
    break;
  }
  }
  return s + y;
}

[[grad::forward]] double en(double x, Kind k) {
  double r = 0;
  for (int i = 0; i < 3; ++i) {
    switch (Kind q = k; q) {
    case Kind::Square:
      r += x * x * i;
      break;
    case Kind::Sine:
      r += std::sin(x + i);
      continue;
    case Kind::Mix:
      r = r * x + i;
    }
    r += 0.5 * x;
  }
  return r;
}

// DUMP-LABEL: ::grad::dual<double> rf_pushforward(const std::vector<double> &v, double x, const std::vector<double> &t_v, double t_x) {
// DUMP: for (unsigned long _i{{[0-9]+}} = 0UL; _i{{[0-9]+}} < _n{{[0-9]+}}; ++_i{{[0-9]+}}) {
[[grad::forward]] double rf(const std::vector<double> &v, double x) {
  double a[3] = {x, 2 * x, x * x};
  for (double &e : a)
    e = std::sin(e) * x;
  double s = 0;
  for (double e : a)
    s += e * e;
  for (const auto &w : v)
    s += w * x;
  std::array<double, 2> b{v[0] * x, v[1]};
  for (double e : b) {
    if (e > 10)
      break;
    s += std::exp(e / 4);
  }
  std::vector<double> c(v);
  for (auto &e : c)
    e *= e;
  for (double e : c)
    s += e;
  for (double e : {x, v[2], 1.5})
    s += 0.5 * e * e;
  return s;
}

// Range-for over a local array in vector mode.
[[grad::forward("lanes=3")]] double rfl(double x, double y) {
  double a[] = {x, y, x * y};
  double s = 1;
  for (double &e : a) {
    e = std::cos(e);
    s *= 1 + e;
  }
  return s;
}

// Vector mode, read-only data without tangents: a range-for over it and a
// reference to it need no lanes.
[[grad::forward("x, y", "lanes=2")]] double wsum(const std::vector<double> &w,
                                                 double x, double y) {
  double s = 0;
  for (double e : w)
    s += e * std::sin(x * e);
  const std::vector<double> &ww = w;
  return s + ww[0] * y;
}

// goto: jumps keep their meaning.
[[grad::forward]] double gt(double x) {
  double s = x;
  int i = 0;
again:
  s = s * x + std::sin(s);
  if (++i < 3)
    goto again;
  if (s > 100)
    goto out;
  s *= x;
out:
  return s;
}

int main() {
  fwdcheck::each("gt", [](const V &X) { return gt(X[0]); },
                 [](const V &X, const V &D) {
                   return gt_pushforward(X[0], D[0]).der[0];
                 },
                 {0.8});
  for (int k = 0; k < 6; ++k) {
    fwdcheck::each("sw" + std::to_string(k),
                   [k](const V &X) { return sw(X[0], X[1], k); },
                   [k](const V &X, const V &D) {
                     return sw_pushforward(X[0], X[1], k, D[0], D[1]).der[0];
                   },
                   {0.7, -0.4});
    fwdcheck::lanes<2>(
        "swl" + std::to_string(k), [k](const V &X) { return sw(X[0], X[1], k); },
        [k](const V &X, const std::vector<grad::lanes<double, 2>> &D) {
          return sw_pushforward(X[0], X[1], k, D[0], D[1]);
        },
        {0.7, -0.4});
  }
  for (Kind k : {Kind::Square, Kind::Sine, Kind::Mix})
    fwdcheck::each("en" + std::to_string(int(k)),
                   [k](const V &X) { return en(X[0], k); },
                   [k](const V &X, const V &D) {
                     return en_pushforward(X[0], k, D[0]).der[0];
                   },
                   {0.3});
  fwdcheck::each("rf", [](const V &X) { return rf({X[0], X[1], X[2]}, X[3]); },
                 [](const V &X, const V &D) {
                   return rf_pushforward({X[0], X[1], X[2]}, X[3],
                                         {D[0], D[1], D[2]}, D[3])
                       .der[0];
                 },
                 {0.4, -0.3, 0.9, 0.6});
  fwdcheck::lanes<3>(
      "rfl", [](const V &X) { return rfl(X[0], X[1]); },
      [](const V &X, const std::vector<grad::lanes<double, 3>> &D) {
        return rfl_pushforward(X[0], X[1], D[0], D[1]);
      },
      {0.4, 1.3});
  fwdcheck::lanes<2>(
      "wsum", [](const V &X) { return wsum({0.5, -1.5, 2.0}, X[0], X[1]); },
      [](const V &X, const std::vector<grad::lanes<double, 2>> &D) {
        return wsum_pushforward({0.5, -1.5, 2.0}, X[0], X[1], D[0], D[1]);
      },
      {0.8, -0.3});
  return gradcheck::failures();
}

// CHECK: ok gt.v1
// CHECK: ok sw0.v2
// CHECK: ok swl0.v2
// CHECK: ok sw1.v2
// CHECK: ok sw2.v2
// CHECK: ok sw3.v2
// CHECK: ok sw4.v2
// CHECK: ok sw5.v2
// CHECK: ok en0.v1
// CHECK: ok en1.v1
// CHECK: ok en2.v1
// CHECK: ok rf.v4
// CHECK: ok rfl.v2
// CHECK: ok wsum.v2
