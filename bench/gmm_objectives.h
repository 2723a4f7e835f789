//===- gmm_objectives.h - The GMM objectives of bench_gmm -------*- C++ -*-===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The objectives of gmm.cpp (see there), in a file of their own so that
/// gmm_enzyme.cpp can hand the same source to Enzyme in a translation unit
/// of its own (inside a namespace; Enzyme's plugin changes how LLVM
/// optimises every function of a translation unit it is loaded into).
/// Included after <cmath> and <vector>, with MaxD and MaxK declared.
///
//===----------------------------------------------------------------------===//

[[grad("alphas, means, icf")]] double
gmm_arr(int d, int k, int n, const double *alphas, const double *means,
        const double *icf, const double *x, double gamma, int m) {
  const int icf_sz = d * (d + 1) / 2;
  double Qdiags[MaxD * MaxK];
  double sum_qs[MaxK];
  double xc[MaxD];
  double Qxc[MaxD];
  double main_term[MaxK];
  for (int ik = 0; ik < k; ++ik) {
    double s = 0;
    for (int id = 0; id < d; ++id) {
      const double q = icf[ik * icf_sz + id];
      s += q;
      Qdiags[ik * d + id] = std::exp(q);
    }
    sum_qs[ik] = s;
  }
  double slse = 0;
  for (int ix = 0; ix < n; ++ix) {
    for (int ik = 0; ik < k; ++ik) {
      for (int id = 0; id < d; ++id)
        xc[id] = x[ix * d + id] - means[ik * d + id];
      for (int id = 0; id < d; ++id)
        Qxc[id] = Qdiags[ik * d + id] * xc[id];
      int li = ik * icf_sz + d;
      for (int i = 0; i < d; ++i)
        for (int j = i + 1; j < d; ++j) {
          Qxc[j] = Qxc[j] + icf[li] * xc[i];
          ++li;
        }
      double sq = 0;
      for (int id = 0; id < d; ++id)
        sq += Qxc[id] * Qxc[id];
      main_term[ik] = alphas[ik] + sum_qs[ik] - 0.5 * sq;
    }
    double mx = main_term[0];
    for (int ik = 1; ik < k; ++ik)
      if (main_term[ik] > mx)
        mx = main_term[ik];
    double se = 0;
    for (int ik = 0; ik < k; ++ik)
      se += std::exp(main_term[ik] - mx);
    slse += std::log(se) + mx;
  }
  double amx = alphas[0];
  for (int ik = 1; ik < k; ++ik)
    if (alphas[ik] > amx)
      amx = alphas[ik];
  double ase = 0;
  for (int ik = 0; ik < k; ++ik)
    ase += std::exp(alphas[ik] - amx);
  const double lse_alphas = std::log(ase) + amx;
  // Wishart prior without its constant.
  double prior = 0;
  for (int ik = 0; ik < k; ++ik) {
    double fro = 0;
    for (int id = 0; id < d; ++id)
      fro += Qdiags[ik * d + id] * Qdiags[ik * d + id];
    for (int id = d; id < icf_sz; ++id)
      fro += icf[ik * icf_sz + id] * icf[ik * icf_sz + id];
    prior += 0.5 * gamma * gamma * fro - m * sum_qs[ik];
  }
  return slse - n * lse_alphas + prior;
}

[[grad("alphas, means, icf")]] double
gmm_vec(int d, int k, int n, const double *alphas, const double *means,
        const double *icf, const double *x, double gamma, int m) {
  const int icf_sz = d * (d + 1) / 2;
  std::vector<double> Qdiags(d * k);
  std::vector<double> sum_qs(k);
  std::vector<double> xc(d);
  std::vector<double> Qxc(d);
  std::vector<double> main_term(k);
  for (int ik = 0; ik < k; ++ik) {
    double s = 0;
    for (int id = 0; id < d; ++id) {
      const double q = icf[ik * icf_sz + id];
      s += q;
      Qdiags[ik * d + id] = std::exp(q);
    }
    sum_qs[ik] = s;
  }
  double slse = 0;
  for (int ix = 0; ix < n; ++ix) {
    for (int ik = 0; ik < k; ++ik) {
      for (int id = 0; id < d; ++id)
        xc[id] = x[ix * d + id] - means[ik * d + id];
      for (int id = 0; id < d; ++id)
        Qxc[id] = Qdiags[ik * d + id] * xc[id];
      int li = ik * icf_sz + d;
      for (int i = 0; i < d; ++i)
        for (int j = i + 1; j < d; ++j) {
          Qxc[j] = Qxc[j] + icf[li] * xc[i];
          ++li;
        }
      double sq = 0;
      for (int id = 0; id < d; ++id)
        sq += Qxc[id] * Qxc[id];
      main_term[ik] = alphas[ik] + sum_qs[ik] - 0.5 * sq;
    }
    double mx = main_term[0];
    for (int ik = 1; ik < k; ++ik)
      if (main_term[ik] > mx)
        mx = main_term[ik];
    double se = 0;
    for (int ik = 0; ik < k; ++ik)
      se += std::exp(main_term[ik] - mx);
    slse += std::log(se) + mx;
  }
  double amx = alphas[0];
  for (int ik = 1; ik < k; ++ik)
    if (alphas[ik] > amx)
      amx = alphas[ik];
  double ase = 0;
  for (int ik = 0; ik < k; ++ik)
    ase += std::exp(alphas[ik] - amx);
  const double lse_alphas = std::log(ase) + amx;
  double prior = 0;
  for (int ik = 0; ik < k; ++ik) {
    double fro = 0;
    for (int id = 0; id < d; ++id)
      fro += Qdiags[ik * d + id] * Qdiags[ik * d + id];
    for (int id = d; id < icf_sz; ++id)
      fro += icf[ik * icf_sz + id] * icf[ik * icf_sz + id];
    prior += 0.5 * gamma * gamma * fro - m * sum_qs[ik];
  }
  return slse - n * lse_alphas + prior;
}

// gmm_c: the objective as ADBench's C++ writes it (shared/gmm.h): small C
// helpers taking lengths and pointers, results through out-parameters, the
// components addressed as &means[ik * d], scratch in std::vector<double>
// passed as .data() / &v[0], and the result written through `double *err`.
// CONSTANT and the Wishart normaliser are kept except for its lgamma term.

struct Wishart {
  double gamma;
  int m;
};

double arr_max(int n, const double *const x) {
  double m = x[0];
  for (int i = 1; i < n; i++)
    if (m < x[i])
      m = x[i];
  return m;
}

double sqnorm(int n, const double *const x) {
  double res = x[0] * x[0];
  for (int i = 1; i < n; i++)
    res = res + x[i] * x[i];
  return res;
}

void subtract(int d, const double *const x, const double *const y,
              double *out) {
  for (int id = 0; id < d; id++)
    out[id] = x[id] - y[id];
}

double logsumexp(int n, const double *const x) {
  double mx = arr_max(n, x);
  double semx = 0.;
  for (int i = 0; i < n; i++)
    semx = semx + std::exp(x[i] - mx);
  return std::log(semx) + mx;
}

void preprocess_qs(int d, int k, const double *const icf, double *sum_qs,
                   double *Qdiags) {
  int icf_sz = d * (d + 1) / 2;
  for (int ik = 0; ik < k; ik++) {
    sum_qs[ik] = 0.;
    for (int id = 0; id < d; id++) {
      double q = icf[ik * icf_sz + id];
      sum_qs[ik] = sum_qs[ik] + q;
      Qdiags[ik * d + id] = std::exp(q);
    }
  }
}

void Qtimesx(int d, const double *const Qdiag, const double *const ltri,
             const double *const x, double *out) {
  for (int id = 0; id < d; id++)
    out[id] = Qdiag[id] * x[id];
  int Lparamsidx = 0;
  for (int i = 0; i < d; i++)
    for (int j = i + 1; j < d; j++) {
      out[j] = out[j] + ltri[Lparamsidx] * x[i];
      Lparamsidx++;
    }
}

double log_wishart_prior(int p, int k, Wishart wishart,
                         const double *const sum_qs, const double *const Qdiags,
                         const double *const icf) {
  int n = p + wishart.m + 1;
  int icf_sz = p * (p + 1) / 2;
  // ADBench also subtracts log_gamma_distrib(0.5 * n, p) here.
  double C = n * p * (std::log(wishart.gamma) - 0.5 * std::log(2));
  double out = 0;
  for (int ik = 0; ik < k; ik++) {
    double frobenius =
        sqnorm(p, &Qdiags[ik * p]) + sqnorm(icf_sz - p, &icf[ik * icf_sz + p]);
    out = out + 0.5 * wishart.gamma * wishart.gamma * frobenius -
          wishart.m * sum_qs[ik];
  }
  return out - k * C;
}

[[grad("alphas, means, icf, err")]] void
gmm_objective(int d, int k, int n, const double *const alphas,
              const double *const means, const double *const icf,
              const double *const x, Wishart wishart, double *err) {
  const double CONSTANT = -n * d * 0.5 * std::log(2 * M_PI);
  int icf_sz = d * (d + 1) / 2;
  std::vector<double> Qdiags(d * k);
  std::vector<double> sum_qs(k);
  std::vector<double> xcentered(d);
  std::vector<double> Qxcentered(d);
  std::vector<double> main_term(k);
  preprocess_qs(d, k, icf, &sum_qs[0], &Qdiags[0]);
  double slse = 0.;
  for (int ix = 0; ix < n; ix++) {
    for (int ik = 0; ik < k; ik++) {
      subtract(d, &x[ix * d], &means[ik * d], xcentered.data());
      Qtimesx(d, &Qdiags[ik * d], &icf[ik * icf_sz + d], xcentered.data(),
              Qxcentered.data());
      main_term[ik] = alphas[ik] + sum_qs[ik] - 0.5 * sqnorm(d, &Qxcentered[0]);
    }
    slse = slse + logsumexp(k, &main_term[0]);
  }
  double lse_alphas = logsumexp(k, alphas);
  *err = CONSTANT + slse - n * lse_alphas;
  *err = *err + log_wishart_prior(d, k, wishart, &sum_qs[0], &Qdiags[0], icf);
}
