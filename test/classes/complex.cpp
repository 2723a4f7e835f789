// std::complex<double> values: construction, arithmetic with complex and
// real operands, every <complex> function (the holomorphic ones through
// rules.def's GRAD_COMPLEX rows, abs/arg/norm/real/imag/conj/proj/polar
// built in), the setters and compound assignments, loops, helpers taking
// and returning complex numbers, and complex parameters (their adjoint is
// d/dre + i d/dim). Checked against central differences at points in
// all four quadrants (away from the branch cuts).
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "vecgrad.h"
#include <cmath>
#include <complex>
using cd = std::complex<double>;

// DUMP-LABEL: void arith_pullback({{.*}}) {
// DUMP: std::complex<double> z = std::complex<double>(x, y);
// DUMP: std::complex<double> w = z * z + 2. * z - _t{{[0-9]+}} / z + x;
[[grad]] double arith(double x, double y) {
  cd z(x, y);
  cd w = z * z + 2.0 * z - cd{y, 1.5} / z + x;
  cd v = -w * (1.0 - z) / 3.0 + (+z);
  return w.real() * std::imag(v) + std::real(w / v);
}
// One function per <complex> function: re + 0.3 im of f(z).
#define CF(F) [[grad]] double c_##F(double x, double y) { cd r = std::F(cd(x, y)); return r.real() + 0.3 * r.imag(); }
CF(exp) CF(log) CF(log10) CF(sqrt) CF(sin) CF(cos) CF(tan) CF(asin) CF(acos)
CF(atan) CF(sinh) CF(cosh) CF(tanh) CF(asinh) CF(acosh) CF(atanh) CF(conj)
CF(proj)
#undef CF
[[grad]] double c_real(double x, double y) { cd z{x * y, y}; return std::real(z) * std::imag(z); }
[[grad]] double c_abs(double x, double y) { return std::abs(cd(x, y) * cd(y, 2.0)); }
[[grad]] double c_arg(double x, double y) { return std::arg(cd(x, y)) * y; }
[[grad]] double c_norm(double x, double y) { return std::norm(cd(x, y) - 0.5); }
[[grad]] double c_polar(double x, double y) {
  cd p = std::polar(x, y) + std::polar(y);
  return p.real() + 2 * p.imag();
}
// DUMP-LABEL: void c_pow_pullback({{.*}}) {
// DUMP: ::std::conj(
[[grad]] double c_pow(double x, double y) {
  cd z(x, y);
  cd a = std::pow(z, cd(0.5, y)) + std::pow(z, 2.5) + std::pow(1.7, z) +
         std::pow(x, cd(y, 0.25)) + std::pow(z, 3);
  return a.real() - a.imag();
}
// Setters and compound assignments write the number in place.
[[grad]] double updates(double x, double y) {
  cd c;
  c.real(5 * x);
  c.imag(x * y);
  cd z = c;
  z += cd(y, x);
  z *= 2.0;
  z -= x;
  z *= z;
  z /= cd(1.0, y);
  c.imag(c.real() * y);
  return std::abs(z) + c.imag() + z.real();
}
// A loop: z <- z * z + c (values overwritten each iteration are taped).
[[grad]] double mandel(double x, double y) {
  cd c(x, y), z = 0.0;
  for (int i = 0; i < 6; ++i)
    z = z * z + c;
  return std::norm(z);
}
static cd mobius(cd z, double a) { return (z - a) / (1.0 - a * z); }
static double energy(const cd &z) { return std::norm(z) + std::exp(z).real(); }
[[grad]] double helpers(double x, double y) {
  cd m = mobius(cd(x, y), 0.3 * x);
  return energy(m) + energy(mobius(m, y));
}
// Another precision: a double seed meets a complex<long double>.
[[grad]] double c_prec(double x, double y) {
  std::complex<long double> z(x, y);
  return (double)std::real(std::exp(z) * z) + (double)std::abs(z * 0.5L);
}
// A complex parameter: its adjoint is d/dre + i d/dim.
[[grad]] double param(cd z, double s) { return std::abs(std::sin(z) * s) + (z * z).imag(); }

int main() {
  const double Points[][2] = {{0.7, 1.3}, {-0.8, 0.45}, {-1.1, -0.6}, {0.9, -0.35}};
#define XY(F) for (auto &P : Points) { double dx = 0, dy = 0; F##_pullback(P[0], P[1], 1, &dx, &dy); \
    vecgrad::check(#F, [](const std::vector<double>& V){ return F(V[0], V[1]); }, {P[0], P[1]}, {dx, dy}); }
  XY(arith) XY(c_exp) XY(c_log) XY(c_log10) XY(c_sqrt) XY(c_sin) XY(c_cos)
  XY(c_tan) XY(c_asin) XY(c_acos) XY(c_atan) XY(c_sinh) XY(c_cosh) XY(c_tanh)
  XY(c_asinh) XY(c_acosh) XY(c_atanh) XY(c_conj) XY(c_proj) XY(c_real)
  XY(c_abs) XY(c_arg) XY(c_norm) XY(c_polar) XY(c_pow) XY(updates) XY(mandel)
  XY(helpers) XY(c_prec)
  for (auto &P : Points) {
    cd dz = 0;
    double ds = 0;
    param_pullback(cd(P[0], P[1]), 1.5, 1.0, &dz, &ds);
    vecgrad::check("param", [](const std::vector<double> &V) { return param(cd(V[0], V[1]), V[2]); },
                   {P[0], P[1], 1.5}, {dz.real(), dz.imag(), ds});
  }
  // CHECK-COUNT-8: ok arith.d
  // CHECK-COUNT-8: ok c_exp.d
  // CHECK-COUNT-8: ok c_log.d
  // CHECK-COUNT-8: ok c_log10.d
  // CHECK-COUNT-8: ok c_sqrt.d
  // CHECK-COUNT-8: ok c_sin.d
  // CHECK-COUNT-8: ok c_cos.d
  // CHECK-COUNT-8: ok c_tan.d
  // CHECK-COUNT-8: ok c_asin.d
  // CHECK-COUNT-8: ok c_acos.d
  // CHECK-COUNT-8: ok c_atan.d
  // CHECK-COUNT-8: ok c_sinh.d
  // CHECK-COUNT-8: ok c_cosh.d
  // CHECK-COUNT-8: ok c_tanh.d
  // CHECK-COUNT-8: ok c_asinh.d
  // CHECK-COUNT-8: ok c_acosh.d
  // CHECK-COUNT-8: ok c_atanh.d
  // CHECK-COUNT-8: ok c_conj.d
  // CHECK-COUNT-8: ok c_proj.d
  // CHECK-COUNT-8: ok c_real.d
  // CHECK-COUNT-8: ok c_abs.d
  // CHECK-COUNT-8: ok c_arg.d
  // CHECK-COUNT-8: ok c_norm.d
  // CHECK-COUNT-8: ok c_polar.d
  // CHECK-COUNT-8: ok c_pow.d
  // CHECK-COUNT-8: ok updates.d
  // CHECK-COUNT-8: ok mandel.d
  // CHECK-COUNT-8: ok helpers.d
  // CHECK-COUNT-8: ok c_prec.d
  // CHECK-COUNT-12: ok param.d
  return gradcheck::failures();
}
