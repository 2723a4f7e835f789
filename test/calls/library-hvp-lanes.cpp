// Standard algorithms whose derivatives are split (std::fill, std::copy)
// or called whole (std::accumulate, std::inner_product over pointers), in
// Hessian-vector products and vector pullbacks: the derivatives the plugin
// generates in namespace std are pushed forward like any other.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <algorithm>
#include <numeric>
#include <string>

[[grad::hessian]] double filled(double x) {
  double a[3], b[3];
  std::fill(a, a + 3, x);
  std::copy(a, a + 3, b);
  return a[0] * a[2] * b[1];
}

[[grad::hessian]] double sums(const double *a, const double *b) {
  return std::accumulate(a, a + 4, 0.0) * std::inner_product(a, a + 3, b, 1.0);
}

[[grad("lanes=2")]] double lanes(const double *a, const double *b) {
  double c[4];
  std::copy(a, a + 4, c);
  std::fill(c + 3, c + 4, b[2] * a[3]);
  return std::accumulate(c, c + 4, 0.0) * std::inner_product(c, c + 3, b, 1.0);
}

int main() {
  double x = 1.3, h = 0;
  filled_hvp(x, 1.0, &h);
  gradcheck::expect("filled.h", h, 6 * x, 1e-12); // (x^3)'' = 6x
  // CHECK: ok filled.h
  double a[4] = {0.3, 1.2, -0.7, 2.0}, b[3] = {1.1, 0.4, 2.5};
  double va[4] = {1, 0.5, -1, 2}, vb[3] = {0.2, -0.3, 0.1};
  double ha[4] = {}, hb[3] = {};
  sums_hvp(a, b, va, vb, ha, hb);
  // Central differences of the pullback along v.
  double E = 1e-6, P[7] = {}, M[7] = {};
  for (int s = 0; s < 2; ++s) {
    double aa[4], bb[3], *G = s ? M : P, sign = s ? -1 : 1;
    for (int i = 0; i < 4; ++i)
      aa[i] = a[i] + sign * E * va[i];
    for (int i = 0; i < 3; ++i)
      bb[i] = b[i] + sign * E * vb[i];
    sums_pullback(aa, bb, 1.0, G, G + 4);
  }
  for (int i = 0; i < 7; ++i)
    gradcheck::expect("sums.h" + std::to_string(i), i < 4 ? ha[i] : hb[i - 4],
                      (P[i] - M[i]) / (2 * E), 1e-7);
  // CHECK: ok sums.h6
  // Two seeds in one call: each lane is the scalar pullback's.
  grad::lanes<double, 2> La[4] = {}, Lb[3] = {};
  lanes_pullback(a, b, grad::lanes<double, 2>{{1.0, -2.5}}, La, Lb);
  for (int k = 0; k < 2; ++k) {
    double Sa[4] = {}, Sb[3] = {}, seed = k == 0 ? 1.0 : -2.5;
    lanes_pullback(a, b, seed, Sa, Sb);
    for (int i = 0; i < 4; ++i)
      gradcheck::expect("lanes.a" + std::to_string(i) + std::to_string(k),
                        La[i].der[k], Sa[i], 1e-12);
    for (int i = 0; i < 3; ++i)
      gradcheck::expect("lanes.b" + std::to_string(i) + std::to_string(k),
                        Lb[i].der[k], Sb[i], 1e-12);
  }
  // CHECK: ok lanes.b21
  gradcheck::check_grad("lanes", [](double p, double q) {
    double a[4] = {p, q, p * q, 1.5}, b[3] = {q, 2.0, p};
    return lanes(a, b);
  }, [](double p, double q, double d, double *dp, double *dq) {
    double a[4] = {p, q, p * q, 1.5}, b[3] = {q, 2.0, p};
    double da[4] = {}, db[3] = {};
    lanes_pullback(a, b, d, da, db);
    *dp += da[0] + da[2] * q + db[2];
    *dq += da[1] + da[2] * p + db[0];
  }, 0.7, 1.1);
  // CHECK: ok lanes.d1
  return gradcheck::failures();
}
