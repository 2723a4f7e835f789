// Template helpers that write through pointers, two calls deep under a
// [[grad]] function template (as ADBench's objectives are written): their
// split halves are defined after Sema's end-of-file check, which must not
// warn that they are inline but undefined.
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

int main() {
  double x = 0.7, y = 0, dx = 0, dy = 1;
  outer_pullback(&x, &y, &dx, &dy);
  // d/dx (sin(x) x^2 + x) = cos(x) x^2 + 2 x sin(x) + 1
  double want = std::cos(x) * x * x + 2 * x * std::sin(x) + 1;
  // CHECK: ok
  std::printf("%s %.17g %.17g\n", std::fabs(dx - want) < 1e-12 ? "ok" : "FAIL",
              dx, want);
}
