// Fitting y = a exp(-b t) + c to data: the Jacobian of the residuals from
// the model's pullback (one call per row, reverse mode) and from its
// pushforward (one call per column, forward mode), Gauss-Newton steps with
// it, then Newton-CG on the sum of squares with Hessian-vector products
// (grad::hessian). Each derivative is checked against central finite
// differences first.
//
//   clang++-19 -std=c++20 -O2 -fplugin=build/lib/ClangGrad.so \
//       -Iruntime/include examples/least-squares.cpp -o least-squares
#include <cmath>
#include <cstdio>

// The model at one point. The plugin declares
//   void model_pullback(double a, double b, double c, double t, double d_ret,
//                       double *d_a, double *d_b, double *d_c);
//   grad::dual<double> model_pushforward(double a, double b, double c,
//                       double t, double t_a, double t_b, double t_c);
[[grad("a, b, c"), grad::forward("a, b, c")]] double
model(double a, double b, double c, double t) {
  return a * std::exp(-b * t) + c;
}

// Half the sum of squared residuals; grad::hessian declares
//   void sse_pullback(..., double d_ret, double *d_a, double *d_b, double *d_c);
//   void sse_hvp(double a, double b, double c, const double *t,
//                const double *y, int n, double v_a, double v_b, double v_c,
//                double *d_a, double *d_b, double *d_c);   // d += H v
[[grad::hessian("a, b, c")]] double sse(double a, double b, double c,
                                        const double *t, const double *y,
                                        int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double r = model(a, b, c, t[i]) - y[i];
    s += 0.5 * r * r;
  }
  return s;
}

constexpr int N = 12;
static double T[N], Y[N];
static int failures = 0;

static void report(const char *name, double got, double fd) {
  bool ok = std::fabs(got - fd) <= 1e-6 * (1 + std::fabs(fd));
  failures += !ok;
  if (!ok)
    std::printf("%s = %.10f (finite differences: %.10f)  MISMATCH\n", name,
                got, fd);
}

// Solves the 3x3 system A x = r by Cramer's rule.
static void solve3(const double A[3][3], const double r[3], double x[3]) {
  auto det = [](const double M[3][3]) {
    return M[0][0] * (M[1][1] * M[2][2] - M[1][2] * M[2][1]) -
           M[0][1] * (M[1][0] * M[2][2] - M[1][2] * M[2][0]) +
           M[0][2] * (M[1][0] * M[2][1] - M[1][1] * M[2][0]);
  };
  double D = det(A);
  for (int k = 0; k < 3; ++k) {
    double M[3][3];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        M[i][j] = j == k ? r[i] : A[i][j];
    x[k] = det(M) / D;
  }
}

int main() {
  for (int i = 0; i < N; ++i) {
    T[i] = 0.25 * i;
    Y[i] = 2.5 * std::exp(-1.3 * T[i]) + 0.4 + 0.01 * std::sin(7.0 * i);
  }
  double p[3] = {1.0, 0.5, 0.0}; // a, b, c

  // Gauss-Newton: J rows by reverse mode, checked against forward mode
  // (columns) and finite differences.
  for (int it = 0; it < 10; ++it) {
    double J[N][3] = {}, r[N]; // pullbacks add to their adjoints
    for (int i = 0; i < N; ++i) {
      r[i] = model(p[0], p[1], p[2], T[i]) - Y[i];
      model_pullback(p[0], p[1], p[2], T[i], 1.0, &J[i][0], &J[i][1],
                     &J[i][2]);
    }
    if (it == 0)
      for (int i = 0; i < N; ++i)
        for (int k = 0; k < 3; ++k) {
          double e[3] = {k == 0 ? 1.0 : 0.0, k == 1 ? 1.0 : 0.0,
                         k == 2 ? 1.0 : 0.0};
          double fwd = model_pushforward(p[0], p[1], p[2], T[i], e[0], e[1],
                                         e[2]).der[0];
          double q[3] = {p[0], p[1], p[2]}, h = 1e-6;
          q[k] += h;
          double up = model(q[0], q[1], q[2], T[i]);
          q[k] -= 2 * h;
          double down = model(q[0], q[1], q[2], T[i]);
          report("J reverse", J[i][k], (up - down) / (2 * h));
          report("J forward", fwd, (up - down) / (2 * h));
        }
    double A[3][3] = {}, g[3] = {}, step[3];
    for (int i = 0; i < N; ++i)
      for (int k = 0; k < 3; ++k) {
        g[k] -= J[i][k] * r[i];
        for (int l = 0; l < 3; ++l)
          A[k][l] += J[i][k] * J[i][l];
      }
    solve3(A, g, step);
    for (int k = 0; k < 3; ++k)
      p[k] += step[k];
  }
  std::printf("Gauss-Newton: a = %.6f, b = %.6f, c = %.6f, sse = %.3e\n",
              p[0], p[1], p[2], sse(p[0], p[1], p[2], T, Y, N));

  // Newton-CG from another start: CG on H s = -g with Hessian-vector
  // products, three Newton steps.
  double q[3] = {2.0, 1.0, 0.3};
  for (int it = 0; it < 6; ++it) {
    double g[3] = {};
    sse_pullback(q[0], q[1], q[2], T, Y, N, 1.0, &g[0], &g[1], &g[2]);
    auto hvp = [&](const double v[3], double out[3]) {
      out[0] = out[1] = out[2] = 0;
      sse_hvp(q[0], q[1], q[2], T, Y, N, v[0], v[1], v[2], &out[0], &out[1],
              &out[2]);
    };
    if (it == 0) {
      // H v against the finite difference of the gradient along v.
      double v[3] = {0.3, -0.2, 0.5}, Hv[3], gp[3] = {}, gm[3] = {};
      double h = 1e-6;
      hvp(v, Hv);
      sse_pullback(q[0] + h * v[0], q[1] + h * v[1], q[2] + h * v[2], T, Y,
                   N, 1.0, &gp[0], &gp[1], &gp[2]);
      sse_pullback(q[0] - h * v[0], q[1] - h * v[1], q[2] - h * v[2], T, Y,
                   N, 1.0, &gm[0], &gm[1], &gm[2]);
      for (int k = 0; k < 3; ++k)
        report("Hv", Hv[k], (gp[k] - gm[k]) / (2 * h));
    }
    double s[3] = {0, 0, 0}, res[3] = {-g[0], -g[1], -g[2]};
    double d[3] = {res[0], res[1], res[2]};
    for (int cg = 0; cg < 3; ++cg) {
      double Hd[3];
      hvp(d, Hd);
      double rr = res[0] * res[0] + res[1] * res[1] + res[2] * res[2];
      double dHd = d[0] * Hd[0] + d[1] * Hd[1] + d[2] * Hd[2];
      if (rr < 1e-30 || dHd <= 0)
        break;
      double alpha = rr / dHd;
      for (int k = 0; k < 3; ++k) {
        s[k] += alpha * d[k];
        res[k] -= alpha * Hd[k];
      }
      double rr2 = res[0] * res[0] + res[1] * res[1] + res[2] * res[2];
      for (int k = 0; k < 3; ++k)
        d[k] = res[k] + rr2 / rr * d[k];
    }
    for (int k = 0; k < 3; ++k)
      q[k] += s[k];
  }
  std::printf("Newton-CG:    a = %.6f, b = %.6f, c = %.6f, sse = %.3e\n",
              q[0], q[1], q[2], sse(q[0], q[1], q[2], T, Y, N));
  for (int k = 0; k < 3; ++k)
    if (std::fabs(p[k] - q[k]) > 1e-6) {
      std::printf("MISMATCH: the two fits differ\n");
      ++failures;
    }
  std::printf("%s\n", failures ? "derivative checks FAILED"
                               : "all derivatives match finite differences");
  return failures != 0;
}
