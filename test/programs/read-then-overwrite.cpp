// RUN: %gradxx %s -o %t && %t | FileCheck %s --implicit-check-not=FAIL
// CHECK: summary: 0 failure(s)
// Constructs: values read by a helper and then overwritten by the caller
// (`r = sqsum(2, p); p[0] *= r;`), in-place normalisation (`nrm = norm(v);
// v[i] /= nrm`), modified Gram-Schmidt on rows of a matrix in place (helpers
// reading a row that is then written), centring a buffer in place after a
// helper computed its mean; all on non-const pointer parameters (in/out).
#include "fdcheck.h"

static double sqsum(int n, const double *p) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i] * p[i];
  return s;
}
static double mean(int n, const double *p) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i];
  return s / n;
}
static double dotp(int n, const double *a, const double *b) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i] * b[i];
  return s;
}

[[grad]] double reweight(double *p, double c) {
  double r = sqsum(2, p);
  p[0] *= r;
  r = sqsum(3, p);
  p[2] = c * r - p[1];
  return r + p[0];
}

[[grad]] void normalize(double *v, int n) {
  double nrm = std::sqrt(sqsum(n, v));
  for (int i = 0; i < n; ++i)
    v[i] /= nrm;
}

// Rows of Q (m x n) are orthonormalised in place.
[[grad]] void gram_schmidt(double *Q, int m, int n) {
  for (int i = 0; i < m; ++i) {
    double *qi = Q + i * n;
    for (int k = 0; k < i; ++k) {
      const double *qk = Q + k * n;
      double c = dotp(n, qk, qi);
      for (int j = 0; j < n; ++j)
        qi[j] -= c * qk[j];
    }
    double nrm = std::sqrt(sqsum(n, qi));
    for (int j = 0; j < n; ++j)
      qi[j] /= nrm;
  }
}

[[grad]] double center_var(double *x, int n) {
  double mu = mean(n, x);
  for (int i = 0; i < n; ++i)
    x[i] -= mu;
  return sqsum(n, x) / (n - 1);
}

// Shared driver for the in/out tests: v0 (n values) is the entry state,
// sv the seed on the exit values, sret the seed on the return value.
template <class F, class PB>
static void inout(const char *nm, int n, const double *v0, const double *sv,
                  double sret, F f, PB pb) {
  fdc::Vars at;
  at.add("v", v0, n);
  fdc::Loss L = [&](fdc::Reader &r) {
    std::vector<double> v = r.vec(n);
    double ret = f(v.data());
    return sret * ret + fdc::dot(sv, v.data(), n);
  };
  fdc::Vars got;
#ifndef PRIMAL_ONLY
  std::vector<double> v(v0, v0 + n), ref(v0, v0 + n), dv(sv, sv + n);
  f(ref.data());
  pb(v.data(), sret, dv.data());
  fdc::same(nm, v.data(), ref.data(), n);
  got.add(dv);
#else
  (void)pb;
#endif
  fdc::check(nm, at, L, got);
}

int main() {
  double c0 = 0.75;
  double p0[3] = {0.6, -0.9, 1.4}, sp[3] = {0.5, -1.0, 0.3};
  inout("reweight", 3, p0, sp, 1.3, [&](double *p) { return reweight(p, c0); },
        [&](double *p, double s, double *dp) {
#ifndef PRIMAL_ONLY
          double dc = 0; // d_c is checked separately below
          reweight_pullback(p, c0, s, dp, &dc);
#endif
        });
  fdc::Vars at;
  at.add("c", c0);
  fdc::Loss Lc = [&](fdc::Reader &r) {
    double c = r.get(), p[3] = {p0[0], p0[1], p0[2]};
    double ret = reweight(p, c);
    return 1.3 * ret + fdc::dot(sp, p, 3);
  };
  fdc::Vars gotc;
#ifndef PRIMAL_ONLY
  double p[3] = {p0[0], p0[1], p0[2]}, dp[3] = {sp[0], sp[1], sp[2]}, dc = 0;
  reweight_pullback(p, c0, 1.3, dp, &dc);
  gotc.add(dc);
#endif
  fdc::check("reweight.c", at, Lc, gotc);

  double v0[4] = {0.3, -1.2, 0.8, 2.0}, sv[4] = {1.0, 0.4, -0.7, 0.2};
  inout("normalize", 4, v0, sv, 0.0, [](double *v) { normalize(v, 4); return 0.0; },
        [](double *v, double, double *dv) {
#ifndef PRIMAL_ONLY
          normalize_pullback(v, 4, dv);
#endif
        });
  double Q0[6] = {1.0, 0.2, -0.4, 0.5, 1.1, 0.3}, sQ[6] = {0.2, -0.5, 0.9, 1.1, 0.3, -0.6};
  inout("gram_schmidt", 6, Q0, sQ, 0.0, [](double *Q) { gram_schmidt(Q, 2, 3); return 0.0; },
        [](double *Q, double, double *dQ) {
#ifndef PRIMAL_ONLY
          gram_schmidt_pullback(Q, 2, 3, dQ);
#endif
        });
  inout("center_var", 4, v0, sv, 0.9, [](double *x) { return center_var(x, 4); },
        [](double *x, double s, double *dx) {
#ifndef PRIMAL_ONLY
          center_var_pullback(x, 4, s, dx);
#endif
        });
  return fdc::finish();
}
