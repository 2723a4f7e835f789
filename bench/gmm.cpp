//===- gmm.cpp - Gaussian-mixture log-likelihood (ADBench objective) ------===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The ADBench GMM objective (d = 10, K = 25, n = 1000) written as plain
/// loops over const double* arrays, with its helpers (subtract, Qtimesx,
/// sqnorm, logsumexp, the Wishart prior) inlined. Gradient w.r.t. the
/// weights alphas, the means and the inverse-covariance factors icf only.
/// Two variants: fixed-size local arrays as scratch (gmm_arr) and
/// std::vector<double> scratch buffers as ADBench writes it (gmm_vec). The
/// additive constants (which need lgamma) are left out: they change neither
/// the gradient nor the timing. A third variant, gmm_objective (gmm_c), is
/// written the C way ADBench's C++ is written: helpers taking pointers and
/// writing through out-parameters, &means[ik * d] arguments, the result
/// through `double *err`.
///
/// Benchmarks: gmm/primal, gmm/grad, gmm_vec/primal, gmm_vec/grad,
/// gmm_c/primal, gmm_c/grad, and gmm/hand (= gmm_vec/hand = gmm_c/hand: a
/// hand-written adjoint in the style of ADBench's manual derivative); with
/// Enzyme (enzyme.h), also KERNEL/enzyme. The objectives are in
/// gmm_objectives.h.
///
//===----------------------------------------------------------------------===//

#include "check.h"

#include <benchmark/benchmark.h>
#include <grad/grad.h>

#include <cmath>
#include <vector>

#ifdef GRAD_BENCH_ENZYME
#include "enzyme.h"
#endif

namespace {
constexpr int D = 10, K = 25, N = 1000, IcfSz = D * (D + 1) / 2;
constexpr int MaxD = 16, MaxK = 32;
} // namespace

#include "gmm_objectives.h"

/// Hand-written adjoint: per point, a forward pass keeping xc and Qxc for
/// every component, then the softmax weights of the log-sum-exp.
static void gmmHand(int d, int k, int n, const double *alphas,
                    const double *means, const double *icf, const double *x,
                    double gamma, int m, double dret, double *__restrict dal,
                    double *__restrict dmu, double *__restrict dicf) {
  const int icf_sz = d * (d + 1) / 2;
  std::vector<double> Qd(d * k), XC(d * k), QX(d * k), MT(k), DQX(d), DXC(d);
  for (int ik = 0; ik < k; ++ik)
    for (int id = 0; id < d; ++id)
      Qd[ik * d + id] = std::exp(icf[ik * icf_sz + id]);
  for (int ix = 0; ix < n; ++ix) {
    for (int ik = 0; ik < k; ++ik) {
      double *xc = &XC[ik * d], *qx = &QX[ik * d];
      const double *L = &icf[ik * icf_sz + d], *q = &Qd[ik * d];
      double sq = 0, sq0 = 0;
      for (int id = 0; id < d; ++id) {
        xc[id] = x[ix * d + id] - means[ik * d + id];
        qx[id] = q[id] * xc[id];
        sq0 += icf[ik * icf_sz + id];
      }
      for (int i = 0, li = 0; i < d; ++i)
        for (int j = i + 1; j < d; ++j)
          qx[j] += L[li++] * xc[i];
      for (int id = 0; id < d; ++id)
        sq += qx[id] * qx[id];
      MT[ik] = alphas[ik] + sq0 - 0.5 * sq;
    }
    double mx = MT[0];
    for (int ik = 1; ik < k; ++ik)
      mx = MT[ik] > mx ? MT[ik] : mx;
    double se = 0;
    for (int ik = 0; ik < k; ++ik) {
      MT[ik] = std::exp(MT[ik] - mx);
      se += MT[ik];
    }
    const double inv = dret / se;
    for (int ik = 0; ik < k; ++ik) {
      const double wk = MT[ik] * inv; // d main_term[ik]
      const double *xc = &XC[ik * d], *qx = &QX[ik * d], *q = &Qd[ik * d];
      const double *L = &icf[ik * icf_sz + d];
      double *dL = &dicf[ik * icf_sz + d];
      dal[ik] += wk;
      for (int id = 0; id < d; ++id) {
        DQX[id] = -wk * qx[id];
        dicf[ik * icf_sz + id] += wk + DQX[id] * xc[id] * q[id];
        DXC[id] = DQX[id] * q[id];
      }
      for (int i = 0, li = 0; i < d; ++i)
        for (int j = i + 1; j < d; ++j) {
          dL[li] += DQX[j] * xc[i];
          DXC[i] += DQX[j] * L[li];
          ++li;
        }
      for (int id = 0; id < d; ++id)
        dmu[ik * d + id] -= DXC[id];
    }
  }
  double amx = alphas[0];
  for (int ik = 1; ik < k; ++ik)
    amx = alphas[ik] > amx ? alphas[ik] : amx;
  double ase = 0;
  for (int ik = 0; ik < k; ++ik)
    ase += std::exp(alphas[ik] - amx);
  for (int ik = 0; ik < k; ++ik)
    dal[ik] -= dret * n * std::exp(alphas[ik] - amx) / ase;
  const double g2 = gamma * gamma;
  for (int ik = 0; ik < k; ++ik) {
    for (int id = 0; id < d; ++id) {
      const double q = Qd[ik * d + id];
      dicf[ik * icf_sz + id] += dret * (g2 * q * q - m);
    }
    for (int id = d; id < icf_sz; ++id)
      dicf[ik * icf_sz + id] += dret * g2 * icf[ik * icf_sz + id];
  }
}

namespace {
struct Inputs {
  std::vector<double> Alphas = bench::sample(K, 11),
                      Means = bench::sample(K * D, 12),
                      Icf = bench::sample(K * IcfSz, 13, -0.5, 0.5),
                      X = bench::sample(N * D, 14);
  double Gamma = 1.0;
  int M = 0;
};
Inputs &in() {
  static Inputs I;
  return I;
}

using PullbackFn = void (*)(int, int, int, const double *, const double *,
                            const double *, const double *, double, int, double,
                            double *, double *, double *);
using PrimalFn = double (*)(int, int, int, const double *, const double *,
                            const double *, const double *, double, int);

/// The gradient Pb computes (alphas, means, icf packed) checked against
/// finite differences of F; returns it for cross-checks.
std::vector<double> checkOne(const char *Name, PrimalFn F, PullbackFn Pb) {
  Inputs &I = in();
  std::vector<double> P = I.Alphas;
  P.insert(P.end(), I.Means.begin(), I.Means.end());
  P.insert(P.end(), I.Icf.begin(), I.Icf.end());
  std::vector<double> G(P.size(), 0.0);
  Pb(D, K, N, I.Alphas.data(), I.Means.data(), I.Icf.data(), I.X.data(),
     I.Gamma, I.M, 1.0, G.data(), G.data() + K, G.data() + K + K * D);
  auto Fn = [&] {
    return F(D, K, N, P.data(), P.data() + K, P.data() + K + K * D, I.X.data(),
             I.Gamma, I.M);
  };
  bench::expectGradient(Name, Fn, P, G, 1e-5, 60);
  return G;
}

/// gmm_objective behind the PrimalFn / PullbackFn signatures: the Wishart
/// struct built from (gamma, m), the result read from / seeded into err.
double gmmC(int d, int k, int n, const double *alphas, const double *means,
            const double *icf, const double *x, double gamma, int m) {
  double err;
  gmm_objective(d, k, n, alphas, means, icf, x, Wishart{gamma, m}, &err);
  return err;
}
void gmmCPullback(int d, int k, int n, const double *alphas,
                  const double *means, const double *icf, const double *x,
                  double gamma, int m, double dret, double *dal, double *dmu,
                  double *dicf) {
  double err = 0, derr = dret;
  gmm_objective_pullback(d, k, n, alphas, means, icf, x, Wishart{gamma, m},
                         &err, dal, dmu, dicf, &derr);
}

void checkAll() {
  const auto A = checkOne("gmm", gmm_arr, gmm_arr_pullback);
  const auto V = checkOne("gmm_vec", gmm_vec, gmm_vec_pullback);
  const auto C = checkOne("gmm_c", gmmC, gmmCPullback);
  const auto H = checkOne("gmm/hand", gmm_arr, gmmHand);
  bench::expectSame("gmm_vec vs gmm", V, A, 1e-9);
  bench::expectSame("gmm/hand vs gmm", H, A, 1e-9);
  bench::expectSame("gmm_c vs gmm/hand", C, H, 1e-9);
#ifdef GRAD_BENCH_ENZYME
  bench::expectSame("gmm/enzyme vs gmm/hand",
                    checkOne("gmm/enzyme", gmm_arr, enzyme::gmmArr), H, 1e-9);
  bench::expectSame("gmm_vec/enzyme vs gmm/hand",
                    checkOne("gmm_vec/enzyme", gmm_vec, enzyme::gmmVec), H,
                    1e-9);
  bench::expectSame("gmm_c/enzyme vs gmm/hand",
                    checkOne("gmm_c/enzyme", gmmC, enzyme::gmmC), H, 1e-9);
#endif
  // The value: gmm_arr plus the constants gmm_objective keeps.
  Inputs &I = in();
  const double Arr = gmm_arr(D, K, N, I.Alphas.data(), I.Means.data(),
                             I.Icf.data(), I.X.data(), I.Gamma, I.M);
  const double Consts =
      -N * D * 0.5 * std::log(2 * M_PI) -
      K * ((D + I.M + 1) * D * (std::log(I.Gamma) - 0.5 * std::log(2)));
  const std::vector<double> Cv = {gmmC(D, K, N, I.Alphas.data(),
                                       I.Means.data(), I.Icf.data(),
                                       I.X.data(), I.Gamma, I.M)};
  bench::expectSame("gmm_c value", Cv, std::vector<double>{Arr + Consts},
                    1e-12);
}

template <PrimalFn F> void primal(benchmark::State &S) {
  Inputs &I = in();
  for (auto _ : S)
    benchmark::DoNotOptimize(F(D, K, N, I.Alphas.data(), I.Means.data(),
                               I.Icf.data(), I.X.data(), I.Gamma, I.M));
}
template <PullbackFn Pb> void gradient(benchmark::State &S) {
  Inputs &I = in();
  std::vector<double> DA(K), DM(K * D), DI(K * IcfSz);
  for (auto _ : S) {
    Pb(D, K, N, I.Alphas.data(), I.Means.data(), I.Icf.data(), I.X.data(),
       I.Gamma, I.M, 1.0, DA.data(), DM.data(), DI.data());
    benchmark::ClobberMemory();
  }
}
} // namespace

int main(int argc, char **argv) {
  checkAll();
  benchmark::RegisterBenchmark("gmm/primal", primal<gmm_arr>);
  benchmark::RegisterBenchmark("gmm/grad", gradient<gmm_arr_pullback>);
  benchmark::RegisterBenchmark("gmm/hand", gradient<gmmHand>);
  benchmark::RegisterBenchmark("gmm_vec/primal", primal<gmm_vec>);
  benchmark::RegisterBenchmark("gmm_vec/grad", gradient<gmm_vec_pullback>);
  benchmark::RegisterBenchmark("gmm_vec/hand", gradient<gmmHand>);
  benchmark::RegisterBenchmark("gmm_c/primal", primal<gmmC>);
  benchmark::RegisterBenchmark("gmm_c/grad", gradient<gmmCPullback>);
  benchmark::RegisterBenchmark("gmm_c/hand", gradient<gmmHand>);
#ifdef GRAD_BENCH_ENZYME
  benchmark::RegisterBenchmark("gmm/enzyme", gradient<enzyme::gmmArr>);
  benchmark::RegisterBenchmark("gmm_vec/enzyme", gradient<enzyme::gmmVec>);
  benchmark::RegisterBenchmark("gmm_c/enzyme", gradient<enzyme::gmmC>);
#endif
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
