// Constructs that are not differentiated YET: early return, loops, arrays,
// switch. Each is a clear error today. Delete this file (and write positive
// tests) when they land.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

// CHECK: later.cpp:[[@LINE+3]]:14: error: grad: cannot differentiate early 'return' in 'early'
// CHECK: later.cpp:[[@LINE+1]]:3: note: while differentiating 'early' requested here
[[grad]] double early(double x) {
  if (x > 0) return x;
  return -x;
}

// CHECK: later.cpp:[[@LINE+4]]:3: error: grad: cannot differentiate 'for' loop in 'for_loop'
// CHECK: later.cpp:[[@LINE+1]]:3: note: while differentiating 'for_loop' requested here
[[grad]] double for_loop(double x) {
  double s = 0;
  for (int i = 0; i < 3; ++i)
    s += x * i;
  return s;
}

// CHECK: later.cpp:[[@LINE+3]]:3: error: grad: cannot differentiate 'while' loop in 'while_loop'
// CHECK: later.cpp:[[@LINE+1]]:3: note: while differentiating 'while_loop' requested here
[[grad]] double while_loop(double x) {
  while (x > 1)
    x = x / 2;
  return x;
}

// CHECK: later.cpp:[[@LINE+3]]:3: error: grad: cannot differentiate 'do' loop in 'do_loop'
// CHECK: later.cpp:[[@LINE+1]]:3: note: while differentiating 'do_loop' requested here
[[grad]] double do_loop(double x) {
  do {
    x = x * x;
  } while (x < 10);
  return x;
}

// CHECK: later.cpp:[[@LINE+3]]:3: error: grad: cannot differentiate local variable of type 'double[2]' in 'local_array'
// CHECK: later.cpp:[[@LINE+1]]:3: note: while differentiating 'local_array' requested here
[[grad]] double local_array(double x) {
  double a[2] = {x, x * x};
  return a[0] + a[1];
}

// CHECK: later.cpp:[[@LINE+2]]:50: error: grad: cannot differentiate parameter of type 'const double *' in 'array_param'
// CHECK: later.cpp:[[@LINE+1]]:3: note: while differentiating 'array_param' requested here
[[grad]] double array_param(int n, const double *a) {
  return a[0] * n;
}

// CHECK: later.cpp:[[@LINE+4]]:3: error: grad: cannot differentiate 'switch' statement in 'with_switch'
// CHECK: later.cpp:[[@LINE+1]]:3: note: while differentiating 'with_switch' requested here
[[grad]] double with_switch(double x, int k) {
  double y = x;
  switch (k) {
  case 0:
    y = 2 * x;
    break;
  default:
    break;
  }
  return y;
}
