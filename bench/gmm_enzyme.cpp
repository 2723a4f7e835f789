//===- gmm_enzyme.cpp - Enzyme's gradient of the GMM objectives -----------===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Compiled with Enzyme's plugin (enzyme.h): Enzyme differentiates the
/// same source as bench_gmm's pullbacks, here in namespace src.
///
//===----------------------------------------------------------------------===//

#include "enzyme.h"

#include <cmath>
#include <vector>

namespace src {
constexpr int MaxD = 16, MaxK = 32;
#include "gmm_objectives.h"

/// gmm_objective with the Wishart parameters as numbers.
void gmmCErr(int d, int k, int n, const double *alphas, const double *means,
             const double *icf, const double *x, double gamma, int m,
             double *err) {
  gmm_objective(d, k, n, alphas, means, icf, x, Wishart{gamma, m}, err);
}
} // namespace src

// What Enzyme replaces: enzyme_const and enzyme_dup say how the next
// argument is passed (not differentiated; a pointer and its shadow).
extern "C" {
int enzyme_const, enzyme_dup;
void __enzyme_autodiff(void *, ...);
}

namespace enzyme {

using Objective = double (*)(int, int, int, const double *, const double *,
                             const double *, const double *, double, int);

template <Objective F>
static void gradient(int d, int k, int n, const double *alphas,
                     const double *means, const double *icf, const double *x,
                     double gamma, int m, double *dal, double *dmu,
                     double *dicf) {
  __enzyme_autodiff((void *)F, enzyme_const, d, enzyme_const, k, enzyme_const,
                    n, enzyme_dup, alphas, dal, enzyme_dup, means, dmu,
                    enzyme_dup, icf, dicf, enzyme_const, x, enzyme_const,
                    gamma, enzyme_const, m);
}

// (A returned double's seed is Enzyme's 1: the benchmarks pass dret = 1.)
void gmmArr(int d, int k, int n, const double *alphas, const double *means,
            const double *icf, const double *x, double gamma, int m, double,
            double *dal, double *dmu, double *dicf) {
  gradient<src::gmm_arr>(d, k, n, alphas, means, icf, x, gamma, m, dal, dmu,
                         dicf);
}
void gmmVec(int d, int k, int n, const double *alphas, const double *means,
            const double *icf, const double *x, double gamma, int m, double,
            double *dal, double *dmu, double *dicf) {
  gradient<src::gmm_vec>(d, k, n, alphas, means, icf, x, gamma, m, dal, dmu,
                         dicf);
}
void gmmC(int d, int k, int n, const double *alphas, const double *means,
          const double *icf, const double *x, double gamma, int m,
          double dret, double *dal, double *dmu, double *dicf) {
  double err = 0, derr = dret;
  __enzyme_autodiff((void *)src::gmmCErr, enzyme_const, d, enzyme_const, k,
                    enzyme_const, n, enzyme_dup, alphas, dal, enzyme_dup,
                    means, dmu, enzyme_dup, icf, dicf, enzyme_const, x,
                    enzyme_const, gamma, enzyme_const, m, enzyme_dup, &err,
                    &derr);
}

} // namespace enzyme
