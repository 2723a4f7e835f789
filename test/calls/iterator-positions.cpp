// Iterator locals that only mark a position (std::lower_bound /
// std::upper_bound / std::find_if results compared, stepped and measured,
// never dereferenced): an index in disguise, run as written, in reverse and
// forward mode, HVPs and vector pullbacks. An iterator read through stays
// refused (test/supported/pointers.cpp).
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "fwdcheck.h"
#include <algorithm>
#include <iterator>
#include <vector>

// Piecewise-linear interpolation, as usually written.
[[grad]] double interp(const std::vector<double> &ts,
                       const std::vector<double> &ys, double t) {
  auto it = std::lower_bound(ts.begin(), ts.end(), t);
  if (it == ts.begin())
    ++it;
  if (it == ts.end())
    it = std::prev(ts.end());
  long i = it - ts.begin();
  double w = (t - ts[i - 1]) / (ts[i] - ts[i - 1]);
  return (1 - w) * ys[i - 1] + w * ys[i];
}

// The same with std::upper_bound, std::distance and std::advance.
[[grad]] double step_sum(const std::vector<double> &v, double c) {
  auto hi = std::upper_bound(v.begin(), v.end(), c);
  auto lo = v.begin();
  std::advance(lo, 1);
  double s = 0;
  for (long k = std::distance(v.begin(), lo); k < hi - v.begin(); ++k)
    s += v[k] * v[k] * c;
  return s;
}

// A search that may find nothing.
[[grad]] double first_big(const std::vector<double> &v, double s) {
  auto it = std::find_if(v.begin(), v.end(), [](double e) { return e > 1.0; });
  long k = it != v.end() ? it - v.begin() : 0;
  return v[k] * s * s;
}

// Moved over a vector of differentiated values: `it -= 1`, a new position
// from the old one, std::advance.
[[grad]] double stepped(double x, double y) {
  std::vector<double> v{x, y, x * y, y * y};
  auto it = std::upper_bound(v.begin(), v.end(), 0.9);
  if (!(it < v.end()))
    it -= 1;
  if (it > v.begin() && it - v.begin() > 1)
    it = std::prev(it, 1);
  std::advance(it, 0);
  long k = std::distance(v.begin(), it);
  return v[k] * v[0] + x * y;
}

[[grad::forward]] double fwd(double x, double y) {
  std::vector<double> ts{0.0, 0.5, 1.0, 1.5};
  std::vector<double> ys{x, y, x * y, y * y};
  auto it = std::upper_bound(ts.begin(), ts.end(), 0.7);
  it -= 1;
  it = std::next(it, 1);
  std::advance(it, 0);
  long i = std::distance(ts.begin(), it);
  return ys[i - 1] * 0.6 + ys[i] * 0.4 + x * static_cast<double>(i);
}

[[grad::hessian]] double curved(double a, double b) {
  std::vector<double> v{a * a, b, a * b};
  auto it = std::find_if(v.begin(), v.end(), [](double e) { return e > 1.0; });
  long k = it == v.end() ? 0 : it - v.begin();
  return v[k] * v[2] + a * b * b;
}

[[grad("lanes=2")]] double lanes(double x, double y) {
  std::vector<double> v{x, y, x * y};
  auto it = std::lower_bound(v.begin(), v.begin() + 2, 1.0);
  long k = it - v.begin();
  return v[k] * v[2] + x * y * y;
}

int main() {
  std::vector<double> ts{0, 1, 2, 3}, ys{1, 4, 2, 5};
  auto interpOf = [&](double t, double y2) {
    std::vector<double> Y = ys;
    Y[2] = y2;
    return interp(ts, Y, t);
  };
  auto interpPb = [&](double t, double y2, double d, double *dt,
                      double *dy2) {
    std::vector<double> Y = ys, DT(4), DY(4);
    Y[2] = y2;
    interp_pullback(ts, Y, t, d, &DT, &DY, dt);
    *dy2 += DY[2];
  };
  gradcheck::check_grad("interp.mid", interpOf, interpPb, 1.5, 2.0);
  // CHECK: ok interp.mid.d1
  gradcheck::check_grad("interp.low", interpOf, interpPb, -0.25, 2.0);
  // CHECK: ok interp.low.d1
  gradcheck::check_grad("interp.high", interpOf, interpPb, 3.5, 2.0);
  // CHECK: ok interp.high.d1
  // Knots: d/dts[1] at t = 1.5 is w (ys[2] - ys[1]) / (ts[2] - ts[1])
  // with w = 0.5, times -1 ... checked against central differences.
  {
    std::vector<double> DT(4), DY(4);
    double dt = 0;
    interp_pullback(ts, ys, 1.5, 1.0, &DT, &DY, &dt);
    std::vector<double> P = ts, M = ts;
    P[1] += 1e-6;
    M[1] -= 1e-6;
    gradcheck::expect("interp.dts1", DT[1],
                      (interp(P, ys, 1.5) - interp(M, ys, 1.5)) / 2e-6, 1e-7);
    // CHECK: ok interp.dts1
  }
  std::vector<double> v{0.3, 0.8, 1.4, 2.5};
  {
    std::vector<double> DV(4);
    double dc = 0;
    step_sum_pullback(v, 1.6, 1.0, &DV, &dc);
    // lo = 1, hi = 3: s = c (0.64 + 1.96).
    gradcheck::expect("step_sum.dc", dc, 0.64 + 1.96, 1e-12);
    gradcheck::expect("step_sum.dv0", DV[0], 0.0, 1e-12);
    gradcheck::expect("step_sum.dv2", DV[2], 2 * 1.4 * 1.6, 1e-12);
    // CHECK: ok step_sum.dc
    // CHECK: ok step_sum.dv0
    // CHECK: ok step_sum.dv2
  }
  {
    std::vector<double> DV(4), Small{0.1, 0.2}, DS(2);
    double ds = 0;
    first_big_pullback(v, 0.9, 1.0, &DV, &ds);
    gradcheck::expect("first_big.ds", ds, 2 * 1.4 * 0.9, 1e-12);
    gradcheck::expect("first_big.dv2", DV[2], 0.81, 1e-12);
    // CHECK: ok first_big.ds
    // CHECK: ok first_big.dv2
    ds = 0;
    first_big_pullback(Small, 0.9, 1.0, &DS, &ds);
    gradcheck::expect("first_big.none", DS[0], 0.81, 1e-12);
    // CHECK: ok first_big.none
  }
  // k = 3 (upper_bound finds nothing) and k = 1 (it finds x * y, stepped
  // back once).
  gradcheck::check_grad("stepped.end", stepped, stepped_pullback, 0.5, 0.4);
  // CHECK: ok stepped.end.d1
  gradcheck::check_grad("stepped.mid", stepped, stepped_pullback, 0.5, 2.5);
  // CHECK: ok stepped.mid.d1
  using V = std::vector<double>;
  fwdcheck::each("fwd", [](const V &Y) { return fwd(Y[0], Y[1]); },
                 [](const V &Y, const V &D) {
                   return fwd_pushforward(Y[0], Y[1], D[0], D[1]).der[0];
                 },
                 V{0.7, 1.6});
  // CHECK: ok fwd.v1
  // k = 1 (a * a below 1) and k = 0.
  gradcheck::check_hvp("curved", curved_hvp, curved_pullback, 0.8, 1.2);
  gradcheck::check_hvp("curved", curved_hvp, curved_pullback, 1.3, 1.2);
  // CHECK: ok curved.h11
  for (int k = 0; k < 2; ++k) {
    grad::lanes<double, 2> Lx{}, Ly{};
    lanes_pullback(0.9, 1.4, grad::lanes<double, 2>{{1.0, -0.5}}, &Lx, &Ly);
    double seed = k == 0 ? 1.0 : -0.5, Sx = 0, Sy = 0;
    lanes_pullback(0.9, 1.4, seed, &Sx, &Sy);
    gradcheck::expect("lanes.x" + std::to_string(k), Lx.der[k], Sx, 1e-12);
    gradcheck::expect("lanes.y" + std::to_string(k), Ly.der[k], Sy, 1e-12);
  }
  // CHECK: ok lanes.y1
  gradcheck::check_grad("lanes", lanes,
                        [](double x, double y, double d, double *dx,
                           double *dy) { lanes_pullback(x, y, d, dx, dy); },
                        0.9, 1.4);
  // CHECK: ok lanes.d1
  return gradcheck::failures();
}
