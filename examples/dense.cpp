// A two-layer network, Dense(1280 -> 64, leaky relu) -> Dense(64 -> 1),
// trained for a few SGD steps on a 1280 x 1000 float batch (one sample per
// column). The gradient of the loss w.r.t. W1, b1, W2, b2 comes from the
// generated netLoss_pullback; the products run on BLAS (grad::matmul), the
// activations in one fused pass each (grad::broadcast with capture-free
// lambdas). The loss is printed each step, then one gradient entry is
// checked against central finite differences.
//
//   clang++-19 -std=c++20 -O2 -fplugin=build/lib/ClangGrad.so \
//       -Iruntime/include examples/dense.cpp -lopenblas
#include <grad/grad.h>

#include <cmath>
#include <cstdio>
#include <random>

using grad::tensor;

[[grad("W1, b1, W2, b2")]] float
netLoss(const tensor<float> &X, const tensor<float> &Y, const tensor<float> &W1,
        const tensor<float> &b1, const tensor<float> &W2,
        const tensor<float> &b2) {
  auto H = grad::broadcast(
      [](float z, float b) {
        float u = z + b;
        return u > 0 ? u : 0.01f * u; // 0.01 (double) would warn: promotion
      },
      grad::matmul(W1, X), b1);
  auto E = grad::broadcast(
      [](float o, float b, float t) {
        float e = o + b - t;
        return e * e;
      },
      grad::matmul(W2, H), b2, Y);
  return grad::sum(E) / 1000.0f;
}

int main() {
  const std::size_t In = 1280, Hidden = 64, N = 1000;
  std::mt19937 Rng(7);
  std::normal_distribution<float> Gauss(0.0f, 1.0f);
  auto Random = [&](std::vector<std::size_t> Shape, float Scale) {
    tensor<float> T(Shape);
    for (float &V : T)
      V = Scale * Gauss(Rng);
    return T;
  };
  tensor<float> X = Random({In, N}, 1.0f);
  // A target the network can learn: a fixed random projection.
  tensor<float> Teacher = Random({1, In}, 0.03f);
  tensor<float> Y = grad::matmul(Teacher, X);
  tensor<float> W1 = Random({Hidden, In}, 0.03f), b1({Hidden, 1}, 0.0f);
  tensor<float> W2 = Random({1, Hidden}, 0.1f), b2({1, 1}, 0.0f);

  const float Rate = 0.05f;
  float First = 0, Last = 0;
  for (int Step = 0; Step < 8; ++Step) {
    tensor<float> dW1 = grad::zeros_like(W1), db1 = grad::zeros_like(b1);
    tensor<float> dW2 = grad::zeros_like(W2), db2 = grad::zeros_like(b2);
    float Loss = netLoss(X, Y, W1, b1, W2, b2);
    netLoss_pullback(X, Y, W1, b1, W2, b2, 1.0f, &dW1, &db1, &dW2, &db2);
    std::printf("step %d: loss = %.6f\n", Step, Loss);
    for (std::size_t I = 0; I < W1.size(); ++I)
      W1[I] -= Rate * dW1[I];
    for (std::size_t I = 0; I < W2.size(); ++I)
      W2[I] -= Rate * dW2[I];
    for (std::size_t I = 0; I < b1.size(); ++I)
      b1[I] -= Rate * db1[I];
    b2[0] -= Rate * db2[0];
    (Step == 0 ? First : Last) = Loss;
  }

  // One entry of dL/dW2 against central finite differences (in double).
  tensor<float> dW1 = grad::zeros_like(W1), db1 = grad::zeros_like(b1);
  tensor<float> dW2 = grad::zeros_like(W2), db2 = grad::zeros_like(b2);
  netLoss_pullback(X, Y, W1, b1, W2, b2, 1.0f, &dW1, &db1, &dW2, &db2);
  const float H = 1e-2f, Saved = W2[3];
  W2[3] = Saved + H;
  double Up = netLoss(X, Y, W1, b1, W2, b2);
  W2[3] = Saved - H;
  double Down = netLoss(X, Y, W1, b1, W2, b2);
  W2[3] = Saved;
  double Fd = (Up - Down) / (2 * H);
  std::printf("dL/dW2[3] = %.6f (finite differences: %.6f)\n", dW2[3], Fd);
  bool OK = Last < First && std::fabs(dW2[3] - Fd) <= 2e-2 * std::fabs(Fd) + 1e-4;
  std::printf("%s\n", OK ? "ok" : "FAIL");
  return OK ? 0 : 1;
}
