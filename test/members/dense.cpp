// [[grad]] member functions: const methods reading members, operator()
// (call_pullback), a struct parameter, and a std::vector of layers looped
// over. The adjoint of the object is a same-shaped object (d_this last).
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
// DUMP: inline void Dense::unit_pullback(const std::vector<double> &x, int o, double d_ret, std::vector<double> *d_x, Dense *d_this) const {
// DUMP: inline void Dense::call_pullback(double x, double d_ret, double *d_x, Dense *d_this) const {
#include "gradcheck.h"
#include <cmath>
#include <grad/grad.h>
#include <vector>

struct Dense {
  std::vector<double> W, b;
  int in;
  [[grad]] double unit(const std::vector<double> &x, int o) const {
    double s = b[o];
    for (int i = 0; i < in; ++i)
      s += W[o * in + i] * x[i];
    return std::tanh(s);
  }
  [[grad]] double operator()(double x) const { return W[0] * x + b[0]; }
};

struct P {
  double a, c;
};
[[grad]] double usep(const P &p, double x) { return p.a * x * x + p.c; }

[[grad]] double net(const std::vector<Dense> &layers, double x) {
  double h = x;
  for (std::size_t l = 0; l < layers.size(); ++l)
    h = layers[l](h) * 0.5 + std::sin(h);
  return h;
}

static double netAt(std::vector<Dense> L, double x) { return net(L, x); }

int main() {
  Dense d{{0.1, 0.2, 0.3, 0.4}, {0.5, -0.5}, 2};
  std::vector<double> x{1.0, 2.0}, dx(2, 0.0);
  Dense dd{{0, 0, 0, 0}, {0, 0}, 0};
  d.unit_pullback(x, 1, 1.0, &dx, &dd);
  double s = -0.5 + 0.3 * 1 + 0.4 * 2, t = 1 - std::tanh(s) * std::tanh(s);
  // CHECK: ok unit.dx0
  gradcheck::expect("unit.dx0", dx[0], t * 0.3);
  // CHECK: ok unit.dW2
  gradcheck::expect("unit.dW2", dd.W[2], t * 1.0);
  // CHECK: ok unit.db1
  gradcheck::expect("unit.db1", dd.b[1], t);
  gradcheck::expect("unit.dW0", dd.W[0], 0.0);

  P p{2, 3}, dp{0, 0};
  double dxx = 0;
  usep_pullback(p, 1.5, 1.0, &dp, &dxx);
  // CHECK: ok usep.da
  gradcheck::expect("usep.da", dp.a, 2.25);
  gradcheck::expect("usep.dc", dp.c, 1.0);
  gradcheck::expect("usep.dx", dxx, 6.0);

  Dense e{{0.7, 0, 0, 0}, {-0.2, 0}, 1};
  std::vector<Dense> L{d, e, d};
  std::vector<Dense> dL(3, Dense{{0, 0, 0, 0}, {0, 0}, 0});
  double dnet = 0;
  net_pullback(L, 0.4, 1.0, &dL, &dnet);
  // CHECK: ok net.dx
  gradcheck::expect("net.dx", dnet,
                    gradcheck::fd([&](double v) { return netAt(L, v); }, 0, 0.4));
  // CHECK: ok net.dW0[1]
  gradcheck::expect("net.dW0[1]", dL[1].W[0],
                    gradcheck::fd([&](double w) {
                      auto M = L;
                      M[1].W[0] = w;
                      return netAt(M, 0.4);
                    }, 0, 0.7));
  // CHECK: ok net.db0[2]
  gradcheck::expect("net.db0[2]", dL[2].b[0],
                    gradcheck::fd([&](double b) {
                      auto M = L;
                      M[2].b[0] = b;
                      return netAt(M, 0.4);
                    }, 0, 0.5));
  return gradcheck::failures();
}
