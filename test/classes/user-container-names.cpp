// User classes named like the library's containers (`my::tensor<T>`,
// `my::vector`) are classes like any other: the plugin recognises
// grad::tensor and std::vector / std::array / std::span by their namespace,
// not by their name. The values are checked against closed forms.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>

namespace my {
template <class T> struct tensor {
  T a[3];
  T operator[](int i) const { return a[i]; }
};
struct vector {
  double x, y;
};
} // namespace my

[[grad]] double f(const my::tensor<double> &t, my::vector v) {
  double s = 0;
  for (int i = 0; i < 3; ++i)
    s += t.a[i] * t.a[i] * v.x;
  return s + std::sin(v.y);
}

[[grad]] double g(double a, double b) {
  my::tensor<double> t{{a, b, a * b}};
  my::vector v{a, b};
  return t[2] * v.x + t.a[0];
}

int main() {
  my::tensor<double> t{{1, 2, 3}}, dt{};
  my::vector v{0.5, 0.3}, dv{};
  f_pullback(t, v, 1.0, &dt, &dv);
  for (int i = 0; i < 3; ++i)
    gradcheck::expect("f.t" + std::to_string(i), dt.a[i], 2 * t.a[i] * v.x);
  gradcheck::expect("f.v.x", dv.x, 1 + 4 + 9);
  gradcheck::expect("f.v.y", dv.y, std::cos(0.3));
  // CHECK: ok f.t0
  // CHECK: ok f.t1
  // CHECK: ok f.t2
  // CHECK: ok f.v.x
  // CHECK: ok f.v.y
  gradcheck::check_grad("g", g, g_pullback, 1.5, 0.7);
  // CHECK: ok g.d0
  // CHECK: ok g.d1
  return gradcheck::failures();
}
