// Function templates and virtual member functions cannot carry [[grad]]
// yet: a clear error at the attribute, not a crash or a silent no-op.
// (Templates called from [[grad]] functions are differentiated per
// instantiation; see test/templates.)
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

struct Model {
  double w;
  // CHECK: attr-unsupported-function.cpp:[[@LINE+1]]:5: error: grad: cannot differentiate virtual member function 'predict' yet
  [[grad]] virtual double predict(double x) const { return w * x; }
};

// CHECK: attr-unsupported-function.cpp:[[@LINE+1]]:22: error: grad: cannot differentiate function template 'square' yet
template <class T> [[grad]] T square(T x) { return x * x; }

double use(double x) { return square(x); }
