// Early returns in functions that also write through a pointer or reference
// parameter: differentiated directly ([[grad]]) and through the split halves
// that a caller uses (the forward half returns the value of whichever
// return was taken). Was an internal error (fuzz, gen.py memory features).
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
#include "vecgrad.h"
#include <cmath>

[[grad]] double f(double x, double *out) {
  if (x > 0)
    return x;
  return 2 * x;
}

[[grad]] double g(double x, double &y) {
  y = y * x;
  if (x > 0.5)
    return std::sin(x) * y;
  y += x;
  return x * y;
}

// A helper with a return inside a loop and an out-parameter.
static double firstAbove(const double *v, int n, double t, double *acc) {
  for (int i = 0; i < n; ++i) {
    *acc += v[i] * v[i];
    if (v[i] > t)
      return v[i] * *acc;
  }
  *acc *= 2;
  return -*acc;
}

[[grad]] double h(const double *v, int n, double t) {
  double acc = t;
  double r = firstAbove(v, n, t, &acc);
  double r2 = firstAbove(v + 1, n - 1, 10.0, &acc);
  return r * acc + r2;
}

int main() {
  {
    double out = 0, dout = 0, dx = 0;
    f_pullback(0.5, &out, 1.0, &dx, &dout);
    gradcheck::expect("f.pos", dx, 1.0);
    dx = 0;
    f_pullback(-0.5, &out, 1.0, &dx, &dout);
    gradcheck::expect("f.neg", dx, 2.0);
  }
  // CHECK: ok f.pos
  // CHECK: ok f.neg
  for (double x0 : {0.8, 0.3}) {
    // d(ret + 0.7 * y_out)/d(x, y_in)
    double y = 1.3, dy = 0.7, dx = 0;
    g_pullback(x0, y, 1.0, &dx, &dy);
    vecgrad::check("g", [](const std::vector<double> &Y) {
      double yy = Y[1];
      double r = g(Y[0], yy);
      return r + 0.7 * yy;
    }, {x0, 1.3}, {dx, dy});
  }
  // CHECK: ok g.d0
  // CHECK: ok g.d1
  // CHECK: ok g.d0
  // CHECK: ok g.d1
  for (double t : {0.2, 5.0}) {
    const int N = 5;
    auto X = vecgrad::sample(N, 3);
    X.push_back(t);
    std::vector<double> D(N, 0.0);
    double Dt = 0;
    h_pullback(X.data(), N, t, 1.0, D.data(), &Dt);
    D.push_back(Dt);
    vecgrad::check("h", [&](const std::vector<double> &Y) {
      return h(Y.data(), N, Y[N]);
    }, X, D);
  }
  // CHECK: ok h.d0
  // CHECK: ok h.d5
  // CHECK: ok h.d0
  // CHECK: ok h.d5
  return gradcheck::failures();
}
