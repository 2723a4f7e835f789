// Vector mode: [[grad::forward("lanes=N")]] declares, next to the scalar
// f_pushforward, an overload whose tangents are grad::lanes<T, N> (N
// directions in one pass; docs/abi.md). Every parameter kind (scalars,
// read-only arrays, in/out pointers and references), local arrays, pointer
// walks, ?:, casts, rules, and helpers differentiated on demand (which get
// vector pushforwards of their own). Each lane is checked against central
// differences along its direction, and lane k of a batch must equal the
// scalar pushforward along the same direction.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "fwdcheck.h"
#include "vecgrad.h"
#include <cmath>
#include <cstdio>

using V = std::vector<double>;
template <std::size_t N> using L = grad::lanes<double, N>;

static double sq(double a) { return a * a; }
static void axpy(int n, double a, const double *x, double *y) {
  for (int i = 0; i < n; ++i)
    y[i] += a * x[i];
}

// DUMP: ::grad::dual<double> mix_pushforward(double x, double y, const double *p, double t_x, double t_y, const double *t_p);
// DUMP: ::grad::dual<double, 3UL> mix_pushforward(double x, double y, const double *p, ::grad::lanes<double, 3UL> t_x, ::grad::lanes<double, 3UL> t_y, const ::grad::lanes<double, 3UL> *t_p);
// DUMP: static void axpy_pushforward(int n, double a, const double *x, double *y, ::grad::lanes<double, 3UL> t_a, const ::grad::lanes<double, 3UL> *t_x, ::grad::lanes<double, 3UL> *t_y);
[[grad::forward("lanes=3")]] double mix(double x, double y, const double *p) {
  double a[3] = {x, y, x * y};
  double s = 0;
  for (int i = 0; i < 3; ++i)
    s += std::sin(a[i]) * p[i];
  double t = x > 0 ? sq(x) : -y;
  axpy(3, t, p, a);
  long double g = (long double)y * 2;
  return s + a[2] * g + std::exp(t / 4) / (1 + a[0] * a[0]);
}

// Out-parameters and an in/out reference: their tangents are lanes too.
// DUMP: void resid_pushforward(const double *x, int n, double *out, double &acc, const ::grad::lanes<double, 4UL> *t_x, ::grad::lanes<double, 4UL> *t_out, ::grad::lanes<double, 4UL> *t_acc);
[[grad::forward("x, out, acc", "lanes=4")]] void resid(const double *x, int n,
                                                      double *out,
                                                      double &acc) {
  const double *p = x;
  double *o = out;
  for (int i = 0; i + 1 < n; ++i) {
    double d = *(p + 1) - *p;
    *o++ = std::tanh(d) * x[0];
    acc += d * d;
    ++p;
  }
  acc = std::sqrt(acc);
}

// Accessors (locations in their argument) on lanes: the location in
// tangent memory is the same offset from the tangent base.
static double *row(double *A, int i, int n) { return A + i * n; }
static const double &cell(const double *A, int i) { return A[i]; }
[[grad::forward("lanes=2")]] double acc(const double *x) {
  double M[4] = {x[0], x[1], x[0] * x[1], 1};
  double *r = row(M, 1, 2);
  r[0] += x[2];
  double *q = row(M, 0, 2);
  *q *= x[1];
  return cell(M, 0) * cell(M, 2) + std::sin(cell(x, 2));
}

// Lanes wider than the inputs: the unused lanes stay zero.
[[grad::forward("lanes=8")]] double wide(double x, double y) {
  double r = 1;
  int k = 0;
  while (k < 3) {
    r = r * x + std::pow(y, k);
    ++k;
  }
  return r;
}

// A user's scalar pushforward wins in vector mode too: called once per lane.
static int UserCalls = 0;
static double softplus(double a) { return std::log1p(std::exp(a)); }
grad::dual<double> softplus_pushforward(double a, double t_a) {
  ++UserCalls;
  double e = std::exp(a);
  return {std::log1p(e), {t_a * e / (1 + e)}};
}
// DUMP-LABEL: ::grad::dual<double, 2UL> usr_pushforward(double x, double y, ::grad::lanes<double, 2UL> t_x, ::grad::lanes<double, 2UL> t_y) {
// DUMP: for (unsigned long _k{{[0-9]+}} = 0UL; _k{{[0-9]+}} < 2UL; ++_k{{[0-9]+}}) {
// DUMP-NEXT: grad::dual<double> _r{{[0-9]+}} = ::softplus_pushforward(_v{{[0-9]+}}, _v{{[0-9]+}}[_k{{[0-9]+}}]);
[[grad::forward("lanes=2")]] double usr(double x, double y) {
  return softplus(x * y) + x;
}

int main() {
  const V X0{0.7, -0.4, 1.5, -0.3, 0.8};
  fwdcheck::lanes<3>(
      "mix", [](const V &X) { return mix(X[0], X[1], X.data() + 2); },
      [](const V &X, const std::vector<L<3>> &D) {
        auto R = mix_pushforward(X[0], X[1], X.data() + 2, D[0], D[1],
                                 D.data() + 2);
        gradcheck::expect("mix.val", R.val, mix(X[0], X[1], X.data() + 2),
                          1e-15);
        // Lane k equals the scalar pushforward along direction k.
        for (int K = 0; K < 3; ++K) {
          double T[3] = {D[2].der[K], D[3].der[K], D[4].der[K]};
          double S = mix_pushforward(X[0], X[1], X.data() + 2, D[0].der[K],
                                     D[1].der[K], T)
                         .der[0];
          if (S != R.der[K])
            std::printf("FAIL mix lane %d: %.17g vs scalar %.17g\n", K,
                        R.der[K], S);
        }
        return R;
      },
      X0);
  fwdcheck::lanes<3>(
      "mixneg", [](const V &X) { return mix(X[0], X[1], X.data() + 2); },
      [](const V &X, const std::vector<L<3>> &D) {
        return mix_pushforward(X[0], X[1], X.data() + 2, D[0], D[1],
                               D.data() + 2);
      },
      {-0.7, -0.4, 1.5, -0.3, 0.8});
  // resid: x has 4 entries, out 3, acc 1 (in/out). Each output separately.
  for (int Out = 0; Out < 4; ++Out)
    fwdcheck::lanes<4>(
        "resid" + std::to_string(Out),
        [Out](const V &X) {
          double o[3], acc = X[4];
          resid(X.data(), 4, o, acc);
          return Out < 3 ? o[Out] : acc;
        },
        [Out](const V &X, const std::vector<L<4>> &D) {
          double o[3], acc = X[4];
          L<4> to[3], tacc = D[4];
          resid_pushforward(X.data(), 4, o, acc, D.data(), to, &tacc);
          return Out < 3 ? to[Out] : tacc;
        },
        {0.3, 0.9, -0.2, 0.5, 0.6});
  fwdcheck::lanes<2>(
      "acc", [](const V &X) { return acc(X.data()); },
      [](const V &X, const std::vector<L<2>> &D) {
        return acc_pushforward(X.data(), D.data());
      },
      {0.3, -0.8, 1.1});
  fwdcheck::lanes<8>(
      "wide", [](const V &X) { return wide(X[0], X[1]); },
      [](const V &X, const std::vector<L<8>> &D) {
        auto R = wide_pushforward(X[0], X[1], D[0], D[1]);
        for (int K = 3; K < 8; ++K)
          if (R.der[K] != 0)
            std::printf("FAIL wide lane %d is %g\n", K, R.der[K]);
        return R;
      },
      {1.3, 0.6});
  UserCalls = 0;
  fwdcheck::lanes<2>(
      "usr", [](const V &X) { return usr(X[0], X[1]); },
      [](const V &X, const std::vector<L<2>> &D) {
        return usr_pushforward(X[0], X[1], D[0], D[1]);
      },
      {0.4, -1.2});
  std::printf("%s usr: %d user calls\n", UserCalls == 4 ? "ok" : "FAIL",
              UserCalls);
  return gradcheck::failures();
}

// CHECK: ok mix.v0
// CHECK: ok mix.v5
// CHECK: ok mixneg.v5
// CHECK: ok resid0.v0
// CHECK: ok resid2.v5
// CHECK: ok resid3.v5
// CHECK: ok acc.v3
// CHECK: ok wide.v0
// CHECK: ok wide.v2
// CHECK: ok usr.v2
// CHECK: ok usr: 4 user calls
