// Calls a member pullback, free pullbacks (one naming a type of this file)
// and a pushforward: each is "undeclared" in an editor without
// clang_grad_ide(), and checked here against closed forms.
#include "spring.h"

#include <cmath>
#include <cstdio>

namespace phys {
double Spring::energy(const Particle &p) const {
  double d = p.x - rest;
  return 0.5 * k * d * d;
}
double kinetic(const Particle &p, double m) { return 0.5 * m * p.v * p.v; }
} // namespace phys

struct Weights {
  double a, b;
};

[[grad]] double model(double x, const Weights &w) {
  return w.a * std::sin(x) + w.b * x * x;
}

[[grad::forward]] double growth(double x, double r) { return x * std::exp(r); }

static int failures = 0;
static void expect(const char *name, double got, double want) {
  if (std::fabs(got - want) > 1e-12 * std::fabs(want)) {
    std::printf("FAIL %s %.17g %.17g\n", name, got, want);
    ++failures;
  }
}

int main() {
  phys::Spring s{3.0, 1.0}, ds{0.0, 0.0};
  phys::Particle p{1.5, -2.0}, dp{0.0, 0.0};
  s.energy_pullback(p, 1.0, &dp, &ds);
  expect("d energy / dx", dp.x, 3.0 * 0.5);
  expect("d energy / dk", ds.k, 0.5 * 0.25);

  phys::Particle dq{0.0, 0.0};
  double dm = 0;
  phys::kinetic_pullback(p, 2.0, 1.0, &dq, &dm);
  expect("d kinetic / dv", dq.v, 2.0 * -2.0);
  expect("d kinetic / dm", dm, 0.5 * 4.0);

  Weights w{2.0, 0.5}, dw{0.0, 0.0};
  double dx = 0;
  model_pullback(0.3, w, 1.0, &dx, &dw);
  expect("d model / dx", dx, 2.0 * std::cos(0.3) + 2 * 0.5 * 0.3);
  expect("d model / da", dw.a, std::sin(0.3));

  grad::dual<double> g = growth_pushforward(2.0, 0.1, 0.0, 1.0);
  expect("d growth / dr", g.der[0], 2.0 * std::exp(0.1));

  if (failures != 0)
    return 1;
  std::printf("ok\n");
  return 0;
}
