// RUN: %gradxx %s -o %t && %t | FileCheck %s --implicit-check-not=FAIL
// CHECK: summary: 0 failure(s)
// Constructs: void [[grad]] functions whose results are out-parameters:
// `residual(const double* x, double* err)` (Rosenbrock residuals), several
// scalar out-pointers (`stats(x, n, &mean, &var)`), a residual accumulated
// into a caller-filled buffer (`err[i] += ...`), an out buffer of which only
// some entries are written (others keep their entry value), an output
// written twice (first a guess, then refined from the guess).
#include "fdcheck.h"

[[grad]] void residual(const double *x, double *err) {
  err[0] = 10.0 * (x[1] - x[0] * x[0]);
  err[1] = 1.0 - x[0];
}

[[grad]] void stats(const double *x, int n, double *mean, double *var) {
  *mean = 0;
  for (int i = 0; i < n; ++i)
    *mean += x[i];
  *mean /= n;
  *var = 0;
  for (int i = 0; i < n; ++i)
    *var += (x[i] - *mean) * (x[i] - *mean);
  *var /= n - 1;
}

// Adds a smoothness penalty to existing residuals; writes only the even ones.
[[grad]] void add_penalty(const double *x, int n, double lambda, double *err) {
  for (int i = 0; i + 1 < n; i += 2)
    err[i] += lambda * (x[i + 1] - x[i]) * (x[i + 1] - x[i]);
}

// Two Newton steps for sqrt(a) written into *out (the first write is a guess).
[[grad]] void newton_sqrt(double a, double *out) {
  *out = 0.5 * (1.0 + a);
  for (int k = 0; k < 2; ++k)
    *out = 0.5 * (*out + a / *out);
}

static double X0[4] = {1.2, 0.9, -0.4, 0.7};

// in: x (nx values), out: nout values with entry out0; seeds sout.
template <class F, class PB>
static void outtest(const char *nm, int nx, const double *x0, int nout,
                    const double *out0, const double *sout, F f, PB pb) {
  fdc::Vars at;
  at.add("x", x0, nx).add("out", out0, nout);
  fdc::Loss L = [&](fdc::Reader &r) {
    std::vector<double> x = r.vec(nx), out = r.vec(nout);
    f(x.data(), out.data());
    return fdc::dot(sout, out.data(), nout);
  };
  fdc::Vars got;
#ifndef PRIMAL_ONLY
  std::vector<double> dx(nx, 0.0), out(out0, out0 + nout), ref = out;
  std::vector<double> dout(sout, sout + nout);
  f(x0, ref.data());
  pb(x0, out.data(), dx.data(), dout.data());
  fdc::same(nm, out.data(), ref.data(), nout);
  got.add(dx).add(dout);
#else
  (void)pb;
#endif
  fdc::check(nm, at, L, got);
}

int main() {
  double e0[4] = {3.0, -2.0, 0.5, 0.25}, se[4] = {0.7, -1.3, 0.4, 2.0};
  outtest("residual", 2, X0, 2, e0, se,
          [](const double *x, double *e) { residual(x, e); },
          [](const double *x, double *e, double *dx, double *de) {
#ifndef PRIMAL_ONLY
            residual_pullback(x, e, dx, de);
#endif
          });
  // stats: the two scalar outputs are packed as out[0] = mean, out[1] = var.
  outtest("stats", 4, X0, 2, e0, se,
          [](const double *x, double *o) { stats(x, 4, &o[0], &o[1]); },
          [](const double *x, double *o, double *dx, double *dout) {
#ifndef PRIMAL_ONLY
            double m = o[0], v = o[1], dm = dout[0], dv = dout[1];
            stats_pullback(x, 4, &m, &v, dx, &dm, &dv);
            o[0] = m, o[1] = v, dout[0] = dm, dout[1] = dv;
#endif
          });
  // add_penalty with lambda folded into the test point as x[4].
  double xl[5] = {X0[0], X0[1], X0[2], X0[3], 2.5};
  outtest("add_penalty", 5, xl, 4, e0, se,
          [](const double *x, double *e) { add_penalty(x, 4, x[4], e); },
          [](const double *x, double *e, double *dx, double *de) {
#ifndef PRIMAL_ONLY
            add_penalty_pullback(x, 4, x[4], e, dx, &dx[4], de);
#endif
          });
  double a0[1] = {2.7}, o0[1] = {-5.0}, so[1] = {1.6};
  outtest("newton_sqrt", 1, a0, 1, o0, so,
          [](const double *a, double *o) { newton_sqrt(a[0], o); },
          [](const double *a, double *o, double *da, double *dout) {
#ifndef PRIMAL_ONLY
            newton_sqrt_pullback(a[0], o, da, dout);
#endif
          });
  return fdc::finish();
}
