// Hessian-vector products of functions taking std::vector parameters: the
// pullback's entry check of the adjoint's shape (check_shape(*d_x, x, ...))
// is pushed forward as the same check on the adjoint's tangent, the HVP's
// output (it was refused as "read of the adjoint 'd_x'" for every vector
// parameter). Checked against central differences of the pullback.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>
#include <vector>

[[grad::hessian]] double energy(const std::vector<double> &x, double s) {
  double r = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    r += s * std::sin(x[i]) * x[i];
  return r + x[0] * x[1];
}

int main() {
  std::vector<double> x{0.4, -1.1, 0.7}, v{0.3, 0.5, -0.2};
  double s = 1.3, vs = -0.4;
  std::vector<double> hx(3, 0.0);
  double hs = 0;
  energy_hvp(x, s, v, vs, &hx, &hs);
  // Central differences of the gradient along (v, vs).
  auto grad = [&](double t, std::vector<double> &gx, double &gs) {
    std::vector<double> xt(3);
    for (int i = 0; i < 3; ++i)
      xt[i] = x[i] + t * v[i];
    gx.assign(3, 0.0);
    gs = 0;
    energy_pullback(xt, s + t * vs, 1.0, &gx, &gs);
  };
  const double h = 1e-5;
  std::vector<double> gp, gm;
  double sp, sm;
  grad(h, gp, sp);
  grad(-h, gm, sm);
  for (int i = 0; i < 3; ++i)
    gradcheck::expect("energy.hvp.x" + std::to_string(i), hx[i],
                      (gp[i] - gm[i]) / (2 * h), 1e-7);
  gradcheck::expect("energy.hvp.s", hs, (sp - sm) / (2 * h), 1e-7);
  // CHECK: ok energy.hvp.x0
  // CHECK: ok energy.hvp.x1
  // CHECK: ok energy.hvp.x2
  // CHECK: ok energy.hvp.s
  return gradcheck::failures();
}
