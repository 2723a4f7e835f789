// A call to a generated pullback that does not match gets, after clang's
// candidate or callee note, a note with the pullback's exact declaration
// (the user has no source line to look it up in), and for a wrt-restricted
// pullback which parameters have adjoints.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s
// RUN: not %grad-dump %s %dflags 2>&1 | FileCheck %s --check-prefix=DUMP

[[grad]] double f(double x, const double *v, int n) { return x * v[0] * n; }
[[grad("w, b")]] double loss(double w, double b, double x, double y) {
  return (w * x + b - y) * (w * x + b - y);
}
template <class T> [[grad]] T tf(T x) { return x * x; }
struct S {
  double k;
  [[grad]] double m(double x) const { return k * x; }
};

void calls() {
  double dx = 0, v[1] = {2};
  // CHECK: pullback-signature.cpp:[[@LINE+5]]:3: error: no matching function for call to 'f_pullback'
  // CHECK: pullback-signature.cpp:8:17: note: candidate function not viable: requires 6 arguments, but 5 were provided
  // CHECK: pullback-signature.cpp:8:17: note: 'f_pullback' is declared by clang-grad as 'void f_pullback(double x, const double *v, int n, double d_ret, double *d_x, double *d_v)'
  // DUMP: pullback-signature.cpp:8:17: note: 'f_pullback' is declared by clang-grad as 'void f_pullback(double x, const double *v, int n, double d_ret, double *d_x, double *d_v)'
  // CHECK-NOT: note
  f_pullback(1.0, v, 1, 1.0, &dx);
  double dw = 0, db = 0, dxx = 0, dy = 0;
  // CHECK: pullback-signature.cpp:[[@LINE+4]]:3: error: no matching function for call to 'loss_pullback'
  // CHECK: pullback-signature.cpp:9:25: note: candidate function not viable: requires 7 arguments, but 9 were provided
  // CHECK: pullback-signature.cpp:9:25: note: 'loss_pullback' is declared by clang-grad as 'void loss_pullback(double w, double b, double x, double y, double d_ret, double *d_w, double *d_b)'
  // CHECK: pullback-signature.cpp:9:25: note: the wrt list of 'loss' gives adjoint parameters only to 'w', 'b' (none to 'x', 'y')
  loss_pullback(1, 2, 3, 4, 1.0, &dw, &db, &dxx, &dy);
  // CHECK: pullback-signature.cpp:[[@LINE+3]]:3: error: no matching function for call to 'tf_pullback'
  // CHECK: pullback-signature.cpp:12:31: note: candidate function template not viable: requires 3 arguments, but 2 were provided
  // CHECK: pullback-signature.cpp:12:31: note: 'tf_pullback' is declared by clang-grad as 'template <class T> inline void tf_pullback(T x, T d_ret, T *d_x)'
  tf_pullback(1.0, 1.0);
  S s{2};
  // CHECK: pullback-signature.cpp:[[@LINE+3]]:29: error: too few arguments to function call, expected 4, have 3
  // CHECK: pullback-signature.cpp:15:19: note: 'm_pullback' declared here
  // CHECK: pullback-signature.cpp:15:19: note: 'm_pullback' is declared by clang-grad as 'inline void m_pullback(double x, double d_ret, double *d_x, S *d_this) const'
  s.m_pullback(1.0, 1.0, &dx);
  // A wrong call of the function itself gets no pullback note.
  // CHECK: pullback-signature.cpp:[[@LINE+3]]:3: error: no matching function for call to 'f'
  // CHECK: pullback-signature.cpp:8:17: note: candidate function not viable: requires 3 arguments, but 1 was provided
  // CHECK-NOT: note
  f(1.0);
}
// CHECK: 5 errors generated
