// Lambdas passed to function templates in forward mode, Hessian-vector
// products and vector pullbacks (issue 51, point 1): the callee's view
// (driver/CallableViews.h) is an ordinary function of the lambda's
// captures, pushed forward like any helper. Reverse mode:
// test/calls/lambdas-passed.cpp.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "fwdcheck.h"
#include <cmath>
#include <vector>

using V = std::vector<double>;

template <class F>
void euler(F f, std::vector<double> &y, int steps, double h) {
  std::vector<double> d(y.size());
  for (int s = 0; s < steps; ++s) {
    f(y, d);
    for (std::size_t i = 0; i < y.size(); ++i)
      y[i] += h * d[i];
  }
}

template <class F> double trapezoid(const F &f, double a, double b, int n) {
  double h = (b - a) / n, s = 0.5 * (f(a) + f(b));
  for (int i = 1; i < n; ++i)
    s += f(a + i * h);
  return s * h;
}

// Passed on: the view of `moment` passes its closure to trapezoid's.
template <class G> double moment(G g, double b) {
  return trapezoid(g, 0.0, b, 10) * g(b);
}

// A predator-prey model, a copied rate, a callable passed on.
[[grad::forward]] double model(double a, double b, double c) {
  std::vector<double> y{1.0, 0.5};
  auto rhs = [&](const std::vector<double> &s, std::vector<double> &d) {
    d[0] = a * s[0] - b * s[0] * s[1];
    d[1] = b * s[0] * s[1] - c * s[1];
  };
  euler(rhs, y, 12, 0.05);
  double r = a * c;
  double q = trapezoid([=](double t) { return std::exp(-r * t); }, 0.0, 1.0,
                       8) +
             trapezoid([&](auto t) { return a * t; }, 0.0, c, 4);
  return y[0] + y[1] * q + moment([&](double t) { return b * t * t; }, c);
}

[[grad::hessian]] double curved(double a, double b) {
  double k = a * b;
  return trapezoid([&](double t) { return std::sin(k * t) * a; }, 0.0, b, 12) +
         trapezoid([&](auto t) { return t * t * k; }, 0.0, a, 4);
}

// Two outputs, two lanes: the Jacobian in one call.
template <class F> void fill2(F f, const double *x, double *out) {
  for (int i = 0; i < 2; ++i)
    out[i] = f(x[i], i);
}

[[grad("lanes=2")]] void resid(const double *p, const double *x, double *err) {
  auto g = [&](double v, int i) { return p[0] * std::sin(v) + p[1] * v * i; };
  fill2(g, x, err);
}

int main() {
  V X{0.9, 0.4, 0.7};
  fwdcheck::each("model", [](const V &Y) { return model(Y[0], Y[1], Y[2]); },
                 [](const V &Y, const V &D) {
                   return model_pushforward(Y[0], Y[1], Y[2], D[0], D[1],
                                            D[2])
                       .der[0];
                 },
                 X);
  // CHECK: ok model.v3
  double a = 0.8, b = 1.3;
  for (int k = 0; k < 2; ++k) {
    double Va = k == 0, Vb = k == 1, E = 1e-5, H[2] = {}, P[2] = {}, M[2] = {};
    curved_hvp(a, b, Va, Vb, &H[0], &H[1]);
    curved_pullback(a + E * Va, b + E * Vb, 1.0, &P[0], &P[1]);
    curved_pullback(a - E * Va, b - E * Vb, 1.0, &M[0], &M[1]);
    for (int i = 0; i < 2; ++i)
      gradcheck::expect("curved.h" + std::to_string(k) + std::to_string(i),
                        H[i], (P[i] - M[i]) / (2 * E), 1e-6);
  }
  // CHECK: ok curved.h11
  double p[2] = {1.5, 0.7}, x[2] = {0.3, 1.1}, err[2];
  grad::lanes<double, 2> dp[2] = {}, dx[2] = {},
                         derr[2] = {{{1, 0}}, {{0, 1}}};
  resid_pullback(p, x, err, dp, dx, derr);
  // d err_i / d p, d err_i / d x in closed form.
  double Jp[2][2] = {{std::sin(x[0]), 0}, {std::sin(x[1]), x[1]}};
  double Jx[2][2] = {{p[0] * std::cos(x[0]), 0},
                     {0, p[0] * std::cos(x[1]) + p[1]}};
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      std::string ij = std::to_string(i) + std::to_string(j);
      gradcheck::expect("resid.p" + ij, dp[j].der[i], Jp[i][j], 1e-12);
      gradcheck::expect("resid.x" + ij, dx[j].der[i], Jx[i][j], 1e-12);
    }
  // CHECK: ok resid.x11
  return gradcheck::failures();
}
