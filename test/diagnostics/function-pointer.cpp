// A call through a function pointer is an error at the call, naming the
// pointer.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

// CHECK: function-pointer.cpp:[[@LINE+3]]:10: error: grad: cannot differentiate call through the function pointer 'fn' in 'apply'
// CHECK: function-pointer.cpp:[[@LINE+1]]:3: note: while differentiating 'apply' requested here
[[grad]] double apply(double (*fn)(double), double x) {
  return fn(x) * x;
}

// A pointer loaded from a table at run time: named as written.
double sq(double t) { return t * t; }
double cube(double t) { return t * t * t; }
double (*table[2])(double) = {sq, cube};
// CHECK: function-pointer.cpp:[[@LINE+3]]:10: error: grad: cannot differentiate call through the function pointer 'table[k]' (its target is chosen at run time: call the functions by name, in a switch over the index) in 'fromTable'
// CHECK: function-pointer.cpp:[[@LINE+1]]:3: note: while differentiating 'fromTable' requested here
[[grad]] double fromTable(int k, double x) {
  return table[k](x) * x;
}
