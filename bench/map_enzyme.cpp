//===- map_enzyme.cpp - Enzyme's gradient of the map kernels --------------===//
//
// Part of clang-grad, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Compiled with Enzyme's plugin (enzyme.h): the kernels of map.cpp as an
/// Enzyme user writes them, a plain loop over `const double *` summing
/// f(x[i]), differentiated by Enzyme.
///
//===----------------------------------------------------------------------===//

#include "enzyme.h"

#include <cmath>
#include <cstddef>
#include <vector>

namespace {
double sumFabs(const double *x, std::size_t n) {
  double s = 0;
  for (std::size_t i = 0; i < n; ++i)
    s += std::fabs(x[i]);
  return s;
}
double sumCbrt(const double *x, std::size_t n) {
  double s = 0;
  for (std::size_t i = 0; i < n; ++i)
    s += std::cbrt(x[i]);
  return s;
}
double sumTanh(const double *x, std::size_t n) {
  double s = 0;
  for (std::size_t i = 0; i < n; ++i)
    s += std::tanh(x[i]);
  return s;
}
double sumComposite(const double *x, std::size_t n) {
  double s = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double t = std::tanh(x[i]);
    s += 1.0 * t;
  }
  return s;
}
double sumCapture(const double *x, std::size_t n, const double *y) {
  double s = 0;
  for (std::size_t i = 0; i < n; ++i)
    s += x[i] * x[i] + y[0];
  return s;
}
} // namespace

// What Enzyme replaces: enzyme_const and enzyme_dup say how the next
// argument is passed (not differentiated; a pointer and its shadow).
extern "C" {
int enzyme_const, enzyme_dup;
void __enzyme_autodiff(void *, ...);
}

namespace enzyme {

using Kernel = double (*)(const double *, std::size_t);

// (The returned double's seed is Enzyme's 1: the benchmarks pass d = 1.)
template <Kernel F>
static void gradient(const std::vector<double> &x, std::vector<double> *dx) {
  __enzyme_autodiff((void *)F, enzyme_dup, x.data(), dx->data(), enzyme_const,
                    x.size());
}

void fabsLoop(const std::vector<double> &x, double, std::vector<double> *dx) {
  gradient<sumFabs>(x, dx);
}
void cbrtLoop(const std::vector<double> &x, double, std::vector<double> *dx) {
  gradient<sumCbrt>(x, dx);
}
void tanhLoop(const std::vector<double> &x, double, std::vector<double> *dx) {
  gradient<sumTanh>(x, dx);
}
void compositeLoop(const std::vector<double> &x, double,
                   std::vector<double> *dx) {
  gradient<sumComposite>(x, dx);
}
void captureLoop(const std::vector<double> &x, const std::vector<double> &y,
                 double, std::vector<double> *dx, std::vector<double> *dy) {
  __enzyme_autodiff((void *)sumCapture, enzyme_dup, x.data(), dx->data(),
                    enzyme_const, x.size(), enzyme_dup, y.data(), dy->data());
}

} // namespace enzyme
