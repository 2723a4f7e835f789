// A helper that writes through a parameter is differentiated in two halves
// when called; the shadow of a local vector is sized as the vector grows in
// the forward sweep, so the forward half passes the final size in its frame
// and the reverse half sizes its shadow from it (was an empty shadow: a
// null dereference or an out-of-bounds write, found by compiling grad-dump
// output).
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
#include "vecgrad.h"
#include <cmath>
#include <vector>

static void fill(std::vector<double> &v, double x) {
  for (double &e : v)
    e = x;
}

// Writes v (in/out) and grows a local vector.
static double helper(std::vector<double> &v, double x) {
  std::vector<double> t(3);
  fill(t, x * x);
  double s = 0;
  for (int i = 0; i < 3; ++i) {
    s += t[i] * v[i];
    v[i] *= x;
  }
  t.push_back(s);
  t.push_back(std::sin(s));
  s += t[3] * t[0] + t[4];
  return s;
}

// Same with an out-pointer and a vector resized by a count.
static void scatter(const double *p, int n, double *out) {
  std::vector<double> w;
  for (int i = 0; i < n; ++i)
    w.push_back(p[i] * p[i]);
  w.resize(n + 1, 0.5);
  for (int i = 0; i <= n; ++i)
    out[i % 2] += w[i] * p[i % n];
}

[[grad]] double outer(const double *p, double x) {
  std::vector<double> v(p, p + 3);
  double r = helper(v, x);
  double o[2] = {0, 0};
  scatter(p, 3, o);
  return r + v[0] * v[1] + o[0] * o[1];
}

int main() {
  auto X = vecgrad::sample(4, 5);
  std::vector<double> D(3, 0.0);
  double Dx = 0;
  outer_pullback(X.data(), X[3], 1.0, D.data(), &Dx);
  D.push_back(Dx);
  // CHECK: ok outer.d0
  // CHECK: ok outer.d3
  vecgrad::check("outer", [](const std::vector<double> &Y) {
    return outer(Y.data(), Y[3]);
  }, X, D);
  return gradcheck::failures();
}
