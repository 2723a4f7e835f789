// Verify mode: pointer and reference parameters of the same type, one of
// them written, are taken as distinct memory by the derivative; a caller
// of the pullback passing the same memory twice gets an abort naming the
// parameters (without verify: a wrong gradient, checked below). Two
// references to one number are checked always, verify or not.
// UNSUPPORTED: verify
// RUN: %gradxx %s -o %t && %t 0 | FileCheck %s --check-prefix=PLAIN
// RUN: %gradxx -fplugin-arg-grad-verify %s -o %t.v
// RUN: not --crash %t.v 1 2>&1 | FileCheck %s --check-prefix=PTR
// RUN: not --crash %t.v 2 2>&1 | FileCheck %s --check-prefix=REF
// RUN: %t.v 3 | FileCheck %s --check-prefix=OK
// RUN: not --crash %t 2 2>&1 | FileCheck %s --check-prefix=REF
#include <cstdio>
#include <cstdlib>

[[grad]] void scale(const double *a, double k, double *out) {
  out[0] = k * a[0];
  out[1] = k * a[1] * out[0];
}

[[grad]] void upd(double &a, double &b) {
  a = a * b;
  b = b + a;
}

int main(int argc, char **argv) {
  int Mode = argc > 1 ? std::atoi(argv[1]) : 0;
  double x[2] = {1, 2}, dx[2] = {}, dout[2] = {1, 1}, dk = 0;
  if (Mode == 0 || Mode == 1) {
    scale_pullback(x, 3.0, x, dx, &dk, dout);
    std::printf("%g %g %g\n", dx[0], dx[1], dk);
  } else if (Mode == 2) {
    double a = 2, da = 1, db = 1;
    upd_pullback(a, a, &da, &db);
  } else {
    double a = 2, b = 3, da = 0, db = 1;
    upd_pullback(a, b, &da, &db);
    std::printf("%g %g\n", da, db); // b' = b + a b: d/da = b = 3, d/db = 1 + a = 3
  }
}
// PLAIN: 21 9 75
// PTR: grad: verify: {{.*}}distinct.cpp:16:56: in 'scale': parameters 'a' and 'out' are the same memory, which the derivative assumes distinct (its result would be wrong)
// REF: grad: {{.*}}distinct.cpp:21:38: in 'upd': parameters 'a' and 'b' are the same memory, which the derivative takes as distinct (pass a copy of one of them)
// OK: 3 3
