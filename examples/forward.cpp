// Forward mode and second derivatives: a directional derivative from the
// generated pushforward, and the Hessian of Rosenbrock's function from the
// generated Hessian-vector products, next to central finite differences.
//
//   clang++-19 -std=c++20 -O2 -fplugin=build/lib/ClangGrad.so \
//       -Iruntime/include examples/forward.cpp -o forward && ./forward
#include <grad/grad.h> // grad::hessian (pushforwards need no include)

#include <cmath>
#include <cstdio>

// The plugin declares
//   ::grad::dual<double> energy_pushforward(double x, double y, double t_x,
//                                           double t_y);
// .val is energy(x, y), .der[0] its derivative along (t_x, t_y).
[[grad::forward]] double energy(double x, double y) {
  double r = std::sqrt(x * x + y * y + 1);
  return std::exp(-r) * std::cos(3 * x) + 0.5 * y * y;
}

// [[grad::hessian]] declares rosen_pullback (as [[grad]] does) and
//   void rosen_hvp(const double *x, int n, const double *v_x, double *d_x);
// which adds H(x) v into d_x.
[[grad::hessian]] double rosen(const double *x, int n) {
  double s = 0;
  for (int i = 0; i + 1 < n; ++i) {
    double a = x[i + 1] - x[i] * x[i];
    double b = 1 - x[i];
    s += 100 * a * a + b * b;
  }
  return s;
}

static int failures = 0;
static void report(const char *name, double got, double fd, double tol) {
  bool ok = std::fabs(got - fd) <= tol * (1 + std::fabs(fd));
  std::printf("%s = %.8f (finite differences: %.8f)%s\n", name, got, fd,
              ok ? "" : "  MISMATCH");
  failures += !ok;
}

int main() {
  // Derivative of energy at (0.3, -0.8) along (1, 2).
  double x = 0.3, y = -0.8, tx = 1, ty = 2, h = 1e-6;
  auto d = energy_pushforward(x, y, tx, ty);
  double fd = (energy(x + h * tx, y + h * ty) - energy(x - h * tx, y - h * ty)) /
              (2 * h);
  report("d energy along (1, 2)", d.der[0], fd, 1e-6);

  // The 3 x 3 Hessian of Rosenbrock from three HVPs, against differences
  // of the gradient (the pullback).
  const int n = 3;
  double p[n] = {0.5, -0.2, 1.1}, H[n * n];
  grad::hessian(n, H, [&](const double *v, double *out) {
    rosen_hvp(p, n, v, out);
  });
  for (int j = 0; j < n; ++j) {
    double gp[n] = {}, gm[n] = {}, q[n];
    for (int k = 0; k < n; ++k)
      q[k] = p[k] + (k == j ? 1e-5 : 0);
    rosen_pullback(q, n, 1.0, gp);
    for (int k = 0; k < n; ++k)
      q[k] = p[k] - (k == j ? 1e-5 : 0);
    rosen_pullback(q, n, 1.0, gm);
    for (int i = 0; i < n; ++i) {
      char name[32];
      std::snprintf(name, sizeof name, "H[%d][%d]", i, j);
      report(name, H[i * n + j], (gp[i] - gm[i]) / 2e-5, 1e-5);
    }
  }
  return failures != 0;
}
