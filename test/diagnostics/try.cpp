// A 'try' block is an error at the 'try'.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

// CHECK: try.cpp:[[@LINE+4]]:3: error: grad: cannot differentiate 'try' block in 'f'
// CHECK: try.cpp:[[@LINE+1]]:3: note: while differentiating 'f' requested here
[[grad]] double f(double x) {
  double y = x;
  try {
    y = x * x;
  } catch (...) {
  }
  return y;
}
