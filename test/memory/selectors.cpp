// std::min, std::max and std::clamp return a reference to one of their
// operands: a reference bound to the result (or to `c ? a : b`) aliases one
// of two storages, chosen at run time, and a comparator decides which
// operand a call selects. Reverse and forward mode, and HVPs.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: not %gradxx -fsyntax-only -DREFUSED %s 2>&1 | FileCheck %s --check-prefix=REFUSED
#include "fwdcheck.h"
#include "gradcheck.h"
#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <functional>

using gradcheck::check_grad;

[[grad, grad::forward]] double ref_cond(double x, double y) {
  const double &r = x < y ? y : x;
  return r * x;
}

[[grad, grad::forward]] double ref_cond_write(double x, double y) {
  double a = x * x, b = y;
  double &r = x < y ? a : b;
  r *= y;
  return a * b + r;
}

[[grad, grad::forward]] double ref_max(double x, double y) {
  double a = std::sin(x), b = y * x;
  const double &m = std::max(a, b);
  double s = m * m;
  return s + m * a;
}

// The chosen variable is written while the reference lives: the reference
// reads the new value, and the adjoint follows.
[[grad, grad::forward]] double ref_written(double x, double y) {
  double p = x, q = y;
  const double &m = std::max(p, q);
  p = 5 * x;
  return m * x;
}

[[grad, grad::forward]] double ref_clamp(double x, double lo, double hi) {
  double v = 3 * x;
  const double &c = std::clamp(v, lo, hi);
  return c * c + v;
}

[[grad, grad::forward]] double row_max(const double *a, int n) {
  double s = 0;
  for (int i = 0; i + 1 < n; ++i) {
    const double &m = std::max(a[i], a[i + 1]);
    s += m * a[i];
  }
  return s;
}

// Assignments to `c ? a : b`: one of the two is written.
[[grad, grad::forward]] double cond_assign(double x, double y) {
  double a = x * 2, b = y;
  (x > y ? a : b) = x * y;
  return a + b * 3;
}

[[grad, grad::forward]] double cond_nested(double x, double y) {
  double a = x, b = y, c = x * y;
  (x > y ? a : (y > 1 ? b : c)) *= std::sin(x);
  return a * b + c;
}

[[grad, grad::forward]] double cond_loop(const double *x, int n) {
  double lo = 0, hi = 0;
  for (int i = 0; i < n; ++i)
    (x[i] < 0 ? lo : hi) += x[i] * x[i];
  return lo * hi;
}

// Second order: the HVP pushes the pullback's choices forward.
[[grad::hessian]] double hv_max(double x, double y) {
  double a = x * x, b = y * x;
  const double &m = std::max(a, b);
  return m * m * y;
}

[[grad::hessian]] double hv_comp(double x, double y) {
  return std::min(x * y, y, [](double u, double v) {
           return std::fabs(u) < std::fabs(v);
         }) * x * x;
}

static bool by_abs(double u, double v) { return std::fabs(u) < std::fabs(v); }

[[grad, grad::forward]] double min_comp(double x, double y) {
  double m = std::min(x, y, [](double u, double v) {
    return std::fabs(u) < std::fabs(v);
  });
  return m * y;
}

[[grad]] double max_comp(double x, double y) {
  auto cmp = [](double u, double v) { return std::fabs(u) < std::fabs(v); };
  return std::max(x * y, y, cmp) * x;
}

[[grad, grad::forward]] double greater_comp(double x, double y) {
  return std::min(x, y, std::greater<double>()) * std::max(x, 2 * y, by_abs);
}

[[grad]] double clamp_comp(double x, double lo, double hi) {
  double v = x * x;
  return std::clamp(v, lo, hi, [](double a, double b) { return a < b; }) * x;
}

[[grad, grad::forward]] double ref_comp(double x, double y) {
  double a = x, b = -2 * y;
  const double &r = std::max(a, b, [](double u, double v) {
    return std::fabs(u) < std::fabs(v);
  });
  a *= 3;
  return r * a;
}

#ifdef REFUSED
// The operands are evaluated again to choose the adjoint: effects refuse.
[[grad]] double side(double x, double y) {
  const double &r = std::max(x, y += 1);
  return r * x;
}
// REFUSED: selectors.cpp:[[@LINE-2]]:{{[0-9]+}}: error: grad: cannot differentiate reference 'r' whose target the plugin cannot track (it is bound to what 'max' returns: take the value, 'double r = ...') in 'side'
// A temporary operand: the reference would dangle when it is chosen, and
// a copy would miss later writes to the other operand.
[[grad, grad::forward]] double mixed(double x, double y) {
  const double &m = std::max(x * y, y);
  y *= 2;
  return m * x;
}
// REFUSED: selectors.cpp:[[@LINE-4]]:{{[0-9]+}}: error: grad: cannot differentiate reference 'm' whose target the plugin cannot track (it is bound to what 'max' returns: take the value, 'double m = ...') in 'mixed' in forward mode
// REFUSED: selectors.cpp:[[@LINE-3]]:{{[0-9]+}}: error: grad: cannot differentiate reference 'm' whose target the plugin cannot track (it is bound to what 'max' returns: take the value, 'double m = ...') in 'mixed'
// The choice is made again for the adjoint: a condition that may answer
// differently the second time (rand()) is refused.
[[grad]] double dropout(double x, double y) {
  double a = x * x, b = y;
  double *p = (std::rand() % 2) ? &a : &b;
  *p *= 3;
  return a * b;
}
// REFUSED: selectors.cpp:[[@LINE-4]]:15: error: grad: cannot differentiate pointer 'p' chosen by a condition that cannot be evaluated again (it has side effects or calls a function without a visible body) in 'dropout'
// The right side of an assignment to `c ? a : b` runs first in C++; one
// that may write memory (through a pointer argument) is refused.
static double bump(double *p) { return *p += 1; }
[[grad]] double cond_effect(double x, double y) {
  double a = x, b = y;
  (a > b ? a : b) = bump(&a);
  return a * b;
}
// REFUSED: selectors.cpp:[[@LINE-3]]:{{[0-9]+}}: error: grad: cannot differentiate assignment to 'a > b ? a : b', a '?:' expression in 'cond_effect'
#endif

using V = std::vector<double>;

int main() {
  // CHECK: ok ref_cond+.d1
  check_grad("ref_cond+", ref_cond, ref_cond_pullback, 0.7, 1.3);
  // CHECK: ok ref_cond-.d1
  check_grad("ref_cond-", ref_cond, ref_cond_pullback, 1.7, 1.3);
  // CHECK: ok ref_cond_write+.d1
  check_grad("ref_cond_write+", ref_cond_write, ref_cond_write_pullback, 0.7, 1.3);
  // CHECK: ok ref_cond_write-.d1
  check_grad("ref_cond_write-", ref_cond_write, ref_cond_write_pullback, 1.7, 1.3);
  // CHECK: ok ref_max+.d1
  check_grad("ref_max+", ref_max, ref_max_pullback, 0.7, 1.3);
  // CHECK: ok ref_max-.d1
  check_grad("ref_max-", ref_max, ref_max_pullback, 0.7, 0.2);
  // CHECK: ok ref_written+.d1
  check_grad("ref_written+", ref_written, ref_written_pullback, 0.7, 1.3);
  // CHECK: ok ref_written-.d1
  check_grad("ref_written-", ref_written, ref_written_pullback, 0.7, 0.3);
  // CHECK: ok ref_clamp.in.d1
  check_grad("ref_clamp.in", ref_clamp, ref_clamp_pullback, 0.2, -1.0, 1.0);
  // CHECK: ok ref_clamp.lo.d1
  check_grad("ref_clamp.lo", ref_clamp, ref_clamp_pullback, -0.5, -1.0, 1.0);
  // CHECK: ok ref_clamp.hi.d1
  check_grad("ref_clamp.hi", ref_clamp, ref_clamp_pullback, 0.5, -1.0, 1.0);
  // CHECK: ok min_comp+.d1
  check_grad("min_comp+", min_comp, min_comp_pullback, 0.7, -1.3);
  // CHECK: ok min_comp-.d1
  check_grad("min_comp-", min_comp, min_comp_pullback, -1.7, 1.3);
  // CHECK: ok max_comp+.d1
  check_grad("max_comp+", max_comp, max_comp_pullback, 0.7, -1.3);
  // CHECK: ok max_comp-.d1
  check_grad("max_comp-", max_comp, max_comp_pullback, 1.7, 1.3);
  // CHECK: ok greater_comp+.d1
  check_grad("greater_comp+", greater_comp, greater_comp_pullback, 0.7, -1.3);
  // CHECK: ok greater_comp-.d1
  check_grad("greater_comp-", greater_comp, greater_comp_pullback, -1.7, 0.3);
  // CHECK: ok clamp_comp.in.d1
  check_grad("clamp_comp.in", clamp_comp, clamp_comp_pullback, 0.5, 0.1, 1.0);
  // CHECK: ok clamp_comp.lo.d1
  check_grad("clamp_comp.lo", clamp_comp, clamp_comp_pullback, 0.2, 0.1, 1.0);
  // CHECK: ok clamp_comp.hi.d1
  check_grad("clamp_comp.hi", clamp_comp, clamp_comp_pullback, 1.5, 0.1, 1.0);
  // CHECK: ok ref_comp+.d1
  check_grad("ref_comp+", ref_comp, ref_comp_pullback, 0.7, 1.3);
  // CHECK: ok ref_comp-.d1
  check_grad("ref_comp-", ref_comp, ref_comp_pullback, 1.7, 0.3);
  // CHECK: ok cond_assign+.d1
  check_grad("cond_assign+", cond_assign, cond_assign_pullback, 0.7, 1.3);
  // CHECK: ok cond_assign-.d1
  check_grad("cond_assign-", cond_assign, cond_assign_pullback, 1.7, 1.3);
  // CHECK: ok cond_nested.a.d1
  check_grad("cond_nested.a", cond_nested, cond_nested_pullback, 1.7, 1.3);
  // CHECK: ok cond_nested.b.d1
  check_grad("cond_nested.b", cond_nested, cond_nested_pullback, 0.7, 1.3);
  // CHECK: ok cond_nested.c.d1
  check_grad("cond_nested.c", cond_nested, cond_nested_pullback, 0.7, 0.9);
  for (V X : {V{0.7, 1.3}, V{1.7, 1.3}, V{0.7, 0.9}}) {
    fwdcheck::each("f.cond_assign",
                   [](const V &X) { return cond_assign(X[0], X[1]); },
                   [](const V &X, const V &D) {
                     return cond_assign_pushforward(X[0], X[1], D[0], D[1])
                         .der[0];
                   }, X);
    fwdcheck::each("f.cond_nested",
                   [](const V &X) { return cond_nested(X[0], X[1]); },
                   [](const V &X, const V &D) {
                     return cond_nested_pushforward(X[0], X[1], D[0], D[1])
                         .der[0];
                   }, X);
  }
  // CHECK: ok f.cond_nested.v2
  {
    V X = {0.3, -1.2, 0.8, -0.4, 2.0};
    fwdcheck::each("f.cond_loop",
                   [](const V &X) { return cond_loop(X.data(), 5); },
                   [](const V &X, const V &D) {
                     return cond_loop_pushforward(X.data(), 5, D.data()).der[0];
                   }, X);
    // CHECK: ok f.cond_loop.v5
    double D[5] = {}, Lo = 0, Hi = 0;
    cond_loop_pullback(X.data(), 5, 1.0, D);
    for (double v : X)
      (v < 0 ? Lo : Hi) += v * v;
    for (int i = 0; i < 5; ++i)
      gradcheck::expect("cond_loop.d" + std::to_string(i), D[i],
                        2 * X[i] * (X[i] < 0 ? Hi : Lo), 1e-12);
    // CHECK: ok cond_loop.d4
  }
  {
    double A[] = {0.3, 1.2, -0.4, 0.9, 2.0}, D[5] = {};
    row_max_pullback(A, 5, 1.0, D);
    // d/da of sum max(a_i, a_{i+1}) * a_i, by hand at this point.
    double W[5] = {};
    for (int i = 0; i + 1 < 5; ++i) {
      int k = A[i] < A[i + 1] ? i + 1 : i;
      W[k] += A[i];
      W[i] += A[k];
    }
    // CHECK: ok row_max.d4
    for (int i = 0; i < 5; ++i)
      gradcheck::expect("row_max.d" + std::to_string(i), D[i], W[i], 1e-12);
  }
  // Pushforwards along each axis and a mixed direction.
  for (V X : {V{0.7, 1.3}, V{1.7, 1.3}}) {
    fwdcheck::each("f.ref_cond", [](const V &X) { return ref_cond(X[0], X[1]); },
                   [](const V &X, const V &D) {
                     return ref_cond_pushforward(X[0], X[1], D[0], D[1]).der[0];
                   }, X);
    fwdcheck::each("f.ref_cond_write",
                   [](const V &X) { return ref_cond_write(X[0], X[1]); },
                   [](const V &X, const V &D) {
                     return ref_cond_write_pushforward(X[0], X[1], D[0], D[1])
                         .der[0];
                   }, X);
    fwdcheck::each("f.ref_written",
                   [](const V &X) { return ref_written(X[0], X[1] - 1); },
                   [](const V &X, const V &D) {
                     return ref_written_pushforward(X[0], X[1] - 1, D[0], D[1])
                         .der[0];
                   }, X);
    fwdcheck::each("f.ref_max", [](const V &X) { return ref_max(X[0], X[1]); },
                   [](const V &X, const V &D) {
                     return ref_max_pushforward(X[0], X[1], D[0], D[1]).der[0];
                   }, X);
    fwdcheck::each("f.min_comp", [](const V &X) { return min_comp(X[0], -X[1]); },
                   [](const V &X, const V &D) {
                     return min_comp_pushforward(X[0], -X[1], D[0], -D[1]).der[0];
                   }, X);
    fwdcheck::each("f.ref_comp", [](const V &X) { return ref_comp(X[0], X[1]); },
                   [](const V &X, const V &D) {
                     return ref_comp_pushforward(X[0], X[1], D[0], D[1]).der[0];
                   }, X);
    fwdcheck::each("f.greater_comp",
                   [](const V &X) { return greater_comp(X[0], -X[1]); },
                   [](const V &X, const V &D) {
                     return greater_comp_pushforward(X[0], -X[1], D[0], -D[1])
                         .der[0];
                   }, X);
  }
  // CHECK: ok f.greater_comp.v2
  for (double x : {0.2, -0.5, 0.5})
    fwdcheck::each("f.ref_clamp",
                   [](const V &X) { return ref_clamp(X[0], X[1], X[2]); },
                   [](const V &X, const V &D) {
                     return ref_clamp_pushforward(X[0], X[1], X[2], D[0], D[1],
                                                  D[2]).der[0];
                   }, {x, -1.0, 1.0});
  // CHECK: ok f.ref_clamp.v3
  // H v against central differences of the pullback, along each axis.
  for (V X : {V{0.7, 1.3}, V{1.7, 0.3}})
    for (int k = 0; k < 2; ++k) {
      double Vx = k == 0, Vy = k == 1, E = 1e-5;
      auto Fd = [&](auto Pb, double *Out) {
        double P[2] = {}, M[2] = {};
        Pb(X[0] + E * Vx, X[1] + E * Vy, 1.0, &P[0], &P[1]);
        Pb(X[0] - E * Vx, X[1] - E * Vy, 1.0, &M[0], &M[1]);
        Out[0] = (P[0] - M[0]) / (2 * E);
        Out[1] = (P[1] - M[1]) / (2 * E);
      };
      double H[2] = {}, W[2];
      hv_max_hvp(X[0], X[1], Vx, Vy, &H[0], &H[1]);
      Fd(hv_max_pullback, W);
      gradcheck::expect("hv_max.h" + std::to_string(k) + "0", H[0], W[0], 1e-6);
      gradcheck::expect("hv_max.h" + std::to_string(k) + "1", H[1], W[1], 1e-6);
      H[0] = H[1] = 0;
      hv_comp_hvp(X[0], X[1], Vx, Vy, &H[0], &H[1]);
      Fd(hv_comp_pullback, W);
      gradcheck::expect("hv_comp.h" + std::to_string(k) + "0", H[0], W[0], 1e-6);
      gradcheck::expect("hv_comp.h" + std::to_string(k) + "1", H[1], W[1], 1e-6);
    }
  // CHECK: ok hv_comp.h11
  {
    double A[] = {0.3, 1.2, -0.4, 0.9, 2.0}, T[] = {1, -2, 0.5, 3, -1};
    double D[5] = {}, Dot = 0;
    row_max_pullback(A, 5, 1.0, D);
    for (int i = 0; i < 5; ++i)
      Dot += D[i] * T[i];
    // CHECK: ok f.row_max
    gradcheck::expect("f.row_max", row_max_pushforward(A, 5, T).der[0], Dot,
                      1e-12);
  }
  return gradcheck::failures();
}
