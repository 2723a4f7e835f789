// Functions returning `const double &` (one of their arguments), used as
// values: differentiated as if they returned by value, also when called
// from another function (split halves return the value, not a reference
// to their own copy), and `[[grad]]` on one seeds its pullback by value.
// A const reference bound to such a result is a value when what it may
// refer to cannot change (test/diagnostics/reference-to-result.cpp: when it
// can, an error).
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
#include "vecgrad.h"
#include <algorithm>
#include <cmath>
#include <vector>

static const double &pick(const double &a, const double &b) {
  return a > b ? a : b;
}

[[grad]] const double &larger(const double &a, const double &b) {
  return a < b ? b : a;
}

[[grad]] double f(double x, double y) {
  std::vector<double> v{x * y, x + y, std::sin(x)};
  double s = pick(x * x, y) * v[1] + v[2] * pick(v[0], v[2]);
  return s + larger(s, x) * std::max(v[0], y);
}

// A const reference bound to what std::max / std::min return when their
// arguments are const (or temporaries), or bound to a temporary, is a value.
[[grad]] double refs(const double *a, int n, double x) {
  double s = 0;
  for (int i = 0; i + 1 < n; ++i) {
    const double &m = std::max(a[i], a[i + 1]);
    const double &t = x * a[i];
    const double &u = std::min(a[i + 1], a[i]);
    s += m * m + t * u;
  }
  return s;
}

int main() {
  for (double X0 : {0.4, 1.3}) {
    double Dx = 0, Dy = 0;
    f_pullback(X0, 0.9, 1.0, &Dx, &Dy);
    vecgrad::check("f", [](const std::vector<double> &Y) {
      return f(Y[0], Y[1]);
    }, {X0, 0.9}, {Dx, Dy});
  }
  // CHECK: ok f.d0
  // CHECK: ok f.d1
  // CHECK: ok f.d0
  // CHECK: ok f.d1
  double Da = 0, Db = 0;
  larger_pullback(0.3, 0.8, 2.0, &Da, &Db);
  gradcheck::expect("larger.a", Da, 0.0);
  gradcheck::expect("larger.b", Db, 2.0);
  // CHECK: ok larger.a
  // CHECK: ok larger.b
  {
    const int N = 4;
    auto X = vecgrad::sample(N + 1, 7);
    std::vector<double> D(N, 0.0);
    double Dx = 0;
    refs_pullback(X.data(), N, X[N], 1.0, D.data(), &Dx);
    D.push_back(Dx);
    // CHECK: ok refs.d0
    // CHECK: ok refs.d4
    vecgrad::check("refs", [&](const std::vector<double> &Y) {
      return refs(Y.data(), N, Y[N]);
    }, X, D);
  }
  return gradcheck::failures();
}
