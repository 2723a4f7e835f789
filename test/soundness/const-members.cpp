// A const member function taking a container by const reference, whose
// argument the caller changes after the call (the usual layer chain
// `h = l1.forward(h); h = l2.forward(h);`): the reverse sweep must not read
// the container again as it is at the end. An object holding floating data
// whose data may be written after a read is recorded at that read (the
// argument of the call is then the recorded copy). Before (issue 49),
// d/dw1 was 10368 for 48 (as a free function it was right). Also a vector
// of structs passed to a free function and changed between two calls.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "vecgrad.h"
#include <cmath>
#include <vector>

struct Layer {
  double w, b;
  std::vector<double> forward(const std::vector<double> &h) const {
    std::vector<double> o(h.size());
    for (std::size_t i = 0; i < h.size(); ++i)
      o[i] = std::tanh(w * h[i] + b) * h[i];
    return o;
  }
};

[[grad]] double chain(const Layer &l1, const Layer &l2,
                      std::vector<double> h) {
  h = l1.forward(h);
  h = l2.forward(h);
  return h[0] + 2 * h[1];
}

struct Vec3 {
  double x, y, z;
};

static double energy(const std::vector<Vec3> &p) {
  double e = 0;
  for (const Vec3 &q : p)
    e += q.x * q.x + q.y * q.z;
  return e;
}

[[grad]] double twoEnergies(std::vector<Vec3> p) {
  double e1 = energy(p);
  p[0].x = 0.5 * p[1].y;
  return e1 * energy(p);
}

int main() {
  // (w1, b1, w2, b2, h0, h1) packed.
  auto F = [](const std::vector<double> &X) {
    Layer A{X[0], X[1]}, B{X[2], X[3]};
    return chain(A, B, {X[4], X[5]});
  };
  auto X = vecgrad::sample(6, 3);
  Layer DA{0, 0}, DB{0, 0};
  std::vector<double> DH(2);
  chain_pullback(Layer{X[0], X[1]}, Layer{X[2], X[3]}, {X[4], X[5]}, 1.0,
                 &DA, &DB, &DH);
  vecgrad::check("chain", F, X, {DA.w, DA.b, DB.w, DB.b, DH[0], DH[1]});
  // CHECK: ok chain.d0
  // CHECK: ok chain.d2
  // CHECK: ok chain.d5
  auto G = [](const std::vector<double> &Y) {
    return twoEnergies({{Y[0], Y[1], Y[2]}, {Y[3], Y[4], Y[5]}});
  };
  auto Y = vecgrad::sample(6, 5);
  std::vector<Vec3> DP(2, Vec3{0, 0, 0});
  twoEnergies_pullback({{Y[0], Y[1], Y[2]}, {Y[3], Y[4], Y[5]}}, 1.0, &DP);
  vecgrad::check("twoEnergies", G, Y,
                 {DP[0].x, DP[0].y, DP[0].z, DP[1].x, DP[1].y, DP[1].z});
  // CHECK: ok twoEnergies.d0
  // CHECK: ok twoEnergies.d4
  return gradcheck::failures();
}
