// A user pullback declared for a function template wins over the
// template's body, as it does for ordinary functions: the specialization
// whose type is the pullback's is called (here deliberately not the body's
// derivative, so that the test sees which one ran).
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s
#include <cstdio>

template <class T> T cube(T x) { return x * x * x; }
template <class T> void cube_pullback(T x, T d_ret, T *d_x) { *d_x += 2 * x * d_ret; }

// A template without a user pullback keeps its generated one.
template <class T> T sq(T x) { return x * x; }

[[grad]] double use(double x) { return cube(x) + sq(x); }
[[grad]] float usef(float x) { return cube(x); }

int main() {
  double dx = 0;
  use_pullback(3.0, 1.0, &dx);
  // 2 * 3 (user cube_pullback) + 2 * 3 (sq's body)
  // CHECK: use 12
  std::printf("use %g\n", dx);
  float df = 0;
  usef_pullback(2.0f, 1.0f, &df);
  // CHECK: usef 4
  std::printf("usef %g\n", df);
}
