// [[grad]] on a function template: NAME_pullback is a function template
// with the same template parameters; every specialization the code uses
// (called directly, with deduced or explicit arguments, or from another
// [[grad]] function) is generated once from the matching instantiation.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>
#include <grad/grad.h>
#include <vector>

using gradcheck::check_grad;
using gradcheck::expect;

template <class T> [[grad]] T poly(T x, T y) {
  T z = x * x * y + std::sin(x);
  return z / (T(1) + y * y);
}

// Recursive, with if constexpr: block<N> calls block<N - 1>.
template <int N> [[grad]] double block(double x) {
  if constexpr (N == 0)
    return x;
  else {
    double h = block<N - 1>(x);
    return h + 0.1 * std::tanh((1 + N % 7) * h + 0.5);
  }
}

// A container of T, a non-dependent int and a wrt list.
template <class T> [[grad("v")]] T weighted(const std::vector<T> &v, T w, int k) {
  T s = 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    s += (i % k == 0 ? w : T(1)) * v[i] * v[i];
  return s;
}

// Two template parameters, one of them a value.
template <class T, int P> [[grad]] T powsum(T x, T y) {
  T r = 1;
  for (int i = 0; i < P; ++i)
    r *= x + y;
  return r;
}

// A parameter of a template type that may be an integer: [[grad::nodiff]].
template <class T, class I> [[grad]] T scaled(T x, [[grad::nodiff]] I k) {
  return k * x * x;
}

// An explicit specialization is an ordinary function: NAME_pullback is not
// a template.
template <class T> T cube(T x) { return x * x; }
template <> [[grad]] double cube<double>(double x) { return x * x * x; }

namespace nn {
template <class T> [[grad]] T act(T x) { return std::tanh(x) * x; }
} // namespace nn

[[grad]] double user(double x, double y) {
  return poly(x, y) + block<6>(x) + powsum<double, 3>(x, y) + nn::act(y);
}

int main() {
  // CHECK: ok poly.d0
  // CHECK: ok poly.d1
  check_grad("poly", poly<double>, poly_pullback<double>, 0.7, -1.3);
  // float: deduced T = float, float adjoints.
  float fx = 0, fy = 0;
  poly_pullback(0.7f, -1.3f, 1.0f, &fx, &fy);
  double dx = 0, dy = 0;
  poly_pullback(0.7, -1.3, 1.0, &dx, &dy);
  // CHECK: ok poly<float>.dx
  expect("poly<float>.dx", fx, dx, 1e-5);
  // CHECK: ok poly<float>.dy
  expect("poly<float>.dy", fy, dy, 1e-5);
  // CHECK: ok block<5>.d0
  check_grad("block<5>", block<5>, block_pullback<5>, 0.3);
  // CHECK: ok block<40>.d0
  check_grad("block<40>", block<40>, block_pullback<40>, -0.4);
  // CHECK: ok powsum.d0
  // CHECK: ok powsum.d1
  check_grad("powsum", powsum<double, 3>, powsum_pullback<double, 3>, 0.4, 0.9);
  double sx = 0;
  scaled_pullback(1.5, 3, 1.0, &sx);
  // CHECK: ok scaled.dx
  expect("scaled.dx", sx, 9.0);
  // CHECK: ok cube.d0
  check_grad("cube", cube<double>, cube_pullback, 1.7);
  // CHECK: ok act.d0
  check_grad("act", nn::act<double>, nn::act_pullback<double>, 0.8);
  // CHECK: ok user.d0
  // CHECK: ok user.d1
  check_grad("user", user, user_pullback, 0.6, 0.2);

  std::vector<double> v{0.5, -1.5, 2.0, 0.25}, dv(4);
  weighted_pullback(v, 3.0, 2, 1.0, &dv);
  for (int i = 0; i < 4; ++i) {
    auto f = [&](double h) {
      auto w = v;
      w[i] += h;
      return weighted(w, 3.0, 2);
    };
    double h = 1e-4, want = (f(h) - f(-h)) / (2 * h);
    // CHECK-COUNT-4: ok weighted.dv
    expect("weighted.dv", dv[i], want);
  }
  return gradcheck::failures();
}
