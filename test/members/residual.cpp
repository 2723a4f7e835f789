// Residual blocks as data: a struct holding two Dense layers whose
// [[grad]] call operator is x + b(tanh(a(x))), in a std::vector looped over.
// The adjoint of the network is a same-shaped vector of blocks; the input
// and weights of both layers of both blocks are checked against finite
// differences.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>
#include <grad/grad.h>
#include <string>
#include <vector>

struct Dense {
  std::vector<double> W, b;
  [[grad]] double operator()(double x) const { return W[0] * x + b[0]; }
};
struct Residual {
  Dense a, b;
  [[grad]] double operator()(double x) const { return x + b(std::tanh(a(x))); }
};
[[grad]] double net(const std::vector<Residual> &blocks, double x) {
  for (std::size_t i = 0; i < blocks.size(); ++i)
    x = blocks[i](x);
  return x;
}

int main() {
  std::vector<Residual> B{{{{0.5}, {0.1}}, {{-0.7}, {0.2}}},
                          {{{1.2}, {-0.3}}, {{0.4}, {0.05}}}};
  std::vector<Residual> dB(2, Residual{{{0}, {0}}, {{0}, {0}}});
  double x = 0.3, dx = 0, h = 1e-6;
  net_pullback(B, x, 1.0, &dB, &dx);
  // CHECK: ok dx
  gradcheck::expect("dx", dx, (net(B, x + h) - net(B, x - h)) / (2 * h));
  for (int k = 0; k < 2; ++k)
    for (int l = 0; l < 2; ++l)
      for (int w = 0; w < 2; ++w) {
        auto at = [&](std::vector<Residual> &M) -> double & {
          Dense &D = l ? M[k].b : M[k].a;
          return w ? D.b[0] : D.W[0];
        };
        auto Up = B, Down = B;
        at(Up) += h;
        at(Down) -= h;
        // CHECK-COUNT-8: ok dparam
        gradcheck::expect("dparam " + std::to_string(k) + std::to_string(l) +
                              std::to_string(w),
                          at(dB), (net(Up, x) - net(Down, x)) / (2 * h));
      }
  return gradcheck::failures();
}
