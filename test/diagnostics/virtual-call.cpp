// A virtual call through a base reference: the dynamic type decides which
// body runs, so it is an error at the call (never the base's derivative).
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

struct Layer {
  double w = 1;
  virtual double apply(double x) const { return w * x; }
};

// CHECK: virtual-call.cpp:[[@LINE+3]]:10: error: grad: cannot differentiate virtual call to 'apply' (which override runs is not known: make it non-virtual, or declare the class of the object 'final') in 'run'
// CHECK: virtual-call.cpp:[[@LINE+1]]:3: note: while differentiating 'run' requested here
[[grad]] double run(const Layer &l, double x) {
  return l.apply(x) * x;
}
