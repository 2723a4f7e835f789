// Template helpers that write through pointers, two calls deep under a
// [[grad]] function template (as ADBench's objectives are written): their
// split halves are defined after Sema's end-of-file check, which must not
// warn that they are inline but undefined. A helper template that takes a
// stateless function object by value (`mapInPlace(a, 2, Sq{})`, the style
// of code written before lambdas) and writes through a pointer: split
// halves that keep the object.
// RUN: %gradxx -Werror %s -o %t && %t | %FileCheck-strict %s
#include <cmath>
#include <cstdio>

template <typename T> void sq(const T *x, T *y) { y[0] = std::sin(x[0]) * x[0]; }
template <typename T> void inner(const T *x, T *y) {
  sq(x, y);
  y[0] *= x[0];
}
template <typename T> [[grad]] void outer(const T *x, T *y) {
  T t[1];
  inner(x, t);
  y[0] = t[0] + x[0];
}

struct Sq {
  double operator()(double v) const { return v * std::sin(v); }
};
template <class F> static void mapInPlace(double *a, int n, F f) {
  for (int i = 0; i < n; ++i)
    a[i] = f(a[i]);
}
[[grad]] double mapped(double x, double y) {
  double a[2] = {x, y};
  mapInPlace(a, 2, Sq{});
  return a[0] * a[1];
}

int main() {
  {
    // d/dx (x sin x)(y sin y) = (sin x + x cos x) y sin y
    double x = 1.3, y = -0.7, dx = 0, dy = 0;
    mapped_pullback(x, y, 1.0, &dx, &dy);
    double wx = (std::sin(x) + x * std::cos(x)) * y * std::sin(y);
    double wy = (std::sin(y) + y * std::cos(y)) * x * std::sin(x);
    // CHECK: ok mapped
    std::printf("%s mapped %.17g %.17g\n",
                std::fabs(dx - wx) < 1e-12 && std::fabs(dy - wy) < 1e-12
                    ? "ok"
                    : "FAIL",
                dx, dy);
  }
  double x = 0.7, y = 0, dx = 0, dy = 1;
  outer_pullback(&x, &y, &dx, &dy);
  // d/dx (sin(x) x^2 + x) = cos(x) x^2 + 2 x sin(x) + 1
  double want = std::cos(x) * x * x + 2 * x * std::sin(x) + 1;
  // CHECK: ok
  std::printf("%s %.17g %.17g\n", std::fabs(dx - want) < 1e-12 ? "ok" : "FAIL",
              dx, want);
}
