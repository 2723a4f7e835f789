// A struct parameter with floating members and a pointer member (`const
// double *x`, `double *w`): its adjoint is a same-shaped object whose
// pointer members point to the adjoints of what the primal's point to
// (docs/abi.md). The pullback accumulates through them; a `const double *`
// member's shadow is written through a const_cast (it was a Sema error,
// "read-only variable is not assignable", in generated code). Also through
// a helper without [[grad]] that takes the struct by const reference.
// Values against finite differences.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %gradxx -fsanitize=address,undefined %s -o %t.asan && %t.asan | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s --function=g %dflags | FileCheck %s --check-prefix=DUMP
#include "gradcheck.h"
#include <cmath>

struct S {
  double a;
  const double *x;
  int n;
  double *w;
};

// DUMP-LABEL: void g_pullback(const S &s, double y, double d_ret, S *d_s, double *d_y)
// DUMP: (*d_s).w[i] +=
// DUMP: (const_cast<double *>((*d_s).x))[i] +=
[[grad]] double g(const S &s, double y) {
  double t = s.a * y;
  for (int i = 0; i < s.n; ++i)
    t += std::sin(s.x[i] * s.a) * s.w[i];
  return t * y;
}

static double weighted(const S &s, int i) {
  return s.w[i] * s.x[i] * s.x[i] + s.a;
}

[[grad]] double h(const S &s) {
  double r = 0;
  for (int i = 0; i < s.n; ++i)
    r += std::exp(0.1 * weighted(s, i));
  return r;
}

int main() {
  double x[3] = {0.3, -0.7, 1.1}, w[3] = {0.5, 1.5, -0.25};
  S s{0.8, x, 3, w};
  const double y = 1.3;
  auto G = [&](const S &v) { return g(v, y); };
  auto H = [&](const S &v) { return h(v); };
  // Central differences in each number the struct reaches.
  auto Check = [&](const char *Name, auto F, const S &Ds, double Dy,
                   bool WithY) {
    double e = 1e-6;
    double xs[3], ws[3];
    for (int i = 0; i < 3; ++i)
      xs[i] = x[i], ws[i] = w[i];
    S p{s.a, xs, 3, ws};
    p.a = s.a + e;
    double Fa = F(p);
    p.a = s.a - e;
    Fa = (Fa - F(p)) / (2 * e);
    p.a = s.a;
    gradcheck::expect(std::string(Name) + ".a", Ds.a, Fa, 1e-6);
    for (int i = 0; i < 3; ++i) {
      xs[i] = x[i] + e;
      double Fx = F(p);
      xs[i] = x[i] - e;
      Fx = (Fx - F(p)) / (2 * e);
      xs[i] = x[i];
      gradcheck::expect(std::string(Name) + ".x" + std::to_string(i),
                        Ds.x[i], Fx, 1e-6);
      ws[i] = w[i] + e;
      double Fw = F(p);
      ws[i] = w[i] - e;
      Fw = (Fw - F(p)) / (2 * e);
      ws[i] = w[i];
      gradcheck::expect(std::string(Name) + ".w" + std::to_string(i),
                        Ds.w[i], Fw, 1e-6);
    }
    if (WithY)
      gradcheck::expect(std::string(Name) + ".y", Dy,
                        (g(s, y + e) - g(s, y - e)) / (2 * e), 1e-6);
  };
  double dx[3] = {}, dw[3] = {}, dy = 0;
  S ds{0, dx, 0, dw};
  g_pullback(s, y, 1.0, &ds, &dy);
  Check("g", G, ds, dy, true);
  // CHECK: ok g.a
  // CHECK-COUNT-6: ok g.{{[xw]}}{{[0-2]}}
  // CHECK: ok g.y
  double hx[3] = {}, hw[3] = {};
  S hs{0, hx, 0, hw};
  h_pullback(s, 1.0, &hs);
  Check("h", H, hs, 0, false);
  // CHECK: ok h.a
  // CHECK-COUNT-6: ok h.{{[xw]}}{{[0-2]}}
  return gradcheck::failures();
}
