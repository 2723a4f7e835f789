// A lambda reading a captured tensor through its multi-index operator()
// (SPEC: tensor::operator()(i, j, ...)) is lowered like one using flat
// operator[]; the result and the adjoints are the same.
// RUN: %gradxx -I%S/Inputs %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "mapcheck.h"

#include <cmath>

using T = grad::tensor<double>;

[[grad]] double multi_index(const T &x, const T &w) {
  return grad::sum(grad::map([&w](double z) { return w(0, 1) * z * z + w(1, 0); }, x));
}

int main() {
  const T x({3}, {0.3, -1.2, 2.5});
  const T w({2, 2}, {0.5, -1.5, 0.25, 2.0});
  T dx({3}), dw({2, 2});
  multi_index_pullback(x, w, 1.0, &dx, &dw);
  // CHECK: ok multi_index.x[2]
  mapcheck::check_elems("multi_index.x", [&](const T &v) { return multi_index(v, w); }, x, dx);
  // d/dw(0,1) = sum z^2, d/dw(1,0) = n.
  // CHECK: ok multi_index.w[3]
  mapcheck::check_values("multi_index.w", dw, std::vector<double>{0, 0.09 + 1.44 + 6.25, 3, 0});
  return gradcheck::failures();
}
