// The arithmetic function objects of <functional> (`std::multiplies<double>()
// (x, y)`, `std::negate`, the transparent `std::plus<>`) are differentiated as
// the operator they apply, in every mode, also inside the numeric algorithms
// that call them (std::accumulate, std::reduce, std::inclusive_scan,
// std::exclusive_scan, std::inner_product, std::transform). Before (issue
// 49), the call was dropped: the generated pullback of `operator()` was a
// const member of a standard class returning nothing, which the tidying pass
// took for an accessor without effects and removed (gradient 0). Also
// checked: `std::inclusive_scan(f, l, out)` and `std::exclusive_scan` over
// pointers, which write through `out` and return a pointer into it (they
// were taken for accessors that only compute an address: gradient 0), and a
// statement calling two derivatives in two halves where one writes memory
// (`std::reduce(...) + std::reduce(...)`): the reverse halves must pop the
// stack last first.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "fwdcheck.h"
#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

[[grad, grad::forward]] double objects(double x, double y) {
  return std::multiplies<double>()(x, y) + std::negate<double>()(x) +
         std::plus<>()(x, y * y) - std::minus<double>{}(y, x) +
         std::divides<double>()(x, y);
}

[[grad, grad::forward]] double accumulated(double x, double y) {
  double a[4] = {x, y, x * y, 1.5};
  return std::accumulate(a, a + 4, 1.0, std::multiplies<double>()) +
         std::accumulate(a, a + 4, 0.0, std::plus<>());
}

[[grad, grad::forward]] double reduced(double x, double y) {
  double a[4] = {x, y, x * y, 1.5};
  return std::reduce(a, a + 4, 1.0, std::multiplies<double>()) +
         std::reduce(a, a + 4);
}

[[grad, grad::forward]] double scanned(double x, double y) {
  double a[4] = {x, y, x * y, 1.5}, b[4], c[4], d[4];
  std::inclusive_scan(a, a + 4, b, std::multiplies<double>());
  std::exclusive_scan(a, a + 4, c, 2.0);
  std::inclusive_scan(a, a + 4, d);
  return b[3] + b[1] * c[3] + c[2] * d[3];
}

[[grad, grad::forward]] double inner(double x, double y) {
  double a[3] = {x, y, x * y}, b[3] = {y, 2.0, x};
  return std::inner_product(a, a + 3, b, 0.0) +
         std::inner_product(a, a + 3, b, 1.0, std::multiplies<double>(),
                            std::plus<double>());
}

[[grad, grad::forward]] double transformed(double x, double y) {
  double a[3] = {x, y, x * y}, b[3] = {y, 2.0, x}, c[3];
  std::transform(a, a + 3, b, c, std::multiplies<double>());
  return c[0] + c[1] * c[2];
}

int main() {
  fwdcheck::both("objects", objects, objects_pullback, objects_pushforward,
                 1.3, -0.7);
  // CHECK: ok objects.d0
  // CHECK: ok objects.d1
  // CHECK: ok objects.fwd.x
  fwdcheck::both("accumulated", accumulated, accumulated_pullback,
                 accumulated_pushforward, 1.3, -0.7);
  // CHECK: ok accumulated.d1
  fwdcheck::both("reduced", reduced, reduced_pullback, reduced_pushforward,
                 1.3, -0.7);
  // CHECK: ok reduced.d0
  fwdcheck::both("scanned", scanned, scanned_pullback, scanned_pushforward,
                 1.3, -0.7);
  // CHECK: ok scanned.fwd.y
  fwdcheck::both("inner", inner, inner_pullback, inner_pushforward, 1.3,
                 -0.7);
  // CHECK: ok inner.d1
  fwdcheck::both("transformed", transformed, transformed_pullback,
                 transformed_pushforward, 1.3, -0.7);
  // CHECK: ok transformed.fwd.val
  return gradcheck::failures();
}
