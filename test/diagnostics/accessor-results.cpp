// The result of an accessor helper used directly as an lvalue or a value is
// an error that says how to rewrite it (bind it to a local first).
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s
static double &elem(double *A, int n, int i, int j) { return A[i * n + j]; }
static double *row(double *A, int n, int i) { return A + i * n; }

[[grad]] void f(double *A, int n, double a) {
  // CHECK: accessor-results.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate assignment to call to 'elem' through 'elem(A, n, 0, n - 1)' (bind the result to a local pointer or reference first) in 'f'
  elem(A, n, 0, n - 1) *= a;
  // CHECK: accessor-results.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate assignment to array subscript through 'row(A, n, 1)' (bind the result to a local pointer or reference first) in 'f'
  row(A, n, 1)[0] += a;
  // CHECK: accessor-results.cpp:[[@LINE+1]]:14: error: grad: cannot differentiate value of 'elem(A, n, 1, 1)', a reference into 'A' (bind it to a local reference first) in 'f'
  double x = elem(A, n, 1, 1) * a;
  A[0] += x;
}
// CHECK: 3 errors generated
