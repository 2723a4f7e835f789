// Inline assembly in a [[grad]] function is an error at the statement.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

// CHECK: inline-asm.cpp:[[@LINE+3]]:3: error: grad: cannot differentiate inline assembly in 'f'
// CHECK: inline-asm.cpp:[[@LINE+1]]:3: note: while differentiating 'f' requested here
[[grad]] double f(double x) {
  asm volatile("nop");
  return x * x;
}
