// grad::check on derivatives the plugin generates: a pullback over a
// std::vector, one over a pointer with a length, a wrt list (grad::nodiff),
// a pushforward; and a pullback that calls a user-provided derivative which
// is wrong on purpose: check reports the component it breaks.
// RUN: %gradxx %s -o %t
// RUN: %t > %t.out
// RUN: %FileCheck-strict %s --input-file=%t.out --implicit-check-not=FAIL

#include <grad/check.h>

#include <cmath>
#include <cstdio>
#include <vector>

// Rosenbrock in n dimensions.
[[grad]] double rosen(const std::vector<double> &x) {
  double s = 0;
  for (std::size_t i = 0; i + 1 < x.size(); ++i) {
    double a = x[i + 1] - x[i] * x[i], b = 1 - x[i];
    s += 100 * a * a + b * b;
  }
  return s;
}

[[grad]] double horner(const double *c, int n, double x) {
  double p = 0;
  for (int i = n - 1; i >= 0; --i)
    p = p * x + c[i];
  return p;
}

[[grad("x")]] double scaled(double x, double k) { return k * std::sin(x); }

[[grad::forward]] double growth(double x, double r) {
  return x * std::exp(r) / (1 + r * r);
}

// A user pullback that the plugin calls wherever cube is differentiated:
// d(x^3)/dx is 3x^2, not 2x^2.
double cube(double x) { return x * x * x; }
void cube_pullback(double x, double d_ret, double *d_x) {
  *d_x += 2 * x * x * d_ret;
}
[[grad]] double withcube(double x, double y) { return cube(x) + x * y; }

static int failures = 0;
static void expect(const char *name, double got, double want) {
  if (std::fabs(got - want) <= 1e-6 * std::fabs(want)) {
    std::printf("ok %s\n", name);
  } else {
    std::printf("FAIL %s got %.17g want %.17g\n", name, got, want);
    ++failures;
  }
}

int main() {
  std::vector<double> x{-1.2, 1.0, 0.5};
  grad::check_result r = grad::check({.names = {"x"}}, rosen, rosen_pullback, x);
  expect("rosen.ok", r.ok, 1);
  expect("rosen.rows", double(r.rows.size()), 3);
  // d/dx0 = -400 x0 (x1 - x0^2) - 2 (1 - x0)
  expect("rosen.d0", r.rows[0].analytic, -400 * -1.2 * (1.0 - 1.44) - 2 * 2.2);

  double c[4] = {1.0, -2.0, 0.5, 3.0};
  r = grad::check({.names = {"c", "n", "x"}}, horner, horner_pullback, c, 4,
                  0.8);
  expect("horner.ok", r.ok, 1);
  expect("horner.dc3", r.rows[3].analytic, 0.8 * 0.8 * 0.8);

  r = grad::check({.names = {"x", "k"}}, scaled, scaled_pullback, 0.7,
                  grad::nodiff(3.0));
  expect("scaled.ok", r.ok, 1);
  expect("scaled.rows", double(r.rows.size()), 1);

  r = grad::check({.names = {"x", "r"}}, growth, growth_pushforward, 2.0, 0.3);
  expect("growth.ok", r.ok, 1);

  r = grad::check({.names = {"x", "y"}}, withcube, withcube_pullback, 1.5,
                  -0.5);
  expect("withcube.reported", r.ok, 0);
  expect("withcube.x.reported", r.rows[0].ok, 0);
  expect("withcube.y.ok", r.rows[1].ok, 1);
  expect("withcube.x.analytic", r.rows[0].analytic, 2 * 1.5 * 1.5 - 0.5);
  expect("withcube.x.numeric", r.rows[0].numeric, 3 * 1.5 * 1.5 - 0.5);
  return failures != 0;
}

// CHECK-LABEL: grad::check pullback: 3 components, rtol 1.0e-06
// CHECK-NEXT: parameter   index          analytic           numeric   rel error
// CHECK-NEXT: x               0  -2.156000000e+02  -2.156000000e+02 {{.*}}  ok
// CHECK-NEXT: x               1   1.120000000e+02   1.120000000e+02 {{.*}}  ok
// CHECK-NEXT: x               2  -1.000000000e+02  -1.000000000e+02 {{.*}}  ok
// CHECK-NEXT: grad::check: ok
// CHECK: ok rosen.ok
// CHECK: ok rosen.d0
// CHECK-LABEL: grad::check pullback: 5 components
// CHECK: c               3   5.120000000e-01   5.120000000e-01 {{.*}}  ok
// CHECK-NEXT: x               -
// CHECK-NEXT: grad::check: ok
// CHECK: ok horner.dc3
// CHECK-LABEL: grad::check pullback: 1 component,
// CHECK-NEXT: parameter
// CHECK-NEXT: x               -   2.294526562e+00   2.294526562e+00 {{.*}}  ok
// CHECK: ok scaled.rows
// CHECK-LABEL: grad::check pushforward: 2 components
// CHECK: grad::check: ok
// CHECK: ok growth.ok
// CHECK-LABEL: grad::check pullback: 2 components
// CHECK-NEXT: parameter
// CHECK-NEXT: x               -   4.000000000e+00   6.250000000e+00 {{.*}}  {{FAIL$}}
// CHECK-NEXT: y               -   1.500000000e+00   1.500000000e+00 {{.*}}  ok
// CHECK-NEXT: grad::check: {{FAIL}}: 1 of 2 components differ
// CHECK: ok withcube.reported
// CHECK: ok withcube.x.numeric
