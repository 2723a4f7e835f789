// An object of a class that holds a pointer into differentiated memory
// (`struct View { const double *p; int n; }`) as a local or as a call's
// argument: the reads through it would carry derivatives that no adjoint
// follows, so it is an error that says to pass the pointer itself (before,
// the gradient was silently zero). A view of constant data is fine.
// Likewise arrays and standard containers of pointers (`double *rows[2] =
// {r0, r1}`, `std::vector<double *>`), however the pointer gets in (the
// initializer, an element or member assignment, push_back): before, a
// helper reading the rows through them gave a zero gradient without a
// diagnostic. (Pointer-to-pointer parameters, `double **A`, are tracked:
// test/memory/pointer-to-pointer.cpp.)
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s
#include <vector>
struct View {
  const double *p;
  int n;
};
static double sumv(View v) {
  double s = 0;
  for (int i = 0; i < v.n; ++i)
    s += v.p[i] * v.p[i];
  return s;
}
static const double Table[2] = {0.5, 2.0};

// CHECK: pointer-holders.cpp:[[@LINE+4]]:8: error: grad: cannot differentiate local variable of type 'View' holding a pointer into differentiated memory (pass the pointer itself) in 'local'
// CHECK: pointer-holders.cpp:[[@LINE+1]]:3: note: while differentiating 'local' requested here
[[grad]] double local(double x, double y) {
  double a[2] = {x, y};
  View v{a, 2};
  return sumv(v);
}
// CHECK: pointer-holders.cpp:[[@LINE+4]]:15: error: grad: cannot differentiate argument 'View{a, 2}' of type 'View' holding a pointer into differentiated memory (pass the pointer itself) in 'temporary'
// CHECK: pointer-holders.cpp:[[@LINE+1]]:3: note: while differentiating 'temporary' requested here
[[grad]] double temporary(double x, double y) {
  double a[2] = {x, y};
  return sumv(View{a, 2}) * x;
}
[[grad]] double constant(double x) {
  View t{Table, 2};
  return sumv(t) * x;
}

static double rowsum(double **A, int n, int m) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j)
      s += A[i][j] * A[i][j];
  return s;
}
static void scale(double **A, int n, double c) {
  for (int i = 0; i < n; ++i)
    A[i][0] *= c;
}
// CHECK: pointer-holders.cpp:[[@LINE+4]]:11: error: grad: cannot differentiate local variable of type 'double *[2]' holding a pointer into differentiated memory (pass the pointer itself) in 'rows'
// CHECK: pointer-holders.cpp:[[@LINE+1]]:3: note: while differentiating 'rows' requested here
[[grad]] double rows(double x, double y) {
  double r0[2] = {x, y}, r1[2] = {y * x, 1.0};
  double *A[2] = {r0, r1};
  return rowsum(A, 2, 2);
}
// CHECK: pointer-holders.cpp:[[@LINE+5]]:3: error: grad: cannot differentiate pointer into differentiated memory stored in 'A', a local variable of type 'double *[2]' (pass the pointer itself) in 'assigned'
// CHECK: pointer-holders.cpp:[[@LINE+1]]:3: note: while differentiating 'assigned' requested here
[[grad]] double assigned(double x, double y) {
  double r0[2] = {x, y}, r1[2] = {y * x, 1.0};
  double *A[2];
  A[0] = r0;
  A[1] = r1 + 0;
  scale(A, 2, y);
  return r0[0] * r1[0];
}
// CHECK: pointer-holders.cpp:[[@LINE+5]]:3: error: grad: cannot differentiate pointer into differentiated memory stored in 'rows', a local variable of type 'std::vector<double *>' (pass the pointer itself) in 'vectorOfRows'
// CHECK: pointer-holders.cpp:[[@LINE+1]]:3: note: while differentiating 'vectorOfRows' requested here
[[grad]] double vectorOfRows(double x, double y) {
  double r0[2] = {x, y};
  std::vector<double *> rows;
  rows.push_back(r0);
  return rowsum(rows.data(), 1, 2) * y;
}
// CHECK: pointer-holders.cpp:[[@LINE+5]]:3: error: grad: cannot differentiate pointer into differentiated memory stored in 'v', a local variable of type 'View' (pass the pointer itself) in 'memberStore'
// CHECK: pointer-holders.cpp:[[@LINE+1]]:3: note: while differentiating 'memberStore' requested here
[[grad]] double memberStore(double x, double y) {
  double a[2] = {x, y};
  View v;
  v.p = a;
  v.n = 2;
  return sumv(v);
}
// Pointers to constant data, null pointers: fine.
[[grad]] double constantRows(double x, double y) {
  const double *T[1] = {Table};
  double *Z[1] = {nullptr};
  return T[0][1] * x + (Z[0] ? 1 : 0) * y;
}
// CHECK: 6 errors generated
