// [[grad::forward]] on C-style code with memory: pointer parameters
// (read-only tangents `const T *`, in/out tangents `T *`), out-parameters
// of void functions, pointer locals walking rows and re-seated, `*p++`,
// address-of, references (`T &` parameters get `T *` tangents), local
// arrays (also 2-D), helpers writing through pointers (differentiated on
// demand), std::vector parameters and locals that grow, and structs of
// floating members (also integer members, and constructors that copy their
// parameters). Checked against central differences.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "fwdcheck.h"
#include "vecgrad.h"
#include <cmath>
#include <vector>

using V = std::vector<double>;

static void axpy(int n, double a, const double *x, double *y) {
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}
static double dot(int n, const double *a, const double *b) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i] * b[i];
  return s;
}
static void sq(double *p) { *p = *p * *p; }
static void step(double &acc, double u) { acc = acc * u + std::sin(u); }

// DUMP: ::grad::dual<double> rows_pushforward(const double *A, const double *x, int n, const double *t_A, const double *t_x) {
[[grad::forward]] double rows(const double *A, const double *x, int n) {
  double s = 0;
  const double *row = A;
  for (int i = 0; i < n; ++i) {
    s += std::exp(dot(n, row, x)) * (i + 1);
    row = row + n;
  }
  return s;
}

// DUMP: void resid_pushforward(const double *x, double *err, const double *t_x, double *t_err) {
[[grad::forward]] void resid(const double *x, double *err) {
  double tmp[2][2] = {{x[0], x[1]}, {x[1] * x[0], 2.0}};
  double *out = err;
  *out++ = tmp[0][0] * tmp[1][1] - tmp[0][1];
  *out++ = std::cos(tmp[1][0]);
  double r = x[2];
  sq(&r);
  step(r, x[0]);
  *out = r;
}

[[grad::forward]] double helpers(const double *x, int n) {
  double y[3] = {1, 2, 3};
  axpy(3, x[0], x + 1, y);
  double &r = y[1];
  r *= x[2];
  double *p = &y[2];
  sq(p);
  return dot(3, y, y) + *p;
}

// In/out: v is replaced by 2 v + sin(w), and w by w * v.
// DUMP: void inout_pushforward(double &v, double *w, double *t_v, double *t_w) {
[[grad::forward]] void inout(double &v, double *w) {
  v = 2 * v + std::sin(*w);
  *w = *w * v;
}

struct Pt {
  double x, y;
  int id;
};
static double norm2(const Pt &p) { return p.x * p.x + p.y * p.y; }

// DUMP: ::grad::dual<double> vec_pushforward(const std::vector<double> &v, Pt p, const std::vector<double> &t_v, const Pt &t_p) {
[[grad::forward]] double vec(const std::vector<double> &v, Pt p) {
  std::vector<double> w;
  for (std::size_t i = 0; i < v.size(); ++i)
    w.push_back(v[i] * p.x);
  std::vector<double> u(3, p.y);
  u[1] = w[0] + w.back();
  p.x += u[1] * u[0];
  Pt q{p.y, w[1], 7};
  return norm2(p) + norm2(q) + w.size();
}

// Integer members in arithmetic (`q.id * q.x`): no tangent (the tangent
// object holds the value there: it was read as a tangent, a wrong
// derivative), and a constructor that copies its parameters into members,
// applied to the tangents (it was an error in forward mode).
struct Lin {
  double x, y;
  int k;
  Lin(double a, double b, int k) : x(a), y(b), k(k) {}
};
[[grad::forward]] double ints(double a, double b, Pt p) {
  Pt q{a * b, std::sin(a), 3};
  Lin l(b * b, a + p.y, 2);
  Lin m = Lin(q.x, l.y * b, q.id);
  return q.x * q.id + l.k * l.x + m.k * m.y * p.x * p.id;
}

int main() {
  fwdcheck::each("ints",
                 [](const V &X) { return ints(X[0], X[1], Pt{X[2], X[3], 5}); },
                 [](const V &X, const V &D) {
                   return ints_pushforward(X[0], X[1], Pt{X[2], X[3], 5}, D[0], D[1], Pt{D[2], D[3], 5}).der[0];
                 }, {0.3, 0.8, -0.6, 1.1});
  {
    const int n = 3;
    fwdcheck::each("rows", [](const V &X) { return rows(X.data(), X.data() + 9, 3); },
                   [](const V &X, const V &D) {
                     return rows_pushforward(X.data(), X.data() + 9, 3, D.data(), D.data() + 9).der[0];
                   }, vecgrad::sample(12));
    (void)n;
  }
  for (int k = 0; k < 3; ++k)
    fwdcheck::each("resid" + std::to_string(k),
                   [k](const V &X) { double e[3]; resid(X.data(), e); return e[k]; },
                   [k](const V &X, const V &D) {
                     double e[3], te[3];
                     resid_pushforward(X.data(), e, D.data(), te);
                     double p[3];
                     resid(X.data(), p);
                     gradcheck::expect("resid.val", e[k], p[k], 1e-15);
                     return te[k];
                   }, {0.3, 0.8, -0.6});
  fwdcheck::each("helpers", [](const V &X) { return helpers(X.data(), 3); },
                 [](const V &X, const V &D) {
                   return helpers_pushforward(X.data(), 3, D.data()).der[0];
                 }, {0.3, 0.8, -0.6, 0.45});
  for (int k = 0; k < 2; ++k)
    fwdcheck::each("inout" + std::to_string(k),
                   [k](const V &X) { double v = X[0], w = X[1]; inout(v, &w); return k ? w : v; },
                   [k](const V &X, const V &D) {
                     double v = X[0], w = X[1], tv = D[0], tw = D[1];
                     inout_pushforward(v, &w, &tv, &tw);
                     return k ? tw : tv;
                   }, {0.3, 0.8});
  fwdcheck::each("vec",
                 [](const V &X) { return vec({X[0], X[1], X[2]}, Pt{X[3], X[4], 1}); },
                 [](const V &X, const V &D) {
                   V t{D[0], D[1], D[2]};
                   return vec_pushforward({X[0], X[1], X[2]}, Pt{X[3], X[4], 1}, t, Pt{D[3], D[4], 0}).der[0];
                 }, {0.3, 0.8, -0.6, 1.1, 0.4});
  return gradcheck::failures();
}
// CHECK: ok ints.v0
// CHECK: ok ints.v3
// CHECK: ok rows.v12
// CHECK: ok resid0.v3
// CHECK: ok resid1.v3
// CHECK: ok resid2.v3
// CHECK: ok helpers.v3
// CHECK: ok inout0.v2
// CHECK: ok inout1.v2
// CHECK: ok vec.v5
