// [[grad]] on anything but a function is an error at the attribute.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

// CHECK: attr-not-function.cpp:[[@LINE+1]]:3: error: grad: 'grad' attribute only applies to functions
[[grad]] double weight = 1;

// CHECK: attr-not-function.cpp:[[@LINE+1]]:10: error: grad: 'grad' attribute only applies to functions
struct [[grad]] Point {
  double x, y;
};

// CHECK: attr-not-function.cpp:[[@LINE+1]]:3: error: grad: 'grad' attribute only applies to functions
[[grad::grad]] double other = 2;
