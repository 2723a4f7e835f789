//===- enzyme.h - Enzyme's gradients for side-by-side columns ---*- C++ -*-===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Enzyme's gradients of the benchmark objectives, with the signatures of
/// the benchmarks' pullbacks (they add into the adjoints; the seed is 1).
/// Built only when CMake is given Enzyme's clang plugin
/// (`-DGRAD_ENZYME_PLUGIN=PATH`, Enzyme built by hand outside this
/// repository: docs/performance.md): gmm_enzyme.cpp and map_enzyme.cpp
/// are then compiled with it, each a translation unit of its own (Enzyme's
/// plugin changes how LLVM optimises every function of a translation unit
/// it is loaded into), and bench_gmm and bench_map register KERNEL/enzyme.
///
//===----------------------------------------------------------------------===//

#ifndef GRAD_BENCH_ENZYME_H
#define GRAD_BENCH_ENZYME_H

#include <vector>

namespace enzyme {

// gmm_enzyme.cpp: the same three GMM objectives (gmm_objectives.h).
void gmmArr(int d, int k, int n, const double *alphas, const double *means,
            const double *icf, const double *x, double gamma, int m,
            double dret, double *dal, double *dmu, double *dicf);
void gmmVec(int d, int k, int n, const double *alphas, const double *means,
            const double *icf, const double *x, double gamma, int m,
            double dret, double *dal, double *dmu, double *dicf);
void gmmC(int d, int k, int n, const double *alphas, const double *means,
          const double *icf, const double *x, double gamma, int m,
          double dret, double *dal, double *dmu, double *dicf);

// map_enzyme.cpp: the map kernels as an Enzyme user writes them, a plain
// loop over the elements summing f(x[i]).
void fabsLoop(const std::vector<double> &x, double d, std::vector<double> *dx);
void cbrtLoop(const std::vector<double> &x, double d, std::vector<double> *dx);
void tanhLoop(const std::vector<double> &x, double d, std::vector<double> *dx);
void compositeLoop(const std::vector<double> &x, double d,
                   std::vector<double> *dx);
void captureLoop(const std::vector<double> &x, const std::vector<double> &y,
                 double d, std::vector<double> *dx, std::vector<double> *dy);

} // namespace enzyme

#endif
