// -fplugin-arg-grad-print-activity prints the activity analysis of every
// differentiated function as a remark: active variables in discovery order,
// then the variables written after their declaration, sorted.
// RUN: %gradxx -fsyntax-only -fplugin-arg-grad-print-activity %s 2>&1 | %FileCheck-strict %s

// CHECK: print-activity.cpp:[[@LINE+1]]:17: remark: grad: activity of 'f': active: x y z; written: k z{{$}}
[[grad]] double f(double x, double y, int n) {
  double k = 3; // constant: inactive even though it is written
  k = k + n;
  double z = x * k;
  z = z * y;
  return z + k;
}

// CHECK: print-activity.cpp:[[@LINE+1]]:17: remark: grad: activity of 'g': active: x; written:{{$}}
[[grad]] double g(double x, int n) { return x * n; }
