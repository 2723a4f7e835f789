// Range-based for loops over containers and arrays of doubles, with the
// loop variable by value, by const reference (an alias of the element: its
// shadow is the element's shadow) and by non-const reference (writes the
// element), also in a helper that the caller's split derivative calls.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
#include "vecgrad.h"
#include <array>
#include <cmath>
#include <vector>

static void fill(std::vector<double> &v, double x) {
  for (double &e : v)
    e = x;
}

static double total(const std::vector<double> &v) {
  double s = 0;
  for (double e : v)
    s += e;
  return s;
}

[[grad]] double refs(std::vector<double> &v, double x) {
  for (double &e : v)
    e = std::sin(e) * x;
  double s = 0;
  for (double &e : v) {
    e *= e;
    s += e;
  }
  std::vector<double> t(3);
  fill(t, x * x);
  for (const double &e : t)
    s += e * v[0];
  s += total(t) * total(v);
  v[1] = 0; // total(v) read it: its pullback needs the old value
  return s;
}

[[grad]] double arrays(const double *p, double x) {
  double a[3] = {p[0], p[1], p[2]};
  std::array<double, 2> b{x, p[0]};
  for (double &e : a)
    e = e * e + x;
  for (auto &e : b)
    e = std::exp(e);
  double s = 0;
  for (const double &e : a)
    for (double f : b)
      s += e * f;
  return s;
}

int main() {
  {
    std::vector<double> V{0.3, 0.7, -0.2};
    std::vector<double> X = V;
    X.push_back(1.3);
    std::vector<double> Dv(3, 0.0);
    double Dx = 0;
    auto W = V;
    refs_pullback(W, 1.3, 1.0, &Dv, &Dx);
    // CHECK: ok refs.d0
    // CHECK: ok refs.d3
    vecgrad::check("refs", [](const std::vector<double> &Y) {
      std::vector<double> U(Y.begin(), Y.begin() + 3);
      return refs(U, Y[3]);
    }, X, {Dv[0], Dv[1], Dv[2], Dx});
  }
  {
    std::vector<double> X{0.4, -0.3, 0.8, 0.2};
    std::vector<double> D(3, 0.0);
    double Dx = 0;
    arrays_pullback(X.data(), X[3], 1.0, D.data(), &Dx);
    // CHECK: ok arrays.d0
    // CHECK: ok arrays.d3
    vecgrad::check("arrays", [](const std::vector<double> &Y) {
      return arrays(Y.data(), Y[3]);
    }, X, {D[0], D[1], D[2], Dx});
  }
  return gradcheck::failures();
}
