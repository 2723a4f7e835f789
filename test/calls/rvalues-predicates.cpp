// Parameters taking `double &&` (a temporary, or a variable given by
// std::move) and std::exchange; capture-free lambdas in code without
// derivatives (the predicates of std::count_if, std::find_if, std::any_of),
// replayed as written; in reverse and forward mode and in HVPs.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "fwdcheck.h"
#include <algorithm>
#include <cmath>
#include <iterator>
#include <utility>
#include <vector>

// Changes what it is given: seen by the caller through std::move(t).
double scaled(double &&a, double b) {
  a *= b;
  return a + std::sin(b);
}
template <class U> double twice(U &&a, double b) {
  return std::forward<U>(a) * b * 2;
}

[[grad]] double moves(double x, double y) {
  double t = x + 1;
  double r = scaled(x * y, y) + scaled(std::move(t), y);
  r += t * x + twice(x * x, y) + twice(t, x);
  double prev = x * y;
  double old = std::exchange(prev, y * y);
  return r + old * prev + std::sin(old);
}

// The callee changes the temporary it is given (`a *= b`), and the
// partial in b reads a: the reverse sweep must see the value the call was
// given, not the changed one (the call used to get the recorded value
// itself; found by the generator's rvalues feature).
[[grad]] double overwrites(double x) {
  x += 0.25 * scaled(std::erf(x * 0.7), std::tanh(x - 0.3));
  double r = scaled(x * 0.7, x - 0.3);
  return x * r;
}

// The same with a struct given to `V2 &&`.
struct V2 {
  double x, y;
};
static double squash(V2 &&v, double b) {
  v.x *= b;
  v.y += v.x;
  return v.x * v.y + std::sin(b * v.y);
}
[[grad]] double overwritesObject(double x) {
  x += 0.5 * squash(V2{x * 0.7, x}, x - 0.3);
  return x * x;
}

// Predicates that carry no derivative, replayed as written; the count and
// the index they give choose what is differentiated.
[[grad]] double chosen(const std::vector<double> &v, double s) {
  long n = std::count_if(v.begin(), v.end(), [](double e) { return e > 0.5; });
  long k = std::distance(v.begin(), std::find_if(v.begin(), v.end(),
                                                 [](double e) { return e > 0.5; }));
  bool any = std::any_of(v.begin(), v.end(), [](double e) { return e < 0; });
  double r = 0;
  for (double e : v)
    r += e * e * s;
  return r * static_cast<double>(n) + v[k] * s + (any ? s : 0.0);
}

// An interval found with std::upper_bound: the index is not
// differentiated, the interpolation is.
[[grad]] double interp(const std::vector<double> &xs,
                       const std::vector<double> &ys, double t) {
  std::size_t i =
      std::distance(xs.begin(), std::upper_bound(xs.begin(), xs.end(), t));
  double w = (t - xs[i - 1]) / (xs[i] - xs[i - 1]);
  return ys[i - 1] * (1 - w) + ys[i] * w;
}

[[grad::forward]] double fwd(double x, double y) {
  double t = x * y;
  double r = scaled(std::move(t), x) + t;
  double prev = x;
  double old = std::exchange(prev, y * x);
  const double w[3] = {x, y, x * y};
  auto big = [](double e) { return e > 1.0; };
  long n = std::count_if(w, w + 3, big);
  // (A constant given to `double &&`: a zero tangent.)
  double was = std::exchange(prev, 1.5);
  return r + old * prev * static_cast<double>(n) + was * prev;
}

[[grad::hessian]] double curved(double a, double b) {
  double t = a * b;
  double r = twice(std::move(t), a) + scaled(a * a, b);
  const double w[3] = {a, b, a * b};
  long n = std::count_if(w, w + 3, [](double e) { return e > 0.5; });
  double prev = a * a;
  double old = std::exchange(prev, b * t);
  double was = std::exchange(prev, 0.5);
  return r * static_cast<double>(n + 1) + old * prev + was * was * a;
}

// Two seeds in one reverse sweep.
[[grad("lanes=2")]] double lanes(double x, double y) {
  double t = x * y;
  double r = scaled(std::move(t), x) + t + twice(x * x, y);
  auto big = [](double e) { return e > 1.0; };
  const double w[3] = {x, y, x * y};
  long n = std::count_if(w, w + 3, big);
  double prev = x;
  double old = std::exchange(prev, y * x);
  double was = std::exchange(prev, 2.0);
  return r * static_cast<double>(n + 1) + old * prev + was * x;
}

int main() {
  gradcheck::check_grad("moves", moves, moves_pullback, 1.3, 0.7);
  // CHECK: ok moves.d1
  gradcheck::check_grad("overwrites", overwrites, overwrites_pullback, 0.4);
  // CHECK: ok overwrites.d0
  gradcheck::check_grad("overwritesObject", overwritesObject,
                        overwritesObject_pullback, 0.4);
  // CHECK: ok overwritesObject.d0
  std::vector<double> v{0.2, 0.9, 0.4, 1.1};
  auto chosenOf = [&](double s) { return chosen(v, s); };
  std::vector<double> dv(4);
  double ds = 0;
  chosen_pullback(v, 2.0, 1.0, &dv, &ds);
  // n = 2, k = 1: r = s (0.04 + 0.81 + 0.16 + 1.21) = 2.22 s.
  gradcheck::expect("chosen.ds", ds, 2.22 * 2 + 0.9, 1e-12);
  gradcheck::expect("chosen.dv0", dv[0], 2 * 2 * 0.2 * 2.0, 1e-12);
  gradcheck::expect("chosen.dv1", dv[1], 2 * 2 * 0.9 * 2.0 + 2.0, 1e-12);
  gradcheck::expect("chosen.fd", ds,
                    (chosenOf(2.0 + 1e-6) - chosenOf(2.0 - 1e-6)) / 2e-6, 1e-7);
  // CHECK: ok chosen.ds
  // CHECK: ok chosen.dv0
  // CHECK: ok chosen.dv1
  // CHECK: ok chosen.fd
  std::vector<double> xs{0, 1, 2, 3}, ys{1, 3, 2, 5};
  gradcheck::check_grad(
      "interp",
      [&](double t, double y2) {
        std::vector<double> Y = ys;
        Y[2] = y2;
        return interp(xs, Y, t);
      },
      [&](double t, double y2, double d, double *dt, double *dy2) {
        std::vector<double> Y = ys, DX(4), DY(4);
        Y[2] = y2;
        interp_pullback(xs, Y, t, d, &DX, &DY, dt);
        *dy2 += DY[2];
      },
      1.25, 2.0);
  // CHECK: ok interp.d1
  using V = std::vector<double>;
  fwdcheck::each("fwd", [](const V &Y) { return fwd(Y[0], Y[1]); },
                 [](const V &Y, const V &D) {
                   return fwd_pushforward(Y[0], Y[1], D[0], D[1]).der[0];
                 },
                 V{0.7, 1.6});
  // CHECK: ok fwd.v1
  gradcheck::check_hvp("curved", curved_hvp, curved_pullback, 0.8, 1.2);
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
