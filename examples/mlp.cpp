// A two-layer perceptron written as a class that owns its weights in
// std::vectors, trained for a few steps of gradient descent on a small
// regression problem. The gradient of the loss with respect to every weight
// comes from one pullback call; a few of them are checked against central
// finite differences before training.
//
//   clang++-19 -std=c++20 -O2 -fplugin=build/lib/ClangGrad.so \
//       -Iruntime/include examples/mlp.cpp -o mlp && ./mlp
#include <cmath>
#include <cstdio>
#include <vector>

struct Layer {
  int in, out;
  std::vector<double> W, b; // W[o * in + i]

  // y = tanh(W x + b), or W x + b for the output layer.
  std::vector<double> forward(const std::vector<double> &x, bool act) const {
    std::vector<double> y(out, 0.0);
    for (int o = 0; o < out; ++o) {
      double s = b[o];
      for (int i = 0; i < in; ++i)
        s += W[o * in + i] * x[i];
      y[o] = act ? std::tanh(s) : s;
    }
    return y;
  }
};

// Mean squared error over the data set. The plugin declares
//   void loss_pullback(const Layer &l1, const Layer &l2,
//                      const std::vector<double> &xs,
//                      const std::vector<double> &ys, double d_ret,
//                      Layer *d_l1, Layer *d_l2);
// (the data are not differentiated: grad("l1, l2")).
[[grad("l1, l2")]] double loss(const Layer &l1, const Layer &l2,
                               const std::vector<double> &xs,
                               const std::vector<double> &ys) {
  double s = 0;
  int n = static_cast<int>(ys.size());
  for (int k = 0; k < n; ++k) {
    std::vector<double> h = l1.forward({xs[2 * k], xs[2 * k + 1]}, true);
    std::vector<double> y = l2.forward(h, false);
    double e = y[0] - ys[k];
    s += e * e;
  }
  return s / n;
}

static Layer zeroLike(const Layer &l) {
  return {l.in, l.out, std::vector<double>(l.W.size(), 0.0),
          std::vector<double>(l.b.size(), 0.0)};
}

static int failures = 0;

int main() {
  // Data: y = sin(x0) * x1 on a small grid.
  std::vector<double> xs, ys;
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 4; ++j) {
      double x0 = -1 + 0.5 * i, x1 = -0.6 + 0.4 * j;
      xs.push_back(x0);
      xs.push_back(x1);
      ys.push_back(std::sin(x0) * x1);
    }
  Layer l1{2, 4, {}, {}}, l2{4, 1, {}, {}};
  for (int k = 0; k < 8; ++k)
    l1.W.push_back(0.3 * std::sin(1.7 * k + 0.4));
  l1.b = {0.1, -0.2, 0.05, 0.0};
  for (int k = 0; k < 4; ++k)
    l2.W.push_back(0.5 * std::cos(2.3 * k));
  l2.b = {0.0};

  // Check the gradient against central differences.
  Layer d1 = zeroLike(l1), d2 = zeroLike(l2);
  loss_pullback(l1, l2, xs, ys, 1.0, &d1, &d2);
  auto check = [&](const char *name, double &w, double got) {
    double h = 1e-6, keep = w;
    w = keep + h;
    double up = loss(l1, l2, xs, ys);
    w = keep - h;
    double down = loss(l1, l2, xs, ys);
    w = keep;
    double fd = (up - down) / (2 * h);
    bool ok = std::fabs(got - fd) <= 1e-6 * (1 + std::fabs(fd));
    std::printf("%-8s %.10f (finite differences: %.10f)%s\n", name, got, fd,
                ok ? "" : "  MISMATCH");
    failures += !ok;
  };
  check("l1.W[3]", l1.W[3], d1.W[3]);
  check("l1.b[2]", l1.b[2], d1.b[2]);
  check("l2.W[1]", l2.W[1], d2.W[1]);
  check("l2.b[0]", l2.b[0], d2.b[0]);

  // Gradient descent.
  double first = loss(l1, l2, xs, ys), last = first;
  for (int step = 0; step < 300; ++step) {
    Layer g1 = zeroLike(l1), g2 = zeroLike(l2);
    loss_pullback(l1, l2, xs, ys, 1.0, &g1, &g2);
    for (std::size_t k = 0; k < l1.W.size(); ++k) l1.W[k] -= 0.5 * g1.W[k];
    for (std::size_t k = 0; k < l1.b.size(); ++k) l1.b[k] -= 0.5 * g1.b[k];
    for (std::size_t k = 0; k < l2.W.size(); ++k) l2.W[k] -= 0.5 * g2.W[k];
    for (std::size_t k = 0; k < l2.b.size(); ++k) l2.b[k] -= 0.5 * g2.b[k];
    last = loss(l1, l2, xs, ys);
  }
  std::printf("loss: %.6f before training, %.6f after 300 steps\n", first,
              last);
  if (!(last < 0.5 * first)) {
    std::printf("MISMATCH: training did not reduce the loss\n");
    ++failures;
  }
  return failures != 0;
}
