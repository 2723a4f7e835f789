// Pointer-to-pointer parameters: `double *a = *pa;` loads a pointer from
// memory; it points wherever that pointer does, and its shadow is the
// pointer loaded from the same place in the shadow memory (`*d_pa`), kept
// in a variable of the pullback at the declaration. Before (issue 49), the
// alias analysis took `*pa` for storage inside `pa` itself (the pointer
// cell): adjoints 0, and the seed of an overwritten output left at 1
// instead of 0.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
#include "vecgrad.h"
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
  return gradcheck::failures();
}
