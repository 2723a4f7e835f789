// 'goto' in a [[grad]] function is an error at the statement, with a note at
// the [[grad]] site.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

// CHECK: goto.cpp:[[@LINE+3]]:3: error: grad: cannot differentiate 'goto' in 'f'
// CHECK: goto.cpp:[[@LINE+1]]:3: note: while differentiating 'f' requested here
[[grad]] double f(double x) {
  goto done;
done:
  return x * x;
}
