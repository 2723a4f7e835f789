// RUN: %gradxx %s -o %t && %t | FileCheck %s --implicit-check-not=FAIL
// CHECK: summary: 0 failure(s)
// ADBench-style GMM objective written the C way. Constructs: helpers writing
// through out pointers (`subtract(d, x, mu, out)`, `Qtimesx(d, Qdiag, ltri,
// x, out)`, `preprocess_qs(d, k, icf, sum_qs, Qdiags)`), `logsumexp` and
// `sqnorm` over `&a[k*d]` sub-arrays, new[]/delete[] scratch, a struct of
// hyper-parameters by pointer with an int member, lgamma on constants only,
// a void objective returning through `double* err` with a wrt list
// `[[grad("alphas, means, icf, err")]]` (x and the prior get no adjoint).
#include "fdcheck.h"

struct Wishart {
  double gamma;
  int m;
};

static double sqnorm(int n, const double *x) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] * x[i];
  return s;
}
static void subtract(int d, const double *x, const double *y, double *out) {
  for (int i = 0; i < d; ++i)
    out[i] = x[i] - y[i];
}
static double logsumexp(int n, const double *v) {
  double mx = v[0];
  for (int i = 1; i < n; ++i)
    mx = v[i] > mx ? v[i] : mx;
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += std::exp(v[i] - mx);
  return std::log(s) + mx;
}
// Log of the multivariate gamma function Gamma_p(a) (constants only here).
static double log_mgamma(double a, int p) {
  double r = 0.25 * p * (p - 1) * std::log(M_PI);
  for (int j = 1; j <= p; ++j)
    r += std::lgamma(a + 0.5 * (1 - j));
  return r;
}
static void preprocess_qs(int d, int k, const double *icf, double *sum_qs,
                          double *Qdiags) {
  int isz = d * (d + 1) / 2;
  for (int c = 0; c < k; ++c) {
    sum_qs[c] = 0;
    for (int i = 0; i < d; ++i) {
      double q = icf[c * isz + i];
      sum_qs[c] += q;
      Qdiags[c * d + i] = std::exp(q);
    }
  }
}
// out = Q x with Q lower triangular: diagonal Qdiag, strict lower part ltri
// stored column by column.
static void Qtimesx(int d, const double *Qdiag, const double *ltri,
                    const double *x, double *out) {
  for (int i = 0; i < d; ++i)
    out[i] = Qdiag[i] * x[i];
  int idx = 0;
  for (int i = 0; i < d; ++i)
    for (int j = i + 1; j < d; ++j)
      out[j] += ltri[idx++] * x[i];
}
static double log_wishart_prior(int d, int k, const Wishart *w,
                                const double *sum_qs, const double *Qdiags,
                                const double *icf) {
  int isz = d * (d + 1) / 2, n = d + w->m + 1;
  double C = n * d * (std::log(w->gamma) - 0.5 * std::log(2.0)) -
             log_mgamma(0.5 * n, d);
  double r = 0;
  for (int c = 0; c < k; ++c) {
    double frob = sqnorm(d, &Qdiags[c * d]) + sqnorm(isz - d, &icf[c * isz + d]);
    r += 0.5 * w->gamma * w->gamma * frob - w->m * sum_qs[c];
  }
  return r - k * C;
}

[[grad("alphas, means, icf, err")]] void
gmm_objective(int d, int k, int n, const double *alphas, const double *means,
              const double *icf, const double *x, const Wishart *wishart,
              double *err) {
  int isz = d * (d + 1) / 2;
  double *Qdiags = new double[d * k], *sum_qs = new double[k];
  double *xc = new double[d], *Qxc = new double[d], *main_term = new double[k];
  preprocess_qs(d, k, icf, sum_qs, Qdiags);
  double slse = 0;
  for (int i = 0; i < n; ++i) {
    for (int c = 0; c < k; ++c) {
      subtract(d, &x[i * d], &means[c * d], xc);
      Qtimesx(d, &Qdiags[c * d], &icf[c * isz + d], xc, Qxc);
      main_term[c] = alphas[c] + sum_qs[c] - 0.5 * sqnorm(d, Qxc);
    }
    slse += logsumexp(k, main_term);
  }
  double constant = -n * d * 0.5 * std::log(2 * M_PI);
  *err = constant + slse - n * logsumexp(k, alphas) +
         log_wishart_prior(d, k, wishart, sum_qs, Qdiags, icf);
  delete[] Qdiags;
  delete[] sum_qs;
  delete[] xc;
  delete[] Qxc;
  delete[] main_term;
}

enum { D = 3, K = 2, NPTS = 4, ISZ = D * (D + 1) / 2 };

int main() {
  double alphas[K], means[K * D], icf[K * ISZ], x[NPTS * D];
  for (int i = 0; i < K; ++i)
    alphas[i] = 0.3 * i - 0.2;
  for (int i = 0; i < K * D; ++i)
    means[i] = std::sin(1.3 * i + 0.5);
  for (int i = 0; i < K * ISZ; ++i)
    icf[i] = 0.4 * std::cos(0.9 * i);
  for (int i = 0; i < NPTS * D; ++i)
    x[i] = std::cos(2.1 * i) + 0.1 * i;
  Wishart wi{1.2, 1};
  double err0 = 5.0, serr = 0.75;
  fdc::Vars at;
  at.add("alphas", alphas, K).add("means", means, K * D).add("icf", icf, K * ISZ);
  at.add("err", err0);
  fdc::Loss L = [&](fdc::Reader &r) {
    double a[K], mu[K * D], q[K * ISZ], e;
    r.get(a, K), r.get(mu, K * D), r.get(q, K * ISZ);
    e = r.get();
    gmm_objective(D, K, NPTS, a, mu, q, x, &wi, &e);
    return serr * e;
  };
  fdc::Vars got;
#ifndef PRIMAL_ONLY
  double da[K] = {}, dmu[K * D] = {}, dq[K * ISZ] = {}, e = err0, de = serr;
  double ref = err0;
  gmm_objective(D, K, NPTS, alphas, means, icf, x, &wi, &ref);
  gmm_objective_pullback(D, K, NPTS, alphas, means, icf, x, &wi, &e, da, dmu,
                         dq, &de);
  fdc::same("gmm_objective", &e, &ref, 1);
  got.add(da, K).add(dmu, K * D).add(dq, K * ISZ).add(de);
#endif
  fdc::check("gmm_objective", at, L, got);
  return fdc::finish();
}
