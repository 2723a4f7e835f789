// A member function call is an error at the call.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

struct Poly {
  int Degree;
  double eval(double x) { return Degree * x; } // not const
};

// CHECK: member-call.cpp:[[@LINE+3]]:10: error: grad: cannot differentiate call to non-const member function 'eval' whose result is used (if it does not change its object, declare it 'const') in 'f'
// CHECK: member-call.cpp:[[@LINE+1]]:3: note: while differentiating 'f' requested here
[[grad]] double f(Poly &p, double x) {
  return p.eval(x) * x;
}
