// grad::map and grad::broadcast with lambdas. The plugin classifies each
// lambda: a capture-free, pure one is lowered with dual numbers (one fused
// pass); one that captures a differentiable variable gets reverse lowering,
// which also returns the adjoint of the capture. Compile with
// -fplugin-arg-grad-remarks to see each decision.
//
//   clang++-19 -std=c++20 -O2 -fplugin=build/lib/ClangGrad.so \
//       -Iruntime/include examples/map.cpp -o map -lopenblas && ./map
#include <grad/grad.h>
#include <cmath>
#include <cstdio>
#include <vector>

// sum_i softplus(x_i): capture-free and pure -> forward (dual) lowering.
[[grad]] double softplus_sum(const std::vector<double> &x) {
  return grad::sum(grad::map([](double v) { return std::log1p(std::exp(v)); }, x));
}

// sum_i (x_i - mu)^2: captures mu -> reverse lowering; d_mu is returned too.
[[grad]] double spread(const std::vector<double> &x, double mu) {
  return grad::sum(grad::map([mu](double v) { return (v - mu) * (v - mu); }, x));
}

// A dense layer's activation: broadcast a bias row over a 2x3 tensor, then
// tanh, then sum. The bias's adjoint is summed back to its shape {3}.
[[grad]] double layer(const grad::tensor<double> &z, const grad::tensor<double> &bias) {
  grad::tensor<double> a =
      grad::broadcast([](double u, double c) { return std::tanh(u + c); }, z, bias);
  return grad::sum(a);
}

template <class F> double central(F f, double t) {
  double h = 1e-6 * (1 + std::fabs(t));
  return (f(t + h) - f(t - h)) / (2 * h);
}

static int failures = 0;
static void report(const char *name, double got, double fd) {
  bool ok = std::fabs(got - fd) <= 1e-6 * (1 + std::fabs(fd));
  std::printf("%s = %.10f (finite differences: %.10f)%s\n", name, got, fd,
              ok ? "" : "  MISMATCH");
  failures += !ok;
}

int main() {
  std::vector<double> x = {-1.0, 0.25, 2.0};
  char name[48];

  // Container parameters get a same-shaped adjoint, zero-initialised.
  std::vector<double> dx(x.size(), 0.0);
  softplus_sum_pullback(x, 1.0, &dx);
  for (std::size_t i = 0; i < x.size(); ++i) {
    auto f = [&](double t) { auto v = x; v[i] = t; return softplus_sum(v); };
    std::snprintf(name, sizeof name, "d softplus_sum/dx[%zu]", i);
    report(name, dx[i], central(f, x[i]));
  }

  double mu = 0.3, dmu = 0;
  std::vector<double> dx2(x.size(), 0.0);
  spread_pullback(x, mu, 1.0, &dx2, &dmu);
  report("d spread/dmu", dmu, central([&](double t) { return spread(x, t); }, mu));
  for (std::size_t i = 0; i < x.size(); ++i) {
    auto f = [&](double t) { auto v = x; v[i] = t; return spread(v, mu); };
    std::snprintf(name, sizeof name, "d spread/dx[%zu]", i);
    report(name, dx2[i], central(f, x[i]));
  }

  grad::tensor<double> z({2, 3}, std::vector<double>{0.1, -0.4, 0.9, 1.2, 0.0, -0.7});
  grad::tensor<double> bias({3}, std::vector<double>{0.05, -0.1, 0.2});
  auto dz = grad::zeros_like(z);
  auto dbias = grad::zeros_like(bias);
  layer_pullback(z, bias, 1.0, &dz, &dbias);
  for (std::size_t j = 0; j < 3; ++j) {
    auto f = [&](double t) { auto c = bias; c[j] = t; return layer(z, c); };
    std::snprintf(name, sizeof name, "d layer/dbias[%zu]", j);
    report(name, dbias[j], central(f, bias[j]));
  }
  auto f = [&](double t) { auto w = z; w(1, 2) = t; return layer(w, bias); };
  report("d layer/dz(1,2)", dz(1, 2), central(f, z(1, 2)));
  return failures;
}
