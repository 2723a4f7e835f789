// Arithmetic, locals, re-assignment and compound assignment.
// RUN: %gradxx %s -o %t && %t | %FileCheck-strict %s --implicit-check-not=FAIL
// RUN: %dump %s %dflags | FileCheck %s --check-prefix=DUMP
#include "gradcheck.h"

// DUMP-LABEL: void add_mul_pullback(double x, double y, double d_ret, double *d_x, double *d_y) {
// DUMP-NOT: tape
// DUMP: *d_x += _d_x;
// DUMP-NEXT: *d_y += _d_y;
[[grad]] double add_mul(double x, double y) { return x * y + x - y / 2.0; }

// DUMP-LABEL: void overwrite_pullback(
[[grad]] double overwrite(double x, double y) {
  double z = x * y;
  z = z * z + x; // the old z is read by the reverse sweep
  z = -z / y;
  return z;
}

[[grad]] double compound(double x, double y) {
  double a = x;
  a += y * x;
  a -= 3 * y;
  a *= x;
  a /= y;
  return a;
}

[[grad]] double nested_blocks(double x, double y) {
  double s = 0;
  {
    double t = x * x;
    s += t;
  }
  {
    double t = y * x;
    s += t * t;
  }
  return s;
}

[[grad]] double unary(double x, double y) { return -x * +y - -(x / y); }

[[grad]] double constants(double x, double y) { return 4 * x + 2.5 + 0 * y; }

int main() {
  using gradcheck::check_grad;
  // CHECK: ok add_mul.d0
  // CHECK: ok add_mul.d1
  check_grad("add_mul", add_mul, add_mul_pullback, 1.5, -0.75);
  // CHECK: ok overwrite.d0
  check_grad("overwrite", overwrite, overwrite_pullback, 0.3, 1.7);
  // CHECK: ok compound.d1
  check_grad("compound", compound, compound_pullback, 1.1, 2.3);
  check_grad("nested_blocks", nested_blocks, nested_blocks_pullback, 0.4, 0.9);
  check_grad("unary", unary, unary_pullback, 0.4, 0.9);
  check_grad("constants", constants, constants_pullback, 0.4, 0.9);
  // Adjoints accumulate.
  double dx = 1, dy = 2;
  add_mul_pullback(1.5, -0.75, 1.0, &dx, &dy);
  // CHECK: ok accumulate
  gradcheck::expect("accumulate", dx, 1 + (-0.75 + 1));
  return gradcheck::failures();
}
