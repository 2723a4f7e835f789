// A local lambda called in the function may use pointers like the function
// itself: `*p`, `&v[0]`, `q[1]` on captured pointers and arrays, C-style
// helpers taking pointers into captured arrays (`dot2(v, &v[0])`,
// `scale2(v, 0.9)`). It is lifted into a function of its parameters and
// captures and differentiated like a helper, in reverse mode, forward mode
// and Hessian-vector products. (Until 2026-12-04: "pointer operation '*p'
// in a lambda".) Callables of grad::map and grad::broadcast still refuse
// pointers: map/error-pointers.cpp. Values against central differences.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>
#include <cstdio>
using namespace gradcheck;

static double dot2(const double *a, const double *b) {
  return a[0] * b[0] + a[1] * b[1];
}
static void scale2(double *a, double s) {
  a[0] *= s;
  a[1] *= s;
}

[[grad]] double helpers(double x, double y) {
  double v[2] = {x, y * x};
  double *p = &v[1];
  double t = 0;
  auto step = [&](double u) {
    t += u * dot2(v, &v[0]) + *p * u;
    scale2(v, 0.9);
  };
  step(x);
  step(y);
  [&] { t += std::tanh(*p * x); }();
  return t + v[0] * v[1];
}

// A pointer to a by-value parameter, captured by copy.
[[grad]] double deref(double x) {
  double *p = &x;
  auto f = [p](double y) { return y * *p; };
  return f(x);
}

// A pointer into an array captured by copy, the array by reference and
// written.
[[grad]] double walk(double x, double z) {
  double a[3] = {x, z, x * z};
  const double *q = a + 1;
  auto g = [q, &a](double y) {
    a[0] = y * q[1];
    return *q * y + a[0];
  };
  double r = g(x) + g(z);
  return r * a[0];
}

[[grad::forward, grad::hessian]] double second(double x, double y) {
  double v[2] = {x, y * x};
  double *p = &v[1];
  double t = 0;
  auto step = [&](double u) { t += u * dot2(v, &v[0]) + *p * u; };
  step(x);
  step(y);
  return t;
}

int main() {
  // CHECK-COUNT-4: ok helpers.d
  check_grad("helpers", helpers, helpers_pullback, 0.4, -0.7);
  check_grad("helpers", helpers, helpers_pullback, 1.3, 0.9);
  // CHECK: ok deref.d0
  check_grad("deref", deref, deref_pullback, 0.7);
  // CHECK-COUNT-2: ok walk.d
  check_grad("walk", walk, walk_pullback, 0.7, -1.2);
  // d/dx (x x) = 2 x exactly.
  double dd = 0;
  deref_pullback(0.7, 1.0, &dd);
  // CHECK: ok deref.closed
  expect("deref.closed", dd, 1.4, 1e-15);
  const double x = 0.4, y = -0.7, e = 1e-5;
  for (int k = 0; k < 2; ++k) {
    double vx = k == 0, vy = k == 1;
    auto d = second_pushforward(x, y, vx, vy);
    double fd = (second(x + e * vx, y + e * vy) -
                 second(x - e * vx, y - e * vy)) / (2 * e);
    // CHECK: ok second.fwd
    expect("second.fwd", d.der[0], fd, 1e-7);
    double h[2] = {0, 0}, P[2] = {0, 0}, M[2] = {0, 0};
    second_hvp(x, y, vx, vy, &h[0], &h[1]);
    second_pullback(x + e * vx, y + e * vy, 1.0, &P[0], &P[1]);
    second_pullback(x - e * vx, y - e * vy, 1.0, &M[0], &M[1]);
    // CHECK-COUNT-2: ok second.hvp
    for (int i = 0; i < 2; ++i)
      expect("second.hvp", h[i], (P[i] - M[i]) / (2 * e), 1e-7);
  }
  return failures();
}
