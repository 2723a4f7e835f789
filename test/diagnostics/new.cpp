// A 'new' expression is an error that names it, at the 'new'.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

// CHECK: new.cpp:[[@LINE+3]]:15: error: grad: cannot differentiate 'new' expression in 'f'
// CHECK: new.cpp:[[@LINE+1]]:3: note: while differentiating 'f' requested here
[[grad]] double f(double x) {
  double *p = new double(x);
  double y = *p * x;
  delete p;
  return y;
}
