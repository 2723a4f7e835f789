// A scalar function with <cmath> calls: its gradient from the generated
// pullback, next to central finite differences.
//
//   clang++-19 -std=c++20 -O2 -fplugin=build/lib/ClangGrad.so \
//       -Iruntime/include examples/scalar.cpp -o scalar && ./scalar
#include <cmath>
#include <cstdio>

// Logistic loss of a tiny model with a smooth penalty. The plugin declares
//   void loss_pullback(double w, double b, double x, double y, double d_ret,
//                      double *d_w, double *d_b, double *d_x, double *d_y);
[[grad]] double loss(double w, double b, double x, double y) {
  double z = w * x + b;
  double p = 1 / (1 + std::exp(-z));
  double nll = -(y * std::log(p) + (1 - y) * std::log(1 - p));
  return nll + 0.1 * std::sqrt(w * w + b * b) + std::sin(x) * std::tanh(w);
}

// Differentiate only with respect to w and b: no adjoints for the data.
//   void loss_wb_pullback(double w, double b, double x, double y,
//                         double d_ret, double *d_w, double *d_b);
[[grad("w, b")]] double loss_wb(double w, double b, double x, double y) {
  return loss(w, b, x, y);
}

// Central difference (f(t + h) - f(t - h)) / 2h.
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
  double w = 0.7, b = -0.2, x = 1.5, y = 1.0;

  // Adjoints accumulate: start from zero, seed the result with 1.
  double dw = 0, db = 0, dx = 0, dy = 0;
  loss_pullback(w, b, x, y, 1.0, &dw, &db, &dx, &dy);
  std::printf("loss(%g, %g, %g, %g) = %.10f\n", w, b, x, y, loss(w, b, x, y));
  report("df/dw", dw, central([&](double t) { return loss(t, b, x, y); }, w));
  report("df/db", db, central([&](double t) { return loss(w, t, x, y); }, b));
  report("df/dx", dx, central([&](double t) { return loss(w, b, t, y); }, x));
  report("df/dy", dy, central([&](double t) { return loss(w, b, x, t); }, y));

  double dw2 = 0, db2 = 0;
  loss_wb_pullback(w, b, x, y, 1.0, &dw2, &db2);
  report("d loss_wb/dw", dw2,
         central([&](double t) { return loss_wb(t, b, x, y); }, w));
  report("d loss_wb/db", db2,
         central([&](double t) { return loss_wb(w, t, x, y); }, b));
  return failures;
}
