// Pointer-to-pointer parameters: `double *a = *pa;` loads a pointer from
// memory; it points wherever that pointer does, and its shadow is the
// pointer loaded from the same place in the shadow memory (`*d_pa`), kept
// in a variable of the pullback at the declaration. Before (issue 49), the
// alias analysis took `*pa` for storage inside `pa` itself (the pointer
// cell): adjoints 0, and the seed of an overwritten output left at 1
// instead of 0.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "vecgrad.h"
#include "fwdcheck.h"
#include <cmath>

[[grad]] void rows(double **pa, double **pb, int n) {
  double *a = *pa;
  double *b = *pb;
  for (int i = 0; i < n; ++i)
    b[i] = std::sin(a[i]) * a[i];
}

[[grad]] double load(double **pp) { return **pp * 3.0 + (*pp)[1] * (*pp)[0]; }

[[grad]] double table(double **m, int r, int c) {
  double s = 0;
  for (int i = 0; i < r; ++i) {
    const double *row = m[i];
    for (int j = 0; j < c; ++j)
      s += row[j] * row[j] * (i + 1);
  }
  return s;
}

// Offsets from a loaded pointer (`*pp + 2`, `&(*pp)[1]`, `pp[1] + 1`) point
// where it points: before, the alias analysis took them for byte offsets
// into the pointer cell `pp` (adjoint 0 for 3).
[[grad, grad::forward]] double offset(double **pp) {
  double *w = *pp + 2;
  double *v = &(*pp)[1];
  return 3.0 * *w + v[1] * v[0];
}

[[grad]] double written(double **pp, double x) {
  double *w = pp[1] + 1;
  *w = x * w[-1];
  return *w * w[0] + (*pp)[0];
}

// The address of a local pointer passed as `double **` (`pload(&w, 0)`):
// its shadow is a value (the array's shadow plus w's offset), held in an
// lvalue for the call (before: a clang error in the generated code); in
// forward mode a helper writing through `(*pp)[1]` writes through its
// parameter (before: "no visible body").
static double pload(double **pp, int i) { return (*pp)[i] * (*pp)[i + 1]; }
static void pstore(double **pp, double v) { (*pp)[1] = v * (*pp)[0]; }
[[grad]] double inner(double **pp) { return (*pp)[0] * 2 + (*pp)[1]; }
[[grad, grad::forward]] double local(double x, double y) {
  double a[3] = {1.5 * x, y, x * y};
  double *w = a + 1;
  pstore(&w, x);
  return pload(&w, 0) + inner(&w) * a[0];
}

// Helpers loading pointers from their `T**` parameters, called from a
// [[grad]] function: their derivatives are split in two halves (they write
// memory the caller reads later), and the reverse half loads the shadow
// pointers first (before: the forward half read an adjoint parameter it
// does not take, a run-time crash). `const double **` in forward mode: the
// tangent of a `const double *` local (before: a clang error).
static void pmap(const double **pa, double **pb, int n) {
  const double *a = *pa;
  double *b = *pb;
  for (int i = 0; i < n; ++i)
    b[i] = std::tanh(a[i]) + 0.5 * b[i];
}
static void pscale(double **pp, double s) {
  double *a = *pp;
  a[0] *= s;
  a[1] += s * a[0];
}
[[grad, grad::forward]] double helpers(double x, double y) {
  double src[2] = {x * y, y};
  double dst[3] = {x, 2 * y, x - y};
  double *w = dst;
  const double *q = src;
  pmap(&q, &w, 2);
  double *v = dst + 1;
  pscale(&v, y);
  return dst[0] * dst[1] + dst[2] * dst[1];
}

int main() {
  auto X = vecgrad::sample(3, 7);
  double a[3] = {X[0], X[1], X[2]}, b[3] = {0, 0, 0};
  double da[3] = {0, 0, 0}, db[3] = {1, 1, 1};
  double *pa = a, *pb = b, *dpa = da, *dpb = db;
  rows_pullback(&pa, &pb, 3, &dpa, &dpb);
  std::vector<double> Got(da, da + 3);
  // (d/da_i of sum_i b_i, with b_i = sin(a_i) a_i.)
  vecgrad::check("rows", [](const std::vector<double> &Y) {
    double s = 0;
    for (double v : Y)
      s += std::sin(v) * v;
    return s;
  }, X, Got);
  // CHECK: ok rows.d0
  // CHECK: ok rows.d2
  // The seeds of the overwritten outputs are used up.
  gradcheck::expect("rows.seed", db[0] + db[1] + db[2], 0.0);
  // CHECK: ok rows.seed
  double v[2] = {X[0], X[1]}, dv[2] = {0, 0};
  double *pv = v, *dpv = dv;
  load_pullback(&pv, 1.0, &dpv);
  vecgrad::check("load", [](const std::vector<double> &Y) {
    double w[2] = {Y[0], Y[1]};
    double *p = w;
    return load(&p);
  }, {X[0], X[1]}, {dv[0], dv[1]});
  // CHECK: ok load.d1
  double r0[2] = {X[0], X[1]}, r1[2] = {X[2], 0.5};
  double dr0[2] = {0, 0}, dr1[2] = {0, 0};
  double *m[2] = {r0, r1}, *dm[2] = {dr0, dr1};
  table_pullback(m, 2, 2, 1.0, dm);
  vecgrad::check("table", [](const std::vector<double> &Y) {
    double s0[2] = {Y[0], Y[1]}, s1[2] = {Y[2], Y[3]};
    double *q[2] = {s0, s1};
    return table(q, 2, 2);
  }, {X[0], X[1], X[2], 0.5}, {dr0[0], dr0[1], dr1[0], dr1[1]});
  // CHECK: ok table.d3
  double o[3] = {X[0], X[1], X[2]}, dO[3] = {0, 0, 0}, tO[3] = {0, 1, 0};
  double *po = o, *dpo = dO, *tpo = tO;
  offset_pullback(&po, 1.0, &dpo);
  auto Offset = [](const std::vector<double> &Y) {
    double w[3] = {Y[0], Y[1], Y[2]};
    double *p = w;
    return offset(&p);
  };
  vecgrad::check("offset", Offset, {X[0], X[1], X[2]}, {dO[0], dO[1], dO[2]});
  // CHECK: ok offset.d0
  // CHECK: ok offset.d2
  gradcheck::expect("offset.fwd", offset_pushforward(&po, &tpo).der[0],
                    dO[1]);
  // CHECK: ok offset.fwd
  double w0[2] = {X[0], X[1]}, w1[2] = {X[2], 0.5};
  double dw0[2] = {0, 0}, dw1[2] = {0, 0}, dx = 0;
  double *pw[2] = {w0, w1}, *dpw[2] = {dw0, dw1};
  written_pullback(pw, 0.8, 1.0, dpw, &dx);
  vecgrad::check("written", [](const std::vector<double> &Y) {
    double s0[2] = {Y[0], Y[1]}, s1[2] = {Y[2], Y[3]};
    double *q[2] = {s0, s1};
    return written(q, Y[4]);
  }, {X[0], X[1], X[2], 0.5, 0.8}, {dw0[0], dw0[1], dw1[0], dw1[1], dx});
  // CHECK: ok written.d0
  // CHECK: ok written.d2
  // CHECK: ok written.d4
  fwdcheck::both("local", local, local_pullback, local_pushforward, 1.3, -0.7);
  // CHECK: ok local.d0
  // CHECK: ok local.d1
  // CHECK: ok local.fwd.x
  // CHECK: ok local.fwd.y
  fwdcheck::both("helpers", helpers, helpers_pullback, helpers_pushforward,
                 0.7, -0.4);
  // CHECK: ok helpers.d0
  // CHECK: ok helpers.d1
  // CHECK: ok helpers.fwd.x
  // CHECK: ok helpers.fwd.y
  return gradcheck::failures();
}
