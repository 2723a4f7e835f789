// An unsupported construct in a callee differentiated on demand: the error
// is in the callee, with a note at the call and a note at the [[grad]] site.
// RUN: not %gradxx -fsyntax-only %s 2>&1 | %FileCheck-strict %s

double helper(double x) {
  // CHECK: callee-note.cpp:[[@LINE+1]]:3: error: grad: cannot differentiate 'goto' in 'helper'
  goto done;
done:
  return x * x;
}

// CHECK: callee-note.cpp:[[@LINE+3]]:10: note: while differentiating 'helper', called here
// CHECK: callee-note.cpp:[[@LINE+1]]:3: note: while differentiating 'f' requested here
[[grad]] double f(double x) {
  return helper(x) * 2;
}
