// An object of a class that holds a pointer into differentiated memory
// (`struct View { const double *p; int n; }`) as a local or as a call's
// argument: the reads through it would carry derivatives that no adjoint
// follows, so it is an error that says to pass the pointer itself (before,
// the gradient was silently zero). A view of constant data is fine.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s
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
// CHECK: 2 errors generated
