// map over grad::tensor of rank 1, 2 and 3: the adjoint has the operand's
// shape and every element is right.
// RUN: %gradxx -I%S/Inputs %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags -I%S/Inputs | FileCheck %s --check-prefix=DUMP
#include "mapcheck.h"

#include <cmath>

using T = grad::tensor<double>;

// DUMP-LABEL: void tmap_pullback(const T &x, const T &y, double d_ret, T *d_x, T *d_y) {
// DUMP-NOT: tape
// DUMP: tangent_pullback<&::_grad_tangent_{{[0-9]+}}, 2UL>(d_ret, ::grad::detail::pack(x, y), ::grad::detail::adjoints(d_x, d_y));
[[grad]] double tmap(const T &x, const T &y) {
  return grad::sum(grad::map([](double a, double b) { return std::sin(a) * b * b; }, x, y));
}

static T filled(std::vector<std::size_t> Shape, double Start) {
  T t(Shape);
  for (std::size_t I = 0; I < t.size(); ++I)
    t[I] = Start + 0.37 * I - 0.01 * I * I;
  return t;
}

static void checkShape(const std::string &Name, std::vector<std::size_t> Shape) {
  T x = filled(Shape, -1.1), y = filled(Shape, 0.4);
  T dx(Shape), dy(Shape);
  tmap_pullback(x, y, 1.0, &dx, &dy);
  gradcheck::expect(Name + ".shape", dx.shape() == Shape && dy.shape() == Shape, 1);
  mapcheck::check_elems(Name + ".x", [&](const T &v) { return tmap(v, y); }, x, dx);
  mapcheck::check_elems(Name + ".y", [&](const T &v) { return tmap(x, v); }, y, dy);
}

int main() {
  // CHECK: ok rank1.shape
  // CHECK: ok rank1.x[4]
  // CHECK: ok rank1.y[4]
  checkShape("rank1", {5});
  // CHECK: ok rank2.shape
  // CHECK: ok rank2.x[5]
  // CHECK: ok rank2.y[5]
  checkShape("rank2", {2, 3});
  // CHECK: ok rank3.shape
  // CHECK: ok rank3.x[23]
  // CHECK: ok rank3.y[23]
  checkShape("rank3", {2, 3, 4});
  return gradcheck::failures();
}
