// Rewrites suggested by the refusals of calls to the user's helpers: an
// iterator passed to a helper (write the loop, or pass a pointer such as
// v.data()), a split call beside a call that writes memory in a branch of
// '?:' (write them as statements of their own), and a call through a user
// pullback whose memory changes before the reverse sweep (give the function
// a body the plugin can see, or a user pullback without memory parameters),
// and a class argument of a member call, returned by a call, whose adjoint
// cannot be made (bind it to a local first).
// The first RUN line checks each message, its location and its notes; the
// second compiles the rewrites under the same names and checks their
// gradients against central finite differences.
// RUN: not %gradxx -fsyntax-only -DERRORS %s 2>&1 | %FileCheck-strict %s --check-prefix=ERR
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "gradcheck.h"
#include <cmath>
#include <vector>

// Scales a range in place, for iterators or pointers alike.
template <class It> static void scaleRange(It first, It last, double s) {
  for (; first != last; ++first)
    *first *= s;
}

// A midpoint rule for any integrand.
template <class F> static double midpoint(F f, double a, double b, int n) {
  double h = (b - a) / n, s = 0;
  for (int i = 0; i < n; ++i)
    s += f(a + (i + 0.5) * h);
  return s * h;
}

// Writes the next state into st and returns its energy.
static double advance(double *st, double dt) {
  st[0] += dt * st[1];
  st[1] -= dt * st[0];
  return st[0] * st[0] + st[1] * st[1];
}
// Reads the state.
static double kinetic(const double *st) { return 0.5 * st[1] * st[1]; }

// (A lambda passed to a helper template, once refused with "call it in
// this function instead", is differentiated as written:
// test/calls/lambdas-passed.cpp.)
[[grad]] double area(double k, double b) {
  return midpoint([k](double t) { return std::exp(-k * t * t); }, 0.0, b, 8);
}

#ifdef ERRORS
// ADVICE: (write the loop, or pass a pointer such as v.data())
[[grad]] double scaledNorm(double x, double y) {
  std::vector<double> v{x, y, x * y};
  scaleRange(v.begin(), v.end(), x);
  // ERR: calls-helpers.cpp:[[@LINE-1]]:14: error: grad: cannot differentiate iterator 'v.begin()' passed to 'scaleRange' (write the loop, or pass a pointer such as v.data()) in 'scaledNorm'
  // ERR: calls-helpers.cpp:[[@LINE-4]]:3: note: while differentiating 'scaledNorm' requested here
  return v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
}

// ADVICE: (write them as statements of their own)
[[grad]] double orbit(double x, double v) {
  double st[2] = {x, v};
  double e = advance(st, 0.1) + (x > 0 ? kinetic(st) : 0.0);
  // ERR: calls-helpers.cpp:[[@LINE-1]]:42: error: grad: cannot differentiate call to 'kinetic' next to a call that writes memory, in a branch of '?:' (write them as statements of their own) in 'orbit'
  // ERR: calls-helpers.cpp:[[@LINE-4]]:3: note: while differentiating 'orbit' requested here
  return e * st[0];
}
#else
[[grad]] double scaledNorm(double x, double y) {
  std::vector<double> v{x, y, x * y};
  scaleRange(v.data(), v.data() + v.size(), x);
  return v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
}

[[grad]] double orbit(double x, double v) {
  double st[2] = {x, v};
  double e = advance(st, 0.1);
  double k = x > 0 ? kinetic(st) : 0.0;
  e += k;
  return e * st[0];
}
#endif

// The sum of squares with a hand-written pullback; the function changes
// its memory after the call.
static double sumsq(const double *a, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += a[i] * a[i];
  return s;
}
#ifdef ERRORS
static void sumsq_pullback(const double *a, int n, double d_ret, double *d_a) {
  for (int i = 0; i < n; ++i)
    d_a[i] += 2 * a[i] * d_ret;
}
// ADVICE: (give the function a body the plugin can see, or a user pullback without memory parameters)
[[grad]] double relax(double x, double y) {
  double a[2] = {x, y};
  double s = sumsq(a, 2);
  // ERR: calls-helpers.cpp:[[@LINE-1]]:14: error: grad: cannot differentiate call to 'sumsq' through its user pullback, which would run after the memory it reads or writes has changed (give the function a body the plugin can see, or a user pullback without memory parameters) in 'relax'
  // ERR: calls-helpers.cpp:[[@LINE-4]]:3: note: while differentiating 'relax' requested here
  a[0] = s * y;
  return a[0] + a[1] * s;
}
#else
// Without the user pullback: the body is differentiated.
[[grad]] double relax(double x, double y) {
  double a[2] = {x, y};
  double s = sumsq(a, 2);
  a[0] = s * y;
  return a[0] + a[1] * s;
}
#endif

// The other rewrite: a user pullback without memory parameters.
static double sumsq2(double a0, double a1) { return a0 * a0 + a1 * a1; }
static void sumsq2_pullback(double a0, double a1, double d_ret, double *d_a0,
                            double *d_a1) {
  *d_a0 += 2 * a0 * d_ret;
  *d_a1 += 2 * a1 * d_ret;
}
[[grad]] double relax2(double x, double y) {
  double a[2] = {x, y};
  double s = sumsq2(a[0], a[1]);
  a[0] = s * y;
  return a[0] + a[1] * s;
}

// A polynomial kept in a std::vector, integrated by a midpoint rule.
struct Poly {
  std::vector<double> c;
};
struct Rule {
  double h;
  double integrate(const Poly &p) const {
    double s = 0;
    for (int i = 0; i < 4; ++i) {
      double t = (i + 0.5) * h, v = 0, tk = 1;
      for (std::size_t k = 0; k < p.c.size(); ++k) {
        v += p.c[k] * tk;
        tk *= t;
      }
      s += v * h;
    }
    return s;
  }
};
static Poly makePoly(double x, double y) { return Poly{{x, y, x * y}}; }

#ifdef ERRORS
// (With <grad/grad.h> too: test/diagnostics/owner-temporary-adjoint.cpp.)
// ADVICE: (bind it to a local first)
[[grad]] double polyArea(double x, double y) {
  Rule r{0.25};
  return r.integrate(makePoly(x, y));
  // ERR: calls-helpers.cpp:[[@LINE-1]]:22: error: grad: cannot differentiate argument 'makePoly(x, y)' of type 'Poly', whose adjoint cannot be made here (bind it to a local first) in 'polyArea'
  // ERR: calls-helpers.cpp:[[@LINE-4]]:3: note: while differentiating 'polyArea' requested here
}
#else
[[grad]] double polyArea(double x, double y) {
  Rule r{0.25};
  Poly p = makePoly(x, y);
  return r.integrate(p);
}
#endif

int main() {
  gradcheck::check_grad("scaledNorm", scaledNorm, scaledNorm_pullback, 0.8,
                        -0.6);
  // CHECK: ok scaledNorm.d0
  // CHECK: ok scaledNorm.d1
  gradcheck::check_grad("area", area, area_pullback, 0.7, 1.4);
  // CHECK: ok area.d0
  // CHECK: ok area.d1
  gradcheck::check_grad("orbit", orbit, orbit_pullback, 0.6, -0.9);
  // CHECK: ok orbit.d0
  // CHECK: ok orbit.d1
  gradcheck::check_grad("orbit.neg", orbit, orbit_pullback, -0.6, 0.9);
  // CHECK: ok orbit.neg.d0
  // CHECK: ok orbit.neg.d1
  gradcheck::check_grad("relax", relax, relax_pullback, 0.5, 1.2);
  // CHECK: ok relax.d0
  // CHECK: ok relax.d1
  gradcheck::check_grad("relax2", relax2, relax2_pullback, 0.5, 1.2);
  // CHECK: ok relax2.d0
  // CHECK: ok relax2.d1
  gradcheck::check_grad("polyArea", polyArea, polyArea_pullback, 0.5, 1.5);
  // CHECK: ok polyArea.d0
  // CHECK: ok polyArea.d1
  return gradcheck::failures();
}
