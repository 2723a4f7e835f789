// Writing a global is an error at the write; reading one is fine (a
// constant for differentiation).
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

double last;
double scale = 2;

// CHECK: global-write.cpp:[[@LINE+3]]:3: error: grad: cannot differentiate write to global variable 'last' in 'f'
// CHECK: global-write.cpp:[[@LINE+1]]:3: note: while differentiating 'f' requested here
[[grad]] double f(double x) {
  last = x;
  return x * scale;
}

// CHECK: global-write.cpp:[[@LINE+3]]:3: error: grad: cannot differentiate write to global variable 'last' in 'g'
// CHECK: global-write.cpp:[[@LINE+1]]:3: note: while differentiating 'g' requested here
[[grad]] double g(double x) {
  last += x;
  return x;
}
