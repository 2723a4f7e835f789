// [[grad::hessian]] declares NAME_pullback as [[grad]] does and
//   void NAME_hvp(params..., directions v_..., adjoints d_...)
// with d += H(f) v, built as the pushforward of the pullback (forward over
// reverse: loops with a tape push tangents with values). Checked against
// closed forms (Rosenbrock, a quadratic form, log-sum-exp) and against
// central differences of the pullback.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "fwdcheck.h"
#include <cmath>
#include <vector>

using V = std::vector<double>;

// DUMP: void g2_hvp(double x, double y, double v_x, double v_y, double *d_x, double *d_y) {
[[grad::hessian]] double g2(double x, double y) {
  return std::sin(x * y) * std::exp(x) + x * x * y;
}

// DUMP: void rosen_hvp(const double *x, int n, const double *v_x, double *d_x) {
[[grad::hessian]] double rosen(const double *x, int n) {
  double s = 0;
  for (int i = 0; i + 1 < n; ++i) {
    double a = x[i + 1] - x[i] * x[i];
    double b = 1 - x[i];
    s += 100 * a * a + b * b;
  }
  return s;
}

// x^T A x with A not symmetric: H = A + A^T.
[[grad::hessian("x")]] double quad(const double *A, const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      s += x[i] * A[i * n + j] * x[j];
  return s;
}

static double dot(int n, const double *a, const double *b) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i] * b[i];
  return s;
}
[[grad::hessian]] double lse(const double *x, int n) {
  double m = x[0];
  for (int i = 1; i < n; ++i)
    m = std::fmax(m, x[i]);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += std::exp(x[i] - m);
  return m + std::log(s) + 0.5 * dot(n, x, x);
}

// Early returns become jumps in the pullback; they are pushed forward as
// jumps.
[[grad::hessian]] double early(double x, double y) {
  if (x > 1)
    return x * y * y;
  double t = std::sin(x) * y;
  if (t > 0.5)
    return t * t;
  return t + x * x * x;
}

// hm's pullback runs hn's split halves (_grad_hn_fwd saves a frame that
// _grad_hn_rev reads): the HVP must push the forward half forward too, or
// the reverse half reads tangents that were never saved (NaN, fuzz seed
// 21008 of the hessian mode).
static double g0(double a, double b) { return std::sin(a) * b + a * a; }
static double g1(double a, double b) {
  double t = g0(a, b);
  a = a * t;
  return g0(t, a) + b;
}
[[grad::hessian]] double hn(double x, double y) {
  return g1(x, y) * g1(y, x) + g0(x, x);
}
// DUMP: _grad_hn_fwd_pushforward(
[[grad::hessian]] double hm(double x, double y) { return hn(x, y) * y; }

// A struct whose `{}` does not zero it (a default member initializer): the
// pullback's shadow is `zeroed<S3>()`, a constant in the HVP (it was an
// error naming the runtime's 'zeroed').
// Also a struct without a default constructor built by one that copies
// its parameters (its tangent: the same constructor on the tangents).
struct S3 { int n = 3; double x, y, z; };
struct P2 {
  double a, b;
  P2(double a, double b) : a(a), b(b) {}
};
[[grad::hessian]] double hs(double x, double y) {
  S3 v;
  v.x = x * y;
  v.y = std::sin(x);
  v.z = y * v.n;
  v.z *= v.x;
  P2 w(v.x * x, std::cos(y));
  return v.x * v.y + v.z * v.z + w.a * w.b * v.n;
}

int main() {
  for (int k = 0; k < 2; ++k) {
    double x0 = 0.5, y0 = 0.7, hx = 0, hy = 0;
    hs_hvp(x0, y0, k == 0, k == 1, &hx, &hy);
    auto G = [](int c) {
      return [c](const V &X) {
        double dx = 0, dy = 0;
        hs_pullback(X[0], X[1], 1.0, &dx, &dy);
        return c ? dy : dx;
      };
    };
    V Dir{double(k == 0), double(k == 1)};
    gradcheck::expect("hs." + std::to_string(k) + "x", hx,
                      fwdcheck::fdAlong(G(0), {x0, y0}, Dir));
    gradcheck::expect("hs." + std::to_string(k) + "y", hy,
                      fwdcheck::fdAlong(G(1), {x0, y0}, Dir));
  }
  for (int k = 0; k < 2; ++k) {
    double x0 = 0.4, y0 = -0.3, hx = 0, hy = 0;
    hm_hvp(x0, y0, k == 0, k == 1, &hx, &hy);
    auto G = [](int c) {
      return [c](const V &X) {
        double dx = 0, dy = 0;
        hm_pullback(X[0], X[1], 1.0, &dx, &dy);
        return c ? dy : dx;
      };
    };
    V Dir{double(k == 0), double(k == 1)};
    gradcheck::expect("hm." + std::to_string(k) + "x", hx,
                      fwdcheck::fdAlong(G(0), {x0, y0}, Dir));
    gradcheck::expect("hm." + std::to_string(k) + "y", hy,
                      fwdcheck::fdAlong(G(1), {x0, y0}, Dir));
  }
  for (double x0 : {1.5, 0.2, -0.7})
    for (int k = 0; k < 2; ++k) {
      double y0 = 0.9, hx = 0, hy = 0;
      early_hvp(x0, y0, k == 0, k == 1, &hx, &hy);
      auto G = [](int c) {
        return [c](const V &X) {
          double dx = 0, dy = 0;
          early_pullback(X[0], X[1], 1.0, &dx, &dy);
          return c ? dy : dx;
        };
      };
      V Dir{double(k == 0), double(k == 1)};
      std::string N = "early." + std::to_string(x0) + "." + std::to_string(k);
      gradcheck::expect(N + "x", hx, fwdcheck::fdAlong(G(0), {x0, y0}, Dir));
      gradcheck::expect(N + "y", hy, fwdcheck::fdAlong(G(1), {x0, y0}, Dir));
    }
  // g2: column k of H against differences of the pullback.
  for (int k = 0; k < 2; ++k) {
    double x = 0.7, y = -0.4;
    double v[2] = {k == 0 ? 1.0 : 0.0, k == 1 ? 1.0 : 0.0};
    double hx = 0, hy = 0;
    g2_hvp(x, y, v[0], v[1], &hx, &hy);
    auto Grad = [&](int c) {
      return [c](const V &X) {
        double dx = 0, dy = 0;
        g2_pullback(X[0], X[1], 1.0, &dx, &dy);
        return c ? dy : dx;
      };
    };
    V Dir{v[0], v[1]};
    gradcheck::expect("g2.h" + std::to_string(k) + "x", hx,
                      fwdcheck::fdAlong(Grad(0), {x, y}, Dir));
    gradcheck::expect("g2.h" + std::to_string(k) + "y", hy,
                      fwdcheck::fdAlong(Grad(1), {x, y}, Dir));
  }
  {
    // Rosenbrock, n = 3: the closed-form Hessian.
    double x[3] = {0.3, -0.8, 1.2};
    auto Hc = [&](int i, int j) {
      double h = 0;
      if (i == j) {
        if (i < 2)
          h += 1200 * x[i] * x[i] - 400 * x[i + 1] + 2;
        if (i > 0)
          h += 200;
      } else if (j == i + 1) {
        h = -400 * x[i];
      } else if (i == j + 1) {
        h = -400 * x[j];
      }
      return h;
    };
    for (int k = 0; k < 3; ++k) {
      double v[3] = {0, 0, 0}, d[3] = {0.5, 0.5, 0.5};
      v[k] = 1;
      rosen_hvp(x, 3, v, d); // accumulates
      for (int i = 0; i < 3; ++i)
        gradcheck::expect("rosen.H" + std::to_string(i) + std::to_string(k),
                          d[i] - 0.5, Hc(i, k), 1e-12);
    }
  }
  {
    double A[9] = {1, 2, 0.5, -1, 3, 4, 0.25, 2, -2};
    double x[3] = {0.3, -0.8, 1.2};
    double v[3] = {1, -2, 0.5};
    double d[3] = {0, 0, 0};
    quad_hvp(A, x, 3, v, d);
    for (int i = 0; i < 3; ++i) {
      double want = 0;
      for (int j = 0; j < 3; ++j)
        want += (A[i * 3 + j] + A[j * 3 + i]) * v[j];
      gradcheck::expect("quad.Hv" + std::to_string(i), d[i], want, 1e-12);
    }
  }
  {
    // log-sum-exp + |x|^2 / 2: H = diag(p) - p p^T + I.
    double x[4] = {0.3, -0.8, 1.2, 0.1};
    double v[4] = {1, -2, 0.5, 3};
    double d[4] = {0, 0, 0, 0};
    lse_hvp(x, 4, v, d);
    double m = 1.2, z = 0;
    for (double xi : x)
      z += std::exp(xi - m);
    double p[4], pv = 0;
    for (int i = 0; i < 4; ++i) {
      p[i] = std::exp(x[i] - m) / z;
      pv += p[i] * v[i];
    }
    for (int i = 0; i < 4; ++i)
      gradcheck::expect("lse.Hv" + std::to_string(i), d[i],
                        p[i] * v[i] - p[i] * pv + v[i], 1e-12);
    // The pullback [[grad::hessian]] declared works as [[grad]]'s.
    double g[4] = {0, 0, 0, 0};
    lse_pullback(x, 4, 1.0, g);
    gradcheck::expect("lse.grad0", g[0], p[0] + x[0], 1e-12);
  }
  return gradcheck::failures();
}
// CHECK: ok hs.0x
// CHECK: ok hs.0y
// CHECK: ok hs.1x
// CHECK: ok hs.1y
// CHECK: ok hm.0x
// CHECK: ok hm.1y
// CHECK: ok early.1.500000.0x
// CHECK: ok early.-0.700000.1y
// CHECK: ok g2.h0x
// CHECK: ok g2.h1y
// CHECK: ok rosen.H22
// CHECK: ok quad.Hv2
// CHECK: ok lse.Hv3
// CHECK: ok lse.grad0
