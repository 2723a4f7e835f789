// Pointer dereference and address-of are errors at the operator.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

const double *table;
void store(double *out, double v);

// CHECK: pointer.cpp:[[@LINE+3]]:14: error: grad: cannot differentiate pointer dereference in 'deref'
// CHECK: pointer.cpp:[[@LINE+1]]:3: note: while differentiating 'deref' requested here
[[grad]] double deref(double x) {
  return x * *table;
}

// CHECK: pointer.cpp:[[@LINE+4]]:9: error: grad: cannot differentiate address-of in 'addr'
// CHECK: pointer.cpp:[[@LINE+1]]:3: note: while differentiating 'addr' requested here
[[grad]] double addr(double x) {
  double y = x * x;
  store(&y, x);
  return y;
}
