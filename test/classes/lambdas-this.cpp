// Lambdas capturing `this` in member functions: as local functions
// (`auto f = [this](double t) { return w * t; }; f(x)`) and as the callable
// of grad::map, reading members (`w`, `this->c`, a const member call). The
// lifted function takes the object as `const Model &self`; the members'
// adjoints go to `d_this`. A lambda that writes members of `this` is an
// error (test/diagnostics/lambdas.cpp).
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "vecgrad.h"
#include <cmath>
#include <grad/grad.h>
#include <vector>
struct Model {
  double w, c;
  double bias() const { return c * c; }
  // DUMP-LABEL: static inline double _grad_lambda_{{[0-9]+}}(double x, const Model &self) {
  // DUMP-NEXT: return self.w * x * x + self.c;
  [[grad]] double loss(const std::vector<double> &v) const {
    return grad::sum(grad::map([this](double x) { return w * x * x + this->c; }, v));
  }
  double scale(double x) const {
    auto f = [this](double t) { return w * std::sin(t) + bias(); };
    return f(x) * f(c);
  }
  double both(double x) const {
    double k = x * x;
    return [&] { return k * w + c; }();
  }
};
[[grad]] double scaled(double x, double w) { Model m{w, 0.3 * x}; return m.scale(x); }
[[grad]] double both(double x, double w) { Model m{w, x}; return m.both(x) * m.both(w); }
int main() {
#define XY(F) { double dx = 0, dy = 0; F##_pullback(0.7, 1.3, 1, &dx, &dy); \
    vecgrad::check(#F, [](const std::vector<double>& V){ return F(V[0], V[1]); }, {0.7, 1.3}, {dx, dy}); }
  XY(scaled) XY(both)
  {
    std::vector<double> v{0.5, -1.25, 2.0}, dv(3, 0.0);
    Model m{0.8, -0.4}, dm{0, 0};
    m.loss_pullback(v, 1.0, &dv, &dm);
    vecgrad::check("loss", [&](const std::vector<double> &X) {
      Model q{X[3], X[4]};
      return q.loss({X[0], X[1], X[2]});
    }, {0.5, -1.25, 2.0, 0.8, -0.4}, {dv[0], dv[1], dv[2], dm.w, dm.c});
  }
  // CHECK: ok scaled.d0
  // CHECK: ok scaled.d1
  // CHECK: ok both.d0
  // CHECK: ok both.d1
  // CHECK: ok loss.d0
  // CHECK: ok loss.d1
  // CHECK: ok loss.d2
  // CHECK: ok loss.d3
  // CHECK: ok loss.d4
  return gradcheck::failures();
}
