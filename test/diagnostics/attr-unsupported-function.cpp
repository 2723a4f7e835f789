// Kinds of functions that cannot carry [[grad]] yet: a clear error at the
// attribute, not a crash or a silent no-op. (Function templates at
// namespace scope can; see test/templates/grad-template.cpp.)
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

struct Model {
  double w;
  // CHECK: attr-unsupported-function.cpp:[[@LINE+1]]:5: error: grad: cannot differentiate virtual member function 'predict' yet
  [[grad]] virtual double predict(double x) const { return w * x; }
  // CHECK: attr-unsupported-function.cpp:[[@LINE+1]]:24: error: grad: cannot differentiate member function template 'scale' yet
  template <class T> [[grad]] T scale(T x) const { return w * x; }
};

template <class T> struct Box {
  T v;
  // CHECK: attr-unsupported-function.cpp:[[@LINE+1]]:5: error: grad: cannot differentiate member of a class template 'get' yet
  [[grad]] T get(T x) const { return v * x; }
};

// CHECK: attr-unsupported-function.cpp:[[@LINE+1]]:25: error: grad: cannot differentiate function template with a parameter pack 'sum' yet
template <class... T> [[grad]] double sum(T... xs) { return (xs + ...); }

double use(double x) { return Box<double>{2}.get(x); }
