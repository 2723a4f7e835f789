// A std::array or std::vector a helper returns, passed straight on to
// another helper (`dot(cross(a, b), c)`, `total(squares(v))`, by const
// reference or by value, nested, in a loop, to a helper that writes
// through an out-parameter): kept in a local, its adjoint a zeroed local
// (for a vector, zeros of its size) that the outer
// call's pullback fills and the inner call's pullback reads (it was "cannot
// differentiate expression cross(a, b), whose memory the plugin cannot
// track"). Values against finite differences; the generated code.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s --function=triple %dflags | FileCheck %s --check-prefix=DUMP
// RUN: %dump %s --function=vectors %dflags | FileCheck %s --check-prefix=DUMPV
#include "vecgrad.h"
#include <array>
#include <cmath>
#include <vector>

using Vec = std::array<double, 3>;

static Vec cross(const Vec &a, const Vec &b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
          a[0] * b[1] - a[1] * b[0]};
}
static double dot(const Vec &a, const Vec &b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static double norm(Vec v) { return std::sqrt(dot(v, v)); }

// DUMP-LABEL: void triple_pullback(
// DUMP: _t0 = ::cross(a, b);
// DUMP-NEXT: std::array<double, 3> _g0 = {};
// DUMP-NEXT: ::dot_pullback(_t0, c, d_ret, &_g0, d_c);
// DUMP-NEXT: ::cross_pullback(a, b, _g0, d_a, d_b);
[[grad]] double triple(const Vec &a, const Vec &b, const Vec &c) {
  return dot(cross(a, b), c);
}

[[grad]] double twice(const Vec &a, const Vec &b, const Vec &c) {
  return dot(cross(a, b), cross(b, c)) + norm(cross(c, a));
}

[[grad]] double chain(const Vec &a, const Vec &b, int n) {
  Vec v = a;
  double s = 0;
  for (int i = 0; i < n; ++i) {
    s += std::tanh(dot(cross(v, b), a));
    v = cross(v, b);
    v[i % 3] += 0.5;
  }
  return s + norm(cross(v, a));
}

static std::vector<double> squares(const std::vector<double> &v) {
  std::vector<double> r(v.size());
  for (std::size_t i = 0; i < v.size(); ++i)
    r[i] = v[i] * v[i];
  return r;
}
static double total(const std::vector<double> &v) {
  double s = 0;
  for (double e : v)
    s += std::sin(e);
  return s;
}
static void addto(const std::vector<double> &v, double *out) {
  for (double e : v)
    *out += std::cos(e);
}
// DUMPV-LABEL: void vectors_pullback(
// DUMPV: std::vector<double> _g{{[0-9]+}} = ::grad::detail::zero_like(_t{{[0-9]+}});
[[grad]] double vectors(const std::vector<double> &v) {
  double s = total(squares(v));
  for (int k = 0; k < 2; ++k)
    addto(squares(v), &s);
  return s;
}

static Vec part(const std::vector<double> &X, int K) {
  return {X[3 * K], X[3 * K + 1], X[3 * K + 2]};
}

int main() {
  std::vector<double> X = {0.3, -1.1, 0.7, 1.2, 0.4, -0.6, -0.2, 0.9, 1.5};
  Vec a = part(X, 0), b = part(X, 1), c = part(X, 2);
  auto Flat = [](const Vec &u, const Vec &v, const Vec &w) {
    return std::vector<double>{u[0], u[1], u[2], v[0], v[1], v[2],
                               w[0], w[1], w[2]};
  };
  {
    Vec da{}, db{}, dc{};
    triple_pullback(a, b, c, 1.0, &da, &db, &dc);
    // CHECK-COUNT-9: ok triple.d{{[0-8]}}
    vecgrad::check("triple", [&](const std::vector<double> &Y) {
      return triple(part(Y, 0), part(Y, 1), part(Y, 2));
    }, X, Flat(da, db, dc));
  }
  {
    Vec da{}, db{}, dc{};
    twice_pullback(a, b, c, 1.0, &da, &db, &dc);
    // CHECK-COUNT-9: ok twice.d{{[0-8]}}
    vecgrad::check("twice", [&](const std::vector<double> &Y) {
      return twice(part(Y, 0), part(Y, 1), part(Y, 2));
    }, X, Flat(da, db, dc));
  }
  {
    Vec da{}, db{}, dz{};
    chain_pullback(a, b, 4, 1.0, &da, &db);
    std::vector<double> X6(X.begin(), X.begin() + 6);
    std::vector<double> G = Flat(da, db, dz);
    G.resize(6);
    // CHECK-COUNT-6: ok chain.d{{[0-5]}}
    vecgrad::check("chain", [&](const std::vector<double> &Y) {
      return chain(part(Y, 0), part(Y, 1), 4);
    }, X6, G);
  }
  {
    std::vector<double> V = {0.3, -0.8, 1.1}, Dv(3, 0.0);
    vectors_pullback(V, 1.0, &Dv);
    // CHECK-COUNT-3: ok vectors.d{{[0-2]}}
    vecgrad::check("vectors", [](const std::vector<double> &Y) {
      return vectors(Y);
    }, V, Dv);
  }
  return gradcheck::failures();
}
