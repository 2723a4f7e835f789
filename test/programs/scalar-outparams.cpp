// RUN: %gradxx %s -o %t && %t | FileCheck %s --implicit-check-not=FAIL
// CHECK: summary: 0 failure(s)
// Constructs: helpers writing scalars through pointers and references
// (`void sq(double* x)`, `void step(double& acc, double u)`,
// `polar(r, t, &x, &y)`, `swap_if_less(&a, &b)`); address-of locals passed to
// helpers; [[grad]] functions returning results through `double&` and
// `double*` out-parameters (several outputs); `double&` parameters that are
// read and written (in/out adjoints).
#include "fdcheck.h"

static void sq(double *x) { *x = *x * *x; }
static void step(double &acc, double u) { acc = 0.9 * acc + 0.1 * u * u; }
static void polar(double r, double t, double *x, double *y) {
  *x = r * std::cos(t);
  *y = r * std::sin(t);
}
static void swap_if_less(double *a, double *b) {
  if (*a < *b) {
    double t = *a;
    *a = *b;
    *b = t;
  }
}

[[grad]] double energy(double r, double t) {
  double x, y;
  polar(r, t, &x, &y);
  swap_if_less(&x, &y);
  sq(&x);
  double acc = 0;
  step(acc, x);
  step(acc, y);
  step(acc, x - y);
  return acc + x * y;
}

[[grad]] void to_cart(double r, double t, double &x, double &y) {
  polar(r, t, &x, &y);
}

[[grad]] void ema_update(double &m, double &v, double g, double beta) {
  m = beta * m + (1 - beta) * g;
  step(v, g);
  v += m * m;
}

[[grad]] void sincos_out(double x, double *s, double *c) {
  *s = std::sin(x);
  *c = std::cos(x);
  double t = *s;
  sq(&t);
  *c += t * *s;
}

static void test_energy() {
  double r0 = 1.7, t0 = 1.0, seed = -0.6; // x < y: swapped
  fdc::Vars at;
  at.add("r", r0).add("t", t0);
  fdc::Loss L = [&](fdc::Reader &rd) {
    double r = rd.get(), t = rd.get();
    return seed * energy(r, t);
  };
  fdc::Vars got;
#ifndef PRIMAL_ONLY
  double dr = 0, dt = 0;
  energy_pullback(r0, t0, seed, &dr, &dt);
  got.add(dr).add(dt);
#endif
  fdc::check("energy", at, L, got);
}

static void test_to_cart() {
  double r0 = 2.1, t0 = -0.8, x0 = 5.0, y0 = -3.0, sx = 0.7, sy = 1.9;
  fdc::Vars at;
  at.add("r", r0).add("t", t0).add("x", x0).add("y", y0);
  fdc::Loss L = [&](fdc::Reader &rd) {
    double r = rd.get(), t = rd.get(), x = rd.get(), y = rd.get();
    to_cart(r, t, x, y);
    return sx * x + sy * y;
  };
  fdc::Vars got;
#ifndef PRIMAL_ONLY
  double x = x0, y = y0, dr = 0, dt = 0, dx = sx, dy = sy;
  to_cart_pullback(r0, t0, x, y, &dr, &dt, &dx, &dy);
  got.add(dr).add(dt).add(dx).add(dy);
#endif
  fdc::check("to_cart", at, L, got);
}

static void test_ema_update() {
  double m0 = 0.3, v0 = 0.05, g0 = -1.2, b0 = 0.85, sm = 1.4, sv = -2.2;
  fdc::Vars at;
  at.add("m", m0).add("v", v0).add("g", g0).add("beta", b0);
  fdc::Loss L = [&](fdc::Reader &rd) {
    double m = rd.get(), v = rd.get(), g = rd.get(), beta = rd.get();
    ema_update(m, v, g, beta);
    return sm * m + sv * v;
  };
  fdc::Vars got;
#ifndef PRIMAL_ONLY
  double m = m0, v = v0, dm = sm, dv = sv, dg = 0, db = 0;
  ema_update_pullback(m, v, g0, b0, &dm, &dv, &dg, &db);
  got.add(dm).add(dv).add(dg).add(db);
#endif
  fdc::check("ema_update", at, L, got);
}

static void test_sincos_out() {
  double x0 = 0.9, s0 = 0.0, c0 = 0.0, ss = 0.5, sc = -1.5;
  fdc::Vars at;
  at.add("x", x0).add("s", s0).add("c", c0);
  fdc::Loss L = [&](fdc::Reader &rd) {
    double x = rd.get(), s = rd.get(), c = rd.get();
    sincos_out(x, &s, &c);
    return ss * s + sc * c;
  };
  fdc::Vars got;
#ifndef PRIMAL_ONLY
  double s = s0, c = c0, dx = 0, ds = ss, dc = sc, sref = s0, cref = c0;
  sincos_out(x0, &sref, &cref);
  sincos_out_pullback(x0, &s, &c, &dx, &ds, &dc);
  fdc::same("sincos_out.s", &s, &sref, 1);
  fdc::same("sincos_out.c", &c, &cref, 1);
  got.add(dx).add(ds).add(dc);
#endif
  fdc::check("sincos_out", at, L, got);
}

int main() {
  test_energy();
  test_to_cart();
  test_ema_update();
  test_sincos_out();
  return fdc::finish();
}
