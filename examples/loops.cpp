// Loops over arrays: a polynomial evaluated with Horner's rule and a small
// tanh recurrent network. Gradients from the generated pullbacks, next to
// central finite differences.
//
//   clang++-19 -std=c++20 -O2 -fplugin=build/lib/ClangGrad.so \
//       -Iruntime/include examples/loops.cpp -o loops && ./loops
#include <grad/grad.h> // loops need grad::tape
#include <cmath>
#include <cstdio>
#include <vector>

// p(x) = c[0] + c[1] x + ... + c[n-1] x^(n-1). Pointer parameters get an
// adjoint array of the same length:
//   void horner_pullback(const double *c, int n, double x, double d_ret,
//                        double *d_c, double *d_x);
[[grad]] double horner(const double *c, int n, double x) {
  double p = 0;
  for (int i = n - 1; i >= 0; --i)
    p = p * x + c[i];
  return p;
}

// h_t = tanh(w h_{t-1} + u x_t + b), loss = sum_t h_t^2 / 2, over a
// std::vector of inputs. The vector gets a same-sized adjoint vector:
//   void rnn_pullback(const std::vector<double> &x, double w, double u,
//                     double b, double d_ret, std::vector<double> *d_x,
//                     double *d_w, double *d_u, double *d_b);
[[grad]] double rnn(const std::vector<double> &x, double w, double u,
                    double b) {
  double h = 0, loss = 0;
  for (std::size_t t = 0; t < x.size(); ++t) {
    h = std::tanh(w * h + u * x[t] + b);
    loss += 0.5 * h * h;
  }
  return loss;
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
  // Horner.
  double c[4] = {1.0, -2.0, 0.5, 3.0};
  double x = 0.8;
  double dc[4] = {0, 0, 0, 0}, dx = 0; // adjoints accumulate: zero them
  horner_pullback(c, 4, x, 1.0, dc, &dx);
  std::printf("p(%g) = %.10f\n", x, horner(c, 4, x));
  report("dp/dx", dx, central([&](double t) { return horner(c, 4, t); }, x));
  for (int k = 0; k < 4; ++k) {
    auto pk = [&](double t) {
      double cc[4] = {c[0], c[1], c[2], c[3]};
      cc[k] = t;
      return horner(cc, 4, x);
    };
    char name[32];
    std::snprintf(name, sizeof name, "dp/dc[%d]", k);
    report(name, dc[k], central(pk, c[k]));
  }

  // RNN over 50 steps.
  std::vector<double> xs(50);
  for (std::size_t t = 0; t < xs.size(); ++t)
    xs[t] = std::sin(0.3 * t);
  double w = 0.9, u = 0.5, b = 0.1;
  std::vector<double> dxs(xs.size(), 0.0);
  double dw = 0, du = 0, db = 0;
  rnn_pullback(xs, w, u, b, 1.0, &dxs, &dw, &du, &db);
  std::printf("rnn loss = %.10f\n", rnn(xs, w, u, b));
  report("dL/dw", dw, central([&](double t) { return rnn(xs, t, u, b); }, w));
  report("dL/du", du, central([&](double t) { return rnn(xs, w, t, b); }, u));
  report("dL/db", db, central([&](double t) { return rnn(xs, w, u, t); }, b));
  for (std::size_t k : {std::size_t(0), std::size_t(49)}) {
    auto lk = [&](double t) {
      std::vector<double> v = xs;
      v[k] = t;
      return rnn(v, w, u, b);
    };
    char name[32];
    std::snprintf(name, sizeof name, "dL/dx[%zu]", k);
    report(name, dxs[k], central(lk, xs[k]));
  }
  return failures;
}
