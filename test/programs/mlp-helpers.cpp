// RUN: %gradxx %s -o %t && %t | FileCheck %s --implicit-check-not=FAIL
// CHECK: summary: 0 failure(s)
// Constructs: a two-layer perceptron written the C way: all weights in one
// flat `const double* theta` carved with pointer offsets (`W1 = theta;
// b1 = W1 + H*D; ...`), a `dense(W, b, in, out, m, n)` helper writing into
// local buffers and calling a nested `gemv` + `add` helper, in-place
// activations `tanh_inplace(double* z, int n)` and `softmax(double* z, int n)`,
// a void variant with an out buffer `probs`, cross-entropy with an int label.
#include "fdcheck.h"

enum { D = 3, H = 4, K = 3, NTHETA = H * D + H + K * H + K };

static void gemv(const double *W, const double *x, double *y, int m, int n) {
  for (int i = 0; i < m; ++i) {
    const double *w = W + i * n;
    y[i] = 0;
    for (int j = 0; j < n; ++j)
      y[i] += w[j] * x[j];
  }
}
static void add(double *y, const double *b, int m) {
  for (int i = 0; i < m; ++i)
    y[i] += b[i];
}
static void dense(const double *W, const double *b, const double *in,
                  double *out, int m, int n) {
  gemv(W, in, out, m, n);
  add(out, b, m);
}
static void tanh_inplace(double *z, int n) {
  for (int i = 0; i < n; ++i)
    z[i] = std::tanh(z[i]);
}
static void softmax(double *z, int n) {
  double m = z[0], s = 0;
  for (int i = 1; i < n; ++i)
    if (z[i] > m)
      m = z[i];
  for (int i = 0; i < n; ++i)
    s += (z[i] = std::exp(z[i] - m));
  for (int i = 0; i < n; ++i)
    z[i] /= s;
}

[[grad]] void mlp_probs(const double *theta, const double *x, double *probs) {
  const double *W1 = theta, *b1 = W1 + H * D;
  const double *W2 = b1 + H, *b2 = W2 + K * H;
  double h[H];
  dense(W1, b1, x, h, H, D);
  tanh_inplace(h, H);
  dense(W2, b2, h, probs, K, H);
  softmax(probs, K);
}

[[grad]] double mlp_xent(const double *theta, const double *x, int label) {
  double p[K];
  mlp_probs(theta, x, p);
  return -std::log(p[label]);
}

static double theta0[NTHETA], x0[D] = {0.5, -1.1, 0.8};

static void test_mlp_probs() {
  double p0[K] = {9, 9, 9}, sp[K] = {1.0, -2.0, 0.5};
  fdc::Vars at;
  at.add("theta", theta0, NTHETA).add("x", x0, D).add("probs", p0, K);
  fdc::Loss L = [&](fdc::Reader &r) {
    double th[NTHETA], x[D], p[K];
    r.get(th, NTHETA), r.get(x, D), r.get(p, K);
    mlp_probs(th, x, p);
    return fdc::dot(sp, p, K);
  };
  fdc::Vars got;
#ifndef PRIMAL_ONLY
  double dth[NTHETA] = {}, dx[D] = {}, p[K] = {9, 9, 9}, ref[K] = {9, 9, 9};
  double dp[K] = {sp[0], sp[1], sp[2]};
  mlp_probs(theta0, x0, ref);
  mlp_probs_pullback(theta0, x0, p, dth, dx, dp);
  fdc::same("mlp_probs", p, ref, K);
  got.add(dth, NTHETA).add(dx, D).add(dp, K);
#endif
  fdc::check("mlp_probs", at, L, got);
}

static void test_mlp_xent(int label) {
  fdc::Vars at;
  at.add("theta", theta0, NTHETA).add("x", x0, D);
  fdc::Loss L = [&](fdc::Reader &r) {
    double th[NTHETA], x[D];
    r.get(th, NTHETA), r.get(x, D);
    return mlp_xent(th, x, label);
  };
  fdc::Vars got;
#ifndef PRIMAL_ONLY
  double dth[NTHETA] = {}, dx[D] = {};
  mlp_xent_pullback(theta0, x0, label, 1.0, dth, dx);
  got.add(dth, NTHETA).add(dx, D);
#endif
  fdc::check("mlp_xent" + std::to_string(label), at, L, got);
}

int main() {
  for (int i = 0; i < NTHETA; ++i)
    theta0[i] = 0.9 * std::sin(1.7 * i + 0.3);
  test_mlp_probs();
  test_mlp_xent(0);
  test_mlp_xent(2);
  return fdc::finish();
}
