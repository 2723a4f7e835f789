// A call through a function pointer is an error at the call, naming the
// pointer.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

// CHECK: function-pointer.cpp:[[@LINE+3]]:10: error: grad: cannot differentiate call through the function pointer 'fn' in 'apply'
// CHECK: function-pointer.cpp:[[@LINE+1]]:3: note: while differentiating 'apply' requested here
[[grad]] double apply(double (*fn)(double), double x) {
  return fn(x) * x;
}
