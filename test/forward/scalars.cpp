// [[grad::forward]] on scalar code: arithmetic, <cmath> rules (also those
// whose partial reads the result), compound assignments, ?:, if/else,
// loops with break and continue, increments inside expressions, integer
// bookkeeping, casts, a wrt list, and callees differentiated on demand.
// Values and directional derivatives are checked against the primal and
// central differences along every unit direction and a mixed one.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "fwdcheck.h"
#include <cmath>
#include <vector>

using V = std::vector<double>;

// DUMP: ::grad::dual<double> arith_pushforward(double x, double y, double t_x, double t_y) {
[[grad::forward]] double arith(double x, double y) {
  double a = x * y - x / y + 3 * x;
  double b = -a + (x - 2) * (y + 1) / (x * x + 1);
  return a * b;
}

[[grad::forward]] double maths(double x, double y) {
  return std::sin(x) * std::cos(y) + std::exp(x * y) + std::log(1 + x * x) +
         std::sqrt(y * y + 2) + std::tanh(x - y) + std::pow(x, 3) +
         std::pow(y, x) + std::atan2(y, x) + std::fabs(x - 2 * y);
}

[[grad::forward]] double compound(double x, double y) {
  double s = x;
  s += y * x;
  s -= std::sin(y);
  s *= x + y;
  s /= 1 + y * y;
  double t = s;
  t *= t;
  t /= s + 3;
  return t;
}

[[grad::forward]] double branches(double x, double y) {
  double r = x > y ? x * x : y * std::exp(x);
  if (x * y > 0.5) {
    r += x;
  } else if (x < 0) {
    r -= y;
  } else {
    r *= y;
  }
  return r + (y > 1 ? std::sqrt(y) : 2.0);
}

[[grad::forward]] double loops(double x, double y, int n) {
  double s = 0, p = 1;
  for (int i = 0; i < n; ++i) {
    if (i == 3)
      continue;
    s += std::sin(x * i) * p;
    p *= y;
    if (s > 100)
      break;
  }
  int k = 0;
  while (k < n) {
    s = s * 0.5 + x;
    ++k;
  }
  do {
    s += y;
    --k;
  } while (k > 2);
  return s;
}

// A floating induction variable whose step is differentiated.
[[grad::forward]] double stepping(double x, double dt) {
  double acc = 0;
  int n = 0;
  for (double t = 0; n < 5; t += dt, ++n)
    acc += t * x;
  return acc;
}

// Assignments and increments inside expressions, sequenced as C++ does.
[[grad::forward]] double effects(double x, double y) {
  double a, b;
  a = b = x * y;
  double t = x;
  (t *= x) *= y;
  double u = y;
  if ((u += x) > 0)
    t += u;
  double w = x;
  double z = w++ * y;
  z += w;
  return a + b + t + z;
}

// C++17 evaluates the right operand first: it reads the old x, even
// though the left operand writes x through w (forward mode computes the
// right side's value and tangent before the inner write).
[[grad::forward]] double aliased(double x, double y) {
  double *w = &x;
  (*w = y * 2) *= 1 / (1.5 + x * x);
  return x + y;
}

static double sq(double a) { return a * a; }
static double poly(double a, double b) {
  double r = 0;
  for (int i = 0; i < 3; ++i)
    r = r * a + b;
  return r + sq(a);
}
[[grad::forward]] double calls(double x, double y) {
  return poly(x, y) * sq(y) + poly(sq(x), 2.0);
}

// Only x is differentiated: the pushforward takes one tangent.
// DUMP: ::grad::dual<double> onlyx_pushforward(double x, double y, double t_x) {
[[grad::forward("x")]] double onlyx(double x, double y) {
  y = y * x; // y is written: it gets a tangent of its own
  return x * y + static_cast<float>(y) * 0;
}

// User-declared pushforwards win: for a function without a body, and for
// one whose body the plugin would differentiate (a staircase whose own
// derivative is 0; the user's says 1).
double ext(double x);
::grad::dual<double> ext_pushforward(double x, double t_x) {
  double c = std::cbrt(x);
  return {c, {t_x / (3 * c * c)}};
}
double ext(double x) { return std::cbrt(x); }
double stair(double x) { return std::floor(x * 1000) / 1000; }
::grad::dual<double> stair_pushforward(double x, double t_x) {
  return {stair(x), {t_x}};
}
[[grad::forward]] double users(double x) { return ext(x) * stair(x); }

float fl(float x) { return x * x * 3.0f; }
[[grad::forward]] float flo(float x) { return fl(x) + std::sin(x); }

int main() {
  auto F2 = [](auto f) { return [f](const V &X) { return f(X[0], X[1]); }; };
#define CHECK2(NAME)                                                           \
  fwdcheck::each(#NAME, F2(NAME), [](const V &X, const V &D) {                 \
    auto R = NAME##_pushforward(X[0], X[1], D[0], D[1]);                       \
    gradcheck::expect(#NAME ".val", R.val, NAME(X[0], X[1]), 1e-15);           \
    return R.der[0];                                                           \
  }, {0.7, 1.3});
  CHECK2(arith)
  CHECK2(maths)
  CHECK2(compound)
  CHECK2(branches)
  CHECK2(effects)
  CHECK2(calls)
  CHECK2(stepping)
  CHECK2(aliased)
  fwdcheck::each("branches2", F2(branches), [](const V &X, const V &D) {
    return branches_pushforward(X[0], X[1], D[0], D[1]).der[0];
  }, {-0.4, 0.3});
  fwdcheck::each("loops", [](const V &X) { return loops(X[0], X[1], 7); },
                 [](const V &X, const V &D) {
                   return loops_pushforward(X[0], X[1], 7, D[0], D[1]).der[0];
                 }, {0.4, 0.9});
  fwdcheck::each("onlyx", [](const V &X) { return onlyx(X[0], 1.7); },
                 [](const V &X, const V &D) {
                   return onlyx_pushforward(X[0], 1.7, D[0]).der[0];
                 }, {0.4});
  {
    double x = 1.7, c = std::cbrt(x), st = std::floor(x * 1000) / 1000;
    auto U = users_pushforward(x, 1.0);
    gradcheck::expect("users", U.der[0], st / (3 * c * c) + c, 1e-12);
  }
  auto R = flo_pushforward(0.5f, 1.0f);
  gradcheck::expect("float", R.der[0], 6 * 0.5f + std::cos(0.5f), 1e-6);
  return gradcheck::failures();
}
// CHECK: ok arith.v0
// CHECK: ok arith.val
// CHECK: ok maths.v2
// CHECK: ok compound.v2
// CHECK: ok branches.v2
// CHECK: ok effects.v2
// CHECK: ok calls.v2
// CHECK: ok stepping.v2
// CHECK: ok aliased.v2
// CHECK: ok branches2.v2
// CHECK: ok loops.v2
// CHECK: ok onlyx.v1
// CHECK: ok users
// CHECK: ok float
