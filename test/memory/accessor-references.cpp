// A const reference to what a member accessor returns (`const double &r =
// t.at(0, 0)`, `m(1, 0)`) refers into the object: a write to that element
// afterwards is seen through the reference. It was taken for a copy made
// at the declaration (the accessor's object was not counted among the
// call's arguments): the gradient through r went to the element's old
// value (fuzz seed 49110 of all,memory,vectors,maps,shaped,owners,rowptrs,
// loops: derivatives 0). Values against finite differences.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "vecgrad.h"
#include <cmath>

struct M2 {
  int n;
  double a[8];
  double &at(int i, int j) { return a[i * n + j]; }
  double &operator()(int i, int j) { return a[i * n + j]; }
};

[[grad]] double f(double x, const double *p) {
  M2 t{2, {}};
  const double &r = t.at(0, 0);
  const double &s = t(1, 0);
  t.at(0, 0) = p[1];
  t(1, 0) = x * p[0];
  double u = r * x + std::sin(s);
  t.at(0, 0) *= 2;
  return u + r;
}

// The object is only read while the reference lives: a copy is fine, and
// the same values come out.
[[grad]] double g(double x, const double *p) {
  M2 t{2, {}};
  t.at(0, 1) = p[0] * x;
  const double &r = t.at(0, 1);
  return r * r + p[1];
}

int main() {
  std::vector<double> X = {0.7, 0.4, -1.3};
  for (auto [Name, F, Pb] :
       {std::tuple{"f", &f, &f_pullback}, std::tuple{"g", &g, &g_pullback}}) {
    double Dx = 0, Dp[2] = {0, 0};
    Pb(X[0], X.data() + 1, 1.0, &Dx, Dp);
    vecgrad::check(Name, [F = F](const std::vector<double> &Y) {
      return F(Y[0], Y.data() + 1);
    }, X, {Dx, Dp[0], Dp[1]});
  }
  // CHECK-COUNT-3: ok f.d{{[0-2]}}
  // CHECK-COUNT-3: ok g.d{{[0-2]}}
  return gradcheck::failures();
}
