// broadcast of a rank-3 tensor (2x3x4) with a rank-1 tensor (4) and a rank-2
// tensor (3x1): adjoints summed over two and over two axes respectively.
// RUN: %gradxx -I%S/Inputs %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "mapcheck.h"

#include <cmath>

using T = grad::tensor<double>;

[[grad]] double r3r1(const T &a, const T &b) {
  return grad::sum(grad::broadcast([](double x, double y) { return x * std::exp(y) - y * y; }, a, b));
}

[[grad]] double r3r2r1(const T &a, const T &m, const T &b) {
  return grad::sum(grad::broadcast([](double x, double y, double z) { return std::sin(x + y) * z; }, a, m, b));
}

static T filled(std::vector<std::size_t> Shape, double Start) {
  T t(Shape);
  for (std::size_t I = 0; I < t.size(); ++I)
    t[I] = Start + 0.13 * I - 0.007 * I * I;
  return t;
}

int main() {
  const T a = filled({2, 3, 4}, -0.9), b = filled({4}, 0.2), m = filled({3, 1}, 0.4);
  T da({2, 3, 4}), db({4});
  r3r1_pullback(a, b, 1.0, &da, &db);
  // CHECK: ok r3r1.a[23]
  // CHECK: ok r3r1.b[3]
  mapcheck::check_elems("r3r1.a", [&](const T &v) { return r3r1(v, b); }, a, da);
  mapcheck::check_elems("r3r1.b", [&](const T &v) { return r3r1(a, v); }, b, db);
  T ea({2, 3, 4}), em({3, 1}), eb({4});
  r3r2r1_pullback(a, m, b, 1.0, &ea, &em, &eb);
  // CHECK: ok r3r2r1.a[23]
  // CHECK: ok r3r2r1.m[2]
  // CHECK: ok r3r2r1.b[3]
  mapcheck::check_elems("r3r2r1.a", [&](const T &v) { return r3r2r1(v, m, b); }, a, ea);
  mapcheck::check_elems("r3r2r1.m", [&](const T &v) { return r3r2r1(a, v, b); }, m, em);
  mapcheck::check_elems("r3r2r1.b", [&](const T &v) { return r3r2r1(a, m, v); }, b, eb);
  return gradcheck::failures();
}
