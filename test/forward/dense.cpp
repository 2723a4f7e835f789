// Dense second derivatives and Jacobians from the generated functions with
// the runtime helpers of <grad/jacobian.h>: the Hessian of Rosenbrock and
// of log-sum-exp from n HVPs each, and the Jacobian of a residual with
// out-parameters by pushforwards (columns) and by pullbacks (rows), which
// must agree with each other and with differences.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "fwdcheck.h"
#include <grad/grad.h>
#include <cmath>
#include <vector>

[[grad::hessian]] double rosen(const double *x, int n) {
  double s = 0;
  for (int i = 0; i + 1 < n; ++i) {
    double a = x[i + 1] - x[i] * x[i];
    double b = 1 - x[i];
    s += 100 * a * a + b * b;
  }
  return s;
}

// A reprojection-like residual: 3 inputs, 4 outputs through err.
[[grad, grad::forward]] void resid(const double *x, double *err) {
  double r = std::sqrt(x[0] * x[0] + x[1] * x[1] + 1);
  err[0] = x[0] / r;
  err[1] = x[1] / r;
  err[2] = std::atan2(x[1], x[0]) * x[2];
  err[3] = r * std::exp(-x[2]);
}

int main() {
  {
    const int n = 4;
    double x[n] = {0.3, -0.8, 1.2, 0.5}, H[n * n];
    grad::hessian(n, H, [&](const double *v, double *d) {
      rosen_hvp(x, n, v, d);
    });
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        double want = 0;
        if (i == j) {
          if (i + 1 < n)
            want += 1200 * x[i] * x[i] - 400 * x[i + 1] + 2;
          if (i > 0)
            want += 200;
        } else if (j == i + 1 || i == j + 1) {
          want = -400 * x[std::min(i, j)];
        }
        gradcheck::expect("rosen.H" + std::to_string(i) + std::to_string(j),
                          H[i * n + j], want, 1e-12);
      }
  }
  {
    double x[3] = {0.4, -0.7, 0.9}, JF[12], JR[12];
    grad::jacobian_forward(3, 4, JF, [&](const double *t, double *u) {
      double e[4];
      resid_pushforward(x, e, t, u);
    });
    grad::jacobian_reverse(3, 4, JR, [&](const double *w, double *d) {
      double e[4], dw[4] = {w[0], w[1], w[2], w[3]};
      resid_pullback(x, e, d, dw);
    });
    for (int i = 0; i < 4; ++i)
      for (int k = 0; k < 3; ++k) {
        std::vector<double> X(x, x + 3), Dir(3, 0.0);
        Dir[k] = 1;
        double fd = fwdcheck::fdAlong(
            [i](const std::vector<double> &Y) {
              double e[4];
              resid(Y.data(), e);
              return e[i];
            },
            X, Dir);
        std::string N = "J" + std::to_string(i) + std::to_string(k);
        gradcheck::expect(N + ".fwd", JF[i * 3 + k], fd);
        gradcheck::expect(N + ".rev", JR[i * 3 + k], JF[i * 3 + k], 1e-12);
      }
  }
  return gradcheck::failures();
}
// CHECK: ok rosen.H00
// CHECK: ok rosen.H33
// CHECK: ok J00.fwd
// CHECK: ok J32.rev
