// Vector pullbacks: [[grad("lanes=N")]] declares, next to the scalar
// f_pullback, an overload whose seed and adjoints are grad::lanes<T, N>:
// N seeds in one reverse sweep (the forward sweep runs once). Lane k of
// every adjoint is what the scalar pullback gives with lane k of the seeds
// (docs/abi.md). Written the way numerical C++ is: helpers with
// out-parameters, pointer walks over rows, scratch memory (new[],
// std::vector, std::array), loops with a data-dependent trip count, a
// pointer re-seated between variables, an early return. Each lane is
// checked against central differences, and against the scalar pullback.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "vecgrad.h"
#include <array>
#include <cmath>
#include <cstdio>

using V = std::vector<double>;
template <std::size_t N> using L = grad::lanes<double, N>;

static double sqdist(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += (a[i] - b[i]) * (a[i] - b[i]);
  return s;
}

// A chain of springs: rows of 2 coordinates walked by pointer.
// DUMP: void energy_pullback(const double *x, int n, double k, ::grad::lanes<double, 3UL> d_ret, ::grad::lanes<double, 3UL> *d_x, ::grad::lanes<double, 3UL> *d_k);
[[grad("lanes=3")]] double energy(const double *x, int n, double k) {
  double e = 0;
  const double *row = x;
  for (int i = 0; i + 1 < n; ++i, row += 2) {
    double d = std::sqrt(sqdist(row, row + 2, 2) + 1e-3);
    e += k * (d - 1) * (d - 1) + 0.1 * std::sin(row[0] * row[3]);
  }
  return e / (1 + k * k);
}

// C-style helpers writing through out-parameters; both residuals seeded at
// once give the 2 x 6 Jacobian.
static void rotate(const double *r, const double *p, double *out) {
  double t = std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
  double c = std::cos(t), s = std::sin(t);
  out[0] = c * p[0] - s * p[1] + r[2] * p[2];
  out[1] = s * p[0] + c * p[1] - r[0] * p[2];
  out[2] = p[2] + r[1] * p[0];
}
static void project(const double *q, double *uv) {
  uv[0] = q[0] / q[2];
  uv[1] = q[1] / q[2];
}
// DUMP: void reproj_pullback(const double *r, const double *p, const double *obs, double *err, ::grad::lanes<double, 2UL> *d_r, ::grad::lanes<double, 2UL> *d_p, ::grad::lanes<double, 2UL> *d_err);
// The reverse halves of the helpers get vector forms of their own, taking
// only the adjoints' lanes:
// DUMP: static void _grad_rotate_rev_0_lanes2_001110(const double *r, const double *p, ::grad::detail::stack &_stack, ::grad::lanes<double, 2UL> *d_r, ::grad::lanes<double, 2UL> *d_p, ::grad::lanes<double, 2UL> *d_out);
[[grad("r, p, err", "lanes=2")]] void reproj(const double *r, const double *p,
                                             const double *obs, double *err) {
  double q[3], uv[2];
  rotate(r, p, q);
  project(q, uv);
  for (int i = 0; i < 2; ++i)
    err[i] = uv[i] - obs[i];
}

// A pointer re-seated between two variables, scratch memory, a loop whose
// trip count depends on the data, an early return.
// DUMP: void reseat_pullback(double x, double z, double w, ::grad::lanes<double, 2UL> d_ret, ::grad::lanes<double, 2UL> *d_x, ::grad::lanes<double, 2UL> *d_z, ::grad::lanes<double, 2UL> *d_w);
[[grad("lanes=2")]] double reseat(double x, double z, double w) {
  if (x > 10)
    return x;
  double *p = &z;
  *p = std::sin(p[0] * x);
  p = &w;
  *p *= x;
  double *tmp = new double[3];
  for (int i = 0; i < 3; ++i)
    tmp[i] = (i + 1) * z + w;
  double s = 0;
  int steps = 0;
  while (s < 2 && steps < 20) {
    s += std::exp(-tmp[steps % 3] * tmp[steps % 3]) + 0.1;
    ++steps;
  }
  double r = s * (*p) + tmp[2];
  delete[] tmp;
  return r;
}

// std::array values, also returned by a helper: their adjoints are
// std::arrays of lanes.
static std::array<double, 3> cross(const std::array<double, 3> &a,
                                   const std::array<double, 3> &b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
          a[0] * b[1] - a[1] * b[0]};
}
// DUMP: std::array<grad::lanes<double, 2>, 3> _d_a = {};
[[grad("lanes=2")]] double arrays(double x, double y) {
  std::array<double, 3> a{x, y, x * y}, b{};
  for (int i = 0; i < 3; ++i)
    b[i] = std::sin(a[i]) + a[(i + 1) % 3];
  std::array<double, 3> c = cross(a, b);
  return c[0] * c[1] + c[2];
}

// A callee with a user-written pullback: its vector form is built from the
// user's body.
static double softplus(double x) { return std::log1p(std::exp(x)); }
void softplus_pullback(double x, double d_ret, double *d_x) {
  *d_x += d_ret / (1 + std::exp(-x));
}
// DUMP: void user_pullback(double x, double y, ::grad::lanes<double, 2UL> d_ret, ::grad::lanes<double, 2UL> *d_x, ::grad::lanes<double, 2UL> *d_y)
[[grad("lanes=2")]] double user(double x, double y) {
  return softplus(x * y) * y;
}

// A std::vector scratch: its adjoint is a std::vector of lanes.
// DUMP: void scratch_pullback(const double *x, int n, ::grad::lanes<double, 4UL> d_ret, ::grad::lanes<double, 4UL> *d_x)
// DUMP: std::vector<grad::lanes<double, 4>> _d_h = {};
[[grad("lanes=4")]] double scratch(const double *x, int n) {
  std::vector<double> h(n);
  for (int i = 0; i < n; ++i)
    h[i] = std::sin(x[i]) * x[0];
  h.push_back(x[1] * x[2]);
  double s = 0;
  for (double v : h)
    s += v * v;
  h.pop_back();
  return s + h.back();
}

int main() {
  const double Seeds[3] = {1.0, -2.0, 0.5};
  {
    const int n = 4;
    V X = vecgrad::sample(2 * n + 1, 3);
    for (double &v : X)
      v *= 1.5;
    X[2 * n] = 0.8; // k
    L<3> Dx[2 * n] = {}, Dk = {};
    energy_pullback(X.data(), n, X[2 * n], L<3>{{Seeds[0], Seeds[1], Seeds[2]}},
                    Dx, &Dk);
    for (int j = 0; j < 3; ++j) {
      V G(2 * n + 1);
      for (int i = 0; i < 2 * n; ++i)
        G[i] = Dx[i].der[j];
      G[2 * n] = Dk.der[j];
      vecgrad::check(
          "energy.lane" + std::to_string(j),
          [&](const V &Y) { return Seeds[j] * energy(Y.data(), n, Y[2 * n]); },
          X, G);
      // Lane j is the scalar pullback with seed Seeds[j], bit for bit.
      double Sx[2 * n] = {}, Sk = 0;
      energy_pullback(X.data(), n, X[2 * n], Seeds[j], Sx, &Sk);
      int Same = Sk == Dk.der[j];
      for (int i = 0; i < 2 * n; ++i)
        Same &= Sx[i] == Dx[i].der[j];
      gradcheck::expect("energy.scalar" + std::to_string(j), Same, 1, 0);
    }
  }
  // CHECK: ok energy.lane0.d0
  // CHECK: ok energy.lane2.d8
  // CHECK: ok energy.scalar2
  {
    V X = {0.3, -0.2, 0.25, 0.4, -0.7, 3.0}; // r, p
    const double Obs[2] = {0.1, -0.3};
    // Adjoints accumulate: start from 1 in every lane.
    L<2> Dr[3], Dp[3], De[2] = {{{1, 0}}, {{0, 1}}};
    for (auto *A : {Dr, Dp})
      for (int i = 0; i < 3; ++i)
        A[i] = L<2>{{1, 1}};
    double Err[2];
    reproj_pullback(X.data(), X.data() + 3, Obs, Err, Dr, Dp, De);
    for (int k = 0; k < 2; ++k) {
      V G(6);
      for (int i = 0; i < 3; ++i) {
        G[i] = Dr[i].der[k] - 1;
        G[3 + i] = Dp[i].der[k] - 1;
      }
      vecgrad::check("reproj.row" + std::to_string(k),
                     [&](const V &Y) {
                       double E[2];
                       reproj(Y.data(), Y.data() + 3, Obs, E);
                       return E[k];
                     },
                     X, G);
      gradcheck::expect("reproj.d_err" + std::to_string(k),
                        De[k].der[0] + De[k].der[1], 0, 0);
    }
    double E2[2];
    reproj(X.data(), X.data() + 3, Obs, E2);
    gradcheck::expect("reproj.value", Err[0] + 2 * Err[1],
                      E2[0] + 2 * E2[1], 1e-15);
  }
  // CHECK: ok reproj.row0.d0
  // CHECK: ok reproj.row1.d5
  // CHECK: ok reproj.d_err1
  // CHECK: ok reproj.value
  for (V X : {V{0.7, 1.3, -0.4}, V{-1.1, 0.2, 0.9}, V{11.0, 0.5, 0.5}}) {
    L<2> Dx = {}, Dz = {}, Dw = {};
    reseat_pullback(X[0], X[1], X[2], L<2>{{1, -3}}, &Dx, &Dz, &Dw);
    for (int j = 0; j < 2; ++j)
      vecgrad::check("reseat.lane" + std::to_string(j),
                     [&](const V &Y) {
                       return (j ? -3 : 1) * reseat(Y[0], Y[1], Y[2]);
                     },
                     X, V{Dx.der[j], Dz.der[j], Dw.der[j]});
  }
  // CHECK: ok reseat.lane0.d0
  // CHECK: ok reseat.lane1.d2
  {
    V X = {0.3, -0.7, 1.1, 0.5, 0.9};
    const double S4[4] = {1, 0.25, -1, 3};
    L<4> Dx[5] = {};
    scratch_pullback(X.data(), 5, L<4>{{S4[0], S4[1], S4[2], S4[3]}}, Dx);
    for (int j = 0; j < 4; ++j) {
      V G(5);
      for (int i = 0; i < 5; ++i)
        G[i] = Dx[i].der[j];
      vecgrad::check("scratch.lane" + std::to_string(j),
                     [&](const V &Y) { return S4[j] * scratch(Y.data(), 5); },
                     X, G);
    }
  }
  // CHECK: ok scratch.lane0.d0
  // CHECK: ok scratch.lane3.d4
  {
    V X = {0.4, -1.3};
    L<2> Dx = {}, Dy = {};
    user_pullback(X[0], X[1], L<2>{{2, -1}}, &Dx, &Dy);
    for (int j = 0; j < 2; ++j)
      vecgrad::check("user.lane" + std::to_string(j),
                     [&](const V &Y) { return (j ? -1 : 2) * user(Y[0], Y[1]); },
                     X, V{Dx.der[j], Dy.der[j]});
  }
  // CHECK: ok user.lane0.d0
  // CHECK: ok user.lane1.d1
  {
    V X = {0.3, 0.7};
    L<2> Dx = {}, Dy = {};
    arrays_pullback(X[0], X[1], L<2>{{1, 2}}, &Dx, &Dy);
    for (int j = 0; j < 2; ++j)
      vecgrad::check("arrays.lane" + std::to_string(j),
                     [&](const V &Y) { return (j + 1) * arrays(Y[0], Y[1]); },
                     X, V{Dx.der[j], Dy.der[j]});
  }
  // CHECK: ok arrays.lane0.d0
  // CHECK: ok arrays.lane1.d1
  return gradcheck::failures();
}
